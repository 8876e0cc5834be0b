#ifndef PATCHVER_STABLE_FIXCLASS_H
#define PATCHVER_STABLE_FIXCLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/tags.h"
#include "patchver/stable/evidence.h"
#include "patchver/stable/patch.h"

/*
 * "Is it a fix?" -- the triage's first question and the audit's, answered
 * the same way for both, from what is cheap: the message, the diff's shape
 * and the files (no blame).  Which releases carry the bug is decided
 * afterwards, by blame and the release index, as for every class.
 *
 *   FIXCLASS_FIX       the commit's own word: Cc: stable, KVM-Stable-Tag, a
 *                      Fixes: trailer, a culprit it names or a commit it
 *                      reverts; a commit it mentions in released code (or
 *                      carried by a stable series).  A fix of code no
 *                      release had is a fix all the same: not for stable.
 *   FIXCLASS_POSSIBLE  no such word, but it looks like what stable takes:
 *                      a sign of a fix (fix words, a failure described, a
 *                      report, a Tested-by:, a bug tracker, a quoted oops,
 *                      a new device id, merged after -rc1) and a score of
 *                      its signs and shape of FIXSCORE_POSSIBLE or more
 *   FIXCLASS_NOT_FIX   documentation, MAINTAINERS, defconfigs, version bumps,
 *                      merges, new files only (drivers, features), removals,
 *                      renames; or too little sign of a fix for its shape:
 *                      cleanups, features and reworks, staging drivers,
 *                      changes larger than the stable rules' 100 lines with
 *                      context score low without a word
 *
 * The developer's Cc: stable makes a commit a fix whatever its files.  The
 * signals and the score's weights were chosen by measurement against the
 * stable team's own picks of the 2.6.35 cycle (bench/picks.py,
 * bench/RESULTS.md).
 */
enum fix_class { FIXCLASS_NOT_FIX, FIXCLASS_POSSIBLE, FIXCLASS_FIX };

/* The word that made it a fix. */
enum fix_word {
	FIXWORD_NONE,
	FIXWORD_CC_STABLE,
	FIXWORD_STABLE_TAG,     /* a subsystem's mark: "KVM-Stable-Tag" */
	FIXWORD_FIXES,          /* a Fixes: trailer */
	FIXWORD_NAMED,          /* "introduced by <sha>", a quoted culprit */
	FIXWORD_MENTION,        /* "commit <sha>" in released code */
	FIXWORD_REVERT,         /* reverts released code */
};

/* What looks like a fix (bits), for FIXCLASS_POSSIBLE and the JSON. */
enum {
	FIXSIG_SUBJECT = 1 << 0,    /* fix words in the subject */
	FIXSIG_BODY = 1 << 1,       /* a failure described in the body */
	FIXSIG_REPORTED = 1 << 2,   /* Reported-by:, Bisected-by: */
	FIXSIG_OOPS = 1 << 3,       /* an oops, BUG or trace quoted */
	FIXSIG_DEVICE_ID = 1 << 4,  /* adds device ids or a quirk */
	FIXSIG_TESTED = 1 << 5,     /* Tested-by:, Reported-and-tested-by: */
	FIXSIG_BUG_LINK = 1 << 6,   /* a bug tracker's entry: bugzilla, launchpad, "bug #123" */
	FIXSIG_LATE = 1 << 7,       /* merged after the merge window (first in -rc2 .. final) */
};
#define FIXSIG_COUNT 8

/*
 * What the score of a commit without a word weighs (bits 1 << FIXFEAT_*):
 * its signs of a fix, then its shape.  Each has a weight (fixclass.c)
 * fitted to the stable team's picks; the JSON lists them by key.
 */
enum fix_feature {
	FIXFEAT_LATE,               /* merged after -rc1 */
	FIXFEAT_SUBJECT_FIX,        /* "fix", "fixes", "fixup" ... in the subject */
	FIXFEAT_SUBJECT_OTHER,      /* another fix word in the subject, no "fix" */
	FIXFEAT_FAILURE,            /* a failure described in the body */
	FIXFEAT_REPORTED,           /* Reported-by:, Bisected-by: */
	FIXFEAT_DEVICE_ID,          /* adds a device id or quirk */
	FIXFEAT_TESTED,             /* Tested-by: */
	FIXFEAT_BUG_LINK,           /* a bug tracker's entry */
	FIXFEAT_LARGE,              /* over 100 lines with context */
	FIXFEAT_STAGING,            /* drivers/staging/ only */
	FIXFEAT_CLEANUP,            /* cleanup words in the subject, no failure word */
	FIXFEAT_FEATURE,            /* "add", "support", "convert" ... in the subject */
	FIXFEAT_LINES_10,           /* up to 10 lines with context */
	FIXFEAT_LINES_30,           /* 11 to 30 */
	FIXFEAT_LINES_100,          /* 31 to 100 */
	FIXFEAT_ONE_FILE,           /* one file */
	FIXFEAT_TOOLS,              /* tools/ only: programs that run in user space */
	FIXFEAT_BOARD,              /* arch/X/mach-* or plat-* only: board support */
	FIXFEAT_BUILD_FILES,        /* Kconfig, Makefile, Kbuild only */
	FIXFEAT_COUNT
};

/* A commit without a word scores this (hundredths) or more: possibly a fix. */
#define FIXSCORE_POSSIBLE (-409)

/* Why it is no fix. */
enum fix_shape {
	FIXSHAPE_CODE,              /* a change to code: no shape says "not a fix" */
	FIXSHAPE_MERGE,
	FIXSHAPE_EMPTY,             /* changes no file */
	FIXSHAPE_DOCS,              /* Documentation/, MAINTAINERS, README, ... */
	FIXSHAPE_DEFCONFIG,
	FIXSHAPE_VERSION,           /* the top Makefile's version lines */
	FIXSHAPE_NEW_FILES,         /* adds files only: a new driver or feature */
	FIXSHAPE_REMOVAL,           /* deletes files only */
	FIXSHAPE_RENAME,            /* renames files only */
	FIXSHAPE_STAGING,           /* drivers/staging only: drivers in the making */
	FIXSHAPE_LARGE,             /* over the stable rules' 100 lines with context */
	FIXSHAPE_CLEANUP,           /* the subject says cleanup, style, typo... */
	FIXSHAPE_FEATURE,           /* the subject says it adds or reworks */
};

struct fix_kind {
	enum fix_class cls;
	enum fix_word word;
	uint32_t word_commit;       /* the commit the word names, or PV_NONE */
	unsigned signals;           /* FIXSIG_* */
	enum fix_shape shape;
	int score;                  /* hundredths; FIXSCORE_POSSIBLE or more: possibly a fix */
	unsigned features;          /* 1 << FIXFEAT_*: what the score added */
	char *reason;               /* "changes only MAINTAINERS" */
};

/*
 * Is commit (nparents: its parents) with patch p and message evidence ev
 * a fix?  late: it was merged after the merge window (fixclass_late()).
 * released(ctx, c): is c in a released kernel or carried by a stable
 * series -- a word about unreleased code is no word for stable.
 */
typedef bool fix_released_fn(void *ctx, uint32_t commit);
void fixclass_judge(struct fix_kind *out, const struct patch *p, unsigned nparents, bool late,
		    const struct evidence_list *ev, fix_released_fn *released, void *ctx);
void fix_kind_free(struct fix_kind *v);

/*
 * Was a commit whose first release is tag first (PV_NONE: none yet)
 * merged after the merge window?  Only fixes go into mainline after -rc1,
 * so a commit first in -rc2 .. the final went in as a fix.
 */
bool fixclass_late(const struct tag_table *t, uint32_t first);

/*
 * Did a final release carry code first released in tag first before the
 * fix's first release fix_first (PV_NONE: none yet)?  A culprit of
 * v2.6.35-rc1 fixed in v2.6.35-rc3 was never released without its fix.
 */
bool fixclass_released_before(const struct tag_table *t, uint32_t first, uint32_t fix_first);

/* "stable-candidate"-style keys for JSON, and the names of the parts */
const char *fixclass_key(enum fix_class cls);
const char *fixword_key(enum fix_word word);
const char *fixshape_key(enum fix_shape shape);
/* the i-th set signal's key ("subject-fix-words" ...), NULL past the last */
const char *fixsig_key(unsigned bit);
/* a feature's key ("merged-after-rc1" ...) */
const char *fixfeat_key(enum fix_feature f);

#endif
