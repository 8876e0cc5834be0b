/*
 * Object ids without libgit2 (oid.h).
 */
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/oid.h"

char *oid_to_hex(char *out, size_t size, const unsigned char *id)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = size ? size - 1 : 0;

	if (n > 40)
		n = 40;
	for (size_t i = 0; i < n; i++)
		out[i] = digits[i & 1 ? id[i / 2] & 15 : id[i / 2] >> 4];
	if (size)
		out[n] = '\0';
	return out;
}

int oid_from_hex(const char *hex, size_t len, unsigned char *id)
{
	if (len != 40)
		return -1;
	for (size_t i = 0; i < 20; i++) {
		int v = 0;
		for (int k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (d < 0)
				return -1;
			v = v * 16 + d;
		}
		id[i] = (unsigned char)v;
	}
	return 0;
}

static int entry_cmp(const unsigned char *ids, uint32_t i, const unsigned char *id)
{
	return memcmp(ids + (size_t)i * OID_TABLE_LEN, id, OID_TABLE_LEN);
}

uint32_t oid_table_find(const unsigned char *fanout, const unsigned char *ids, uint32_t nr,
			const unsigned char *id)
{
	uint32_t lo = id[0] ? get_be32(fanout + 4 * (id[0] - 1u)) : 0, hi = get_be32(fanout + 4 * id[0]);
	uint32_t guess, step = 1;
	int c;

	if (hi > nr)
		hi = nr;
	if (lo >= hi)
		return PV_NONE;
	/* ids are uniform: the next bytes say about where it is */
	guess = lo + (uint32_t)(((uint64_t)get_be32(id + 1) * (hi - lo)) >> 32);
	if ((c = entry_cmp(ids, guess, id)) == 0)
		return guess;
	if (c < 0) {            /* gallop up: bracket (guess, hi) */
		lo = guess + 1;
		while (lo + step < hi && entry_cmp(ids, lo + step, id) < 0) {
			lo += step + 1;
			step *= 2;
		}
		if (lo + step < hi)
			hi = lo + step + 1;
	} else {                /* gallop down: bracket [lo, guess) */
		hi = guess;
		while (hi > lo + step && entry_cmp(ids, hi - step - 1, id) > 0) {
			hi -= step + 1;
			step *= 2;
		}
		if (hi > lo + step)
			lo = hi - step - 1;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if ((c = entry_cmp(ids, mid, id)) == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return PV_NONE;
}
