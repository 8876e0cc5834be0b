#ifndef PATCHVER_STABLE_EVIDENCE_MODE_H
#define PATCHVER_STABLE_EVIDENCE_MODE_H

/*
 * --evidence: which evidence may decide a triage's groups (origin.c) --
 * the message's (Fixes:, named culprits), blame's, or both; or the
 * audit's ("text"): the message's, else whether each release has the
 * lines the fix changes (preimage.h), with no blame at all.  A header of
 * its own so that the front parses the option without the triage's
 * headers, which bring libgit2's.
 */
enum evidence_mode { EVIDENCE_ALL, EVIDENCE_MESSAGE, EVIDENCE_BLAME, EVIDENCE_TEXT };

#endif
