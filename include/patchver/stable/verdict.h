#ifndef PATCHVER_STABLE_VERDICT_H
#define PATCHVER_STABLE_VERDICT_H

#include "patchver/engine/history.h"
#include "patchver/stable/triage.h"

/*
 * A triage's verdict: for each group, one line that says what the fix
 * means for stable (not for stable, a candidate for these series, not a
 * fix) and why, with its class and confidence; and what that means for
 * the fix's own Cc: stable tag.  The only "verdict" of stable/: other
 * layers' answers have names of their own (a fix's kind, a boot's answer).
 */

/* Each group's verdict and class, and the note on the fix's Cc: stable tag (t->cc_note). */
void triage_verdict(struct triage *t, const struct history *h);

/* "stable-candidate", "possible-stable-candidate", "not-for-stable", ... */
const char *triage_class_key(enum triage_class cls);

/* "certain", "likely", "uncertain", "none" */
const char *confidence_name(enum confidence conf);

#endif
