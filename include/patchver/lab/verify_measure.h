#ifndef PATCHVER_LAB_VERIFY_MEASURE_H
#define PATCHVER_LAB_VERIFY_MEASURE_H

#include <stdint.h>

#include "patchver/lab/verify_run.h"

/* --verify-boot --measure (struct verify, verify_run.h): where the bug shows, by boot. */

/*
 * --measure's work, after the plan's boots: where the bug shows, the
 * measured first release booted when the plan had not, and the text's
 * releases the boots put outside marked so.  0 or a PV_E* code.
 */
int verify_measure(struct verify *v);

/* The text's introducer: the headline group's earliest (as the CVE record takes it). */
uint32_t verify_text_culprit(const struct verify *v, uint32_t *release);

/* What --measure may add: the widest run of affected releases between two planned ones. */
void verify_measure_bound(const struct verify *v, struct verify_result *r);

#endif
