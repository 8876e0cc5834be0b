/*
 * libFuzzer target: pack entries as objstore.c reads them (type and size
 * headers, zlib streams, offset and ref deltas, delta instructions).
 *
 * Input: one byte n (at most 16), n big-endian 32-bit offsets into the
 * body, then the body.  The harness writes a pack ("PACK", version 2, the
 * body, a 20-byte trailer) and a version 2 index whose entry k has the id
 * of twenty bytes k + 1 and the k-th offset, then reads every entry whole
 * and as a prefix.  A read returns an object or PV_EDECLINED; anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/engine/objstore.h"

static char dir[64];

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void spill(const char *name, const unsigned char *buf, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/pack/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, n, f) != n)
		abort();
	fclose(f);
}

static void write_files(const uint8_t *data, size_t size, unsigned n)
{
	size_t body = size - 1 - 4 * (size_t)n, isize = 8 + 1024 + n * 28 + 40;
	unsigned char *pack = calloc(1, 12 + body + 20), *idx = calloc(1, isize);

	memcpy(pack, "PACK", 4);
	put32(pack + 4, 2);
	put32(pack + 8, n);
	memcpy(pack + 12, data + 1 + 4 * n, body);
	memcpy(idx, "\377tOc", 4);
	put32(idx + 4, 2);
	for (unsigned b = 0; b < 256; b++) {      /* ids k+1: byte k+1 starts entry k */
		put32(idx + 8 + 4 * b, b < n ? b : n);
	}
	for (unsigned k = 0; k < n; k++) {
		uint32_t off = (uint32_t)data[1 + 4 * k] << 24 | (uint32_t)data[2 + 4 * k] << 16 |
			       (uint32_t)data[3 + 4 * k] << 8 | data[4 + 4 * k];
		memset(idx + 1032 + 20 * k, (int)(k + 1), 20);
		put32(idx + 1032 + 24 * n + 4 * k, 12 + off % (uint32_t)(body + 1));
	}
	spill("p.pack", pack, 12 + body + 20);
	spill("p.idx", idx, isize);
	free(pack);
	free(idx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf out = SBUF_INIT;
	struct objstore *s;
	unsigned n;

	if (!dir[0]) {
		char path[80];
		snprintf(dir, sizeof(dir), "/tmp/fuzz-objstore-%d", (int)getpid());
		snprintf(path, sizeof(path), "%s/pack", dir);
		mkdir(dir, 0700);
		mkdir(path, 0700);
	}
	if (size < 1)
		return 0;
	n = data[0] % 17;
	if (size < 1 + 4 * (size_t)n)
		return 0;
	write_files(data, size, n);
	if (!(s = objstore_open(dir)))
		abort();
	for (unsigned k = 0; k < n; k++) {
		unsigned char oid[20];
		int type;

		memset(oid, (int)(k + 1), sizeof(oid));
		type = objstore_read(s, oid, 0, &out);
		if (type != PV_EDECLINED && (type < 1 || type > 4))
			abort();
		type = objstore_read(s, oid, 16, &out);
		if (type != PV_EDECLINED && (type < 1 || type > 4))
			abort();
	}
	objstore_close(s);
	sbuf_free(&out);
	return 0;
}
