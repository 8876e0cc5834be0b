/*
 * Kernel version parsing and ordering.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/kver.h"

/* Read a decimal without sign or leading zeros (beyond "0"); -1 on failure. */
static int read_num(const char **p)
{
	const char *s = *p;
	long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > 1000000)
			return -1;
		s++;
	}
	*p = s;
	return (int)v;
}

bool kver_parse(const char *name, struct kver *out)
{
	const char *p = name;
	int nums[4], n = 0;
	struct kver v;

	if (*p++ != 'v')
		return false;
	for (;;) {
		int x = read_num(&p);
		if (x < 0 || n == 4)
			return false;
		nums[n++] = x;
		if (*p != '.')
			break;
		p++;
	}
	memset(&v, 0, sizeof(v));
	if (n >= 2 && nums[0] == 2) {
		/* 2.6.x era: three numbers are the base, a fourth is stable */
		if (n < 3)
			return false;
		v.nbase = 3;
		v.stable = n == 4 ? nums[3] : 0;
	} else if (n >= 2 && n <= 3 && nums[0] >= 3) {
		v.nbase = 2;
		v.stable = n == 3 ? nums[2] : 0;
	} else {
		return false;
	}
	memcpy(v.base, nums, sizeof(int) * (size_t)v.nbase);
	if (v.stable == 0 && n > v.nbase)
		return false;   /* v2.6.34.0 or v3.0.0 is not a tag linux uses */
	if (strncmp(p, "-rc", 3) == 0) {
		p += 3;
		v.rc = read_num(&p);
		if (v.rc <= 0)
			return false;
	}
	if (*p)
		return false;
	*out = v;
	return true;
}

int kver_cmp(const struct kver *a, const struct kver *b)
{
	for (int i = 0; i < 3; i++)
		if (a->base[i] != b->base[i])
			return a->base[i] < b->base[i] ? -1 : 1;
	if (a->stable != b->stable)
		return a->stable < b->stable ? -1 : 1;
	/* an rc comes before the final it leads to: rc 0 sorts last */
	if (a->rc != b->rc) {
		if (!a->rc)
			return 1;
		if (!b->rc)
			return -1;
		return a->rc < b->rc ? -1 : 1;
	}
	return 0;
}

bool kver_same_series(const struct kver *a, const struct kver *b)
{
	return a->nbase == b->nbase && memcmp(a->base, b->base, sizeof(a->base)) == 0;
}

void kver_series(const struct kver *v, char *buf, size_t len)
{
	if (v->nbase == 3)
		snprintf(buf, len, "%d.%d.%d", v->base[0], v->base[1], v->base[2]);
	else
		snprintf(buf, len, "%d.%d", v->base[0], v->base[1]);
}
