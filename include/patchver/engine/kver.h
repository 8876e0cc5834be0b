#ifndef PATCHVER_ENGINE_KVER_H
#define PATCHVER_ENGINE_KVER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Kernel release versions as tagged in linux.git: vX.Y, vX.Y.Z, vX.Y-rcN,
 * vX.Y.Z-rcN (2.6.x style carries one more number: v2.6.34.1).
 *
 * The "base" is the mainline release a version belongs to (2.6.34 for
 * v2.6.34-rc3, v2.6.34 and v2.6.34.5); "stable" is the number after the
 * base (5 for v2.6.34.5, 0 for a mainline tag).  Order is numeric on
 * (base, stable) with an rc before its final: v2.6.34-rc7 < v2.6.34 <
 * v2.6.34.1 < v2.6.35-rc1, which is what `sort -V` gets wrong.
 */
struct kver {
	int base[3];      /* 2,6,34 or 3,10,0 (third unused for 3.x+) */
	int nbase;        /* 3 for 2.6.x, 2 for 3.x and later */
	int stable;       /* 0 on mainline */
	int rc;           /* 0 for a final */
};

/* Parse "v2.6.34-rc3" (leading 'v' required); false if not a kernel version. */
bool kver_parse(const char *name, struct kver *out);

/* <0, 0, >0 as a sorts before, equal to, after b. */
int kver_cmp(const struct kver *a, const struct kver *b);

static inline bool kver_is_rc(const struct kver *v) { return v->rc != 0; }
static inline bool kver_is_stable(const struct kver *v) { return v->stable != 0; }

/* The series a version belongs to: "2.6.34" (for 2.6.34.y stable tags). */
void kver_series(const struct kver *v, char *buf, size_t len);

/*
 * Same series (2.6.34 for v2.6.34-rc1, v2.6.34 and v2.6.34.2)?  The one
 * answer to "are these the same series?" for every module.
 */
bool kver_same_series(const struct kver *a, const struct kver *b);

#endif
