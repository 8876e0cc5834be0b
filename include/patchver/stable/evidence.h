#ifndef PATCHVER_STABLE_EVIDENCE_H
#define PATCHVER_STABLE_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/stable/fixblame.h"
#include "patchver/stable/patch.h"

/*
 * What a fix's message says about the commit that introduced its bug, as
 * kernel developers write it:
 *
 *   Fixes: <sha> ("subject")                        EV_FIXES
 *   "introduced by <sha> (subject)", "caused by commit <sha>",
 *   "since <sha>", "regression from <sha>", "broken by <sha>", ...
 *   and a culprit named by its quoted subject: 'the regression created
 *   by "set S_DEAD on unlink()..." commit', 'Revert "subject"'   EV_NAMED
 *   "commit <sha>" with no such phrase                EV_MENTION
 *
 * and, from the code, EV_BLAME: the commits that last changed the lines
 * the fix touches.  A sha or subject that does not resolve is kept, with
 * the reason, so that it is reported rather than dropped.
 */
enum evidence_kind {
	EV_FIXES,
	EV_NAMED,
	EV_MENTION,
	EV_BLAME,
	EV_GIVEN,       /* an introducer a person gave (--introducer) */
};

/*
 * A short id that prefixes more than one commit: two of them (both below
 * the fix when below_fix > 1; none is below it when below_fix is 0).
 */
struct ambiguity {
	uint32_t candidates[2];
	unsigned ncandidates;
	unsigned below_fix;
};

struct evidence {
	enum evidence_kind kind;
	char ref[41];               /* the sha as written (blame: full) */
	uint32_t commit;            /* PV_NONE: not resolved, see unresolved */
	const char *unresolved;     /* "unknown", "ambiguous...", "a tree", ... */
	struct ambiguity ambiguity; /* the candidates of an ambiguous short id */
	char *phrase;               /* EV_NAMED: "introduced by", "quoted subject" */
	char *claimed_subject;      /* the subject the message gives, if any */
	bool subject_mismatch;
	bool not_ancestor;          /* the named commit is not below the fix */
	bool merge;                 /* a merge commit: says little about the bug */
	struct blamed lines;        /* EV_BLAME line counts */
	uint32_t first_release;     /* tag index or PV_NONE */
};

struct evidence_list {
	struct evidence *v;
	size_t nr;
	bool cc_stable;
	char cc_hint[32];           /* "2.6.32+" from "# 2.6.32+" */
};

/*
 * Read msg (a commit's or a mail's) for fix: add its evidence to list,
 * one entry per commit across calls.  fixp: the fix's patch, whose files
 * bound the search for a culprit named by subject.
 */
void evidence_read(struct evidence_list *list, struct history *h, uint32_t fix,
		   const char *msg, const struct patch *fixp);

struct evidence *evidence_add(struct evidence_list *list, enum evidence_kind kind);
void evidence_list_free(struct evidence_list *list);

/* "Fixes:", "named", "commit mention", "blame", "given" */
const char *evidence_kind_name(enum evidence_kind kind);
/* "fixes", "named", "mention", "blame", "given" (JSON) */
const char *evidence_kind_key(enum evidence_kind kind);

#endif
