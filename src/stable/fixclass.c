/*
 * Is it a fix?  One classifier for the triage and the audit (fixclass.h).
 *
 * The word lists below were chosen on the tuning half of the 2.6.35
 * cycle against what 2.6.34.y took (bench/picks.py signals): a word
 * stays when the picks use it far more often than the rest of the cycle.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patchver/base/util.h"
#include "patchver/stable/fixclass.h"

/* Subject words of a fix ('*': any ending). */
static const char *const fix_words[] = {
	"fix*", "bug*", "crash*", "oops*", "leak*", "race", "races", "racy", "deadlock*",
	"overflow*", "underflow*", "null", "panic*", "hang", "hangs", "hung", "lockup*",
	"corrupt*", "uninitiali*", "regression*", "broken", "breakage", "wrong*",
	"incorrect*", "invalid", "missing", "fail*", "don't", "dont", "doesn't",
	"avoid*", "prevent*", "should", "must", "ensure", "properly", "correct",
	"correctly", "bogus", "erroneous", "imbalance", "unbalanced", "stuck",
	"off-by-one", "workaround", "bad", "error", "errors", "problem*", "issue*",
	"unaligned", "misaligned", "recursion", "lockdep", "warn*", "sanity",
	"restore", "revert*", NULL,
};
/* Phrases of a fix that no single word carries. */
static const char *const fix_phrases[] = {
	"make sure", "do not", "does not", "not to", "use after free",
	"use-after-free", "out of bounds", "double free", "error path", NULL,
};
/* Subject words of a cleanup: no bug was fixed, whatever else it says. */
static const char *const cleanup_words[] = {
	"cleanup*", "checkpatch", "whitespace", "typo*", "spelling", "kerneldoc",
	"kernel-doc", "comment", "comments", "indent*", "coding", "style", "trivial",
	"sparse", "unused", "cosmetic*", "tidy", "rename*", "warning", "warnings", "printk",
	"printks", "debug", NULL,
};
static const char *const cleanup_phrases[] = {
	"clean up", "clean-up", "coding style", "section mismatch", NULL,
};
/*
 * What a body says of a change that fixes nothing: "no functional change",
 * "doesn't affect correctness" (a cleanup that names the commit it tidies
 * after is no fix of it).
 */
static const char *const no_change_phrases[] = {
	"no functional change", "no functionality change", "no change in functionality",
	"no behaviour change", "no behavior change", "no change in behavio",
	"doesn't affect correctness", "does not affect correctness", "purely cosmetic",
	"just cosmetic", "only cosmetic", "cosmetic change", "should not change any",
	"shouldn't change any", NULL,
};
/* Subject words of a new feature or a rework, for the reason only. */
static const char *const feature_words[] = {
	"add", "adds", "added", "introduce*", "implement*", "support", "new", "convert*",
	"refactor*", "move", "moves", "remove", "removes", "simplify", "rework*",
	"replace*", "extract", "export", "consolidate", "unify", "split", "use",
	"update", "enable", "allow", NULL,
};
/* Body words that describe a failure a user sees. */
static const char *const failure_words[] = {
	"crash*", "oops*", "panic*", "hang", "hangs", "hung", "lockup*", "deadlock*",
	"leak*", "corrupt*", "regression*", "broken", "breaks", "fails", "failed",
	"failure*", "bug", "bugs", "race", "races", "racy", "problem*", "lockdep", NULL,
};
static const char *const failure_phrases[] = {
	"didn't work", "doesn't work", "does not work", "did not work", NULL,
};
/* What a quoted oops or trace looks like. */
static const char *const oops_marks[] = {
	"Call Trace:", "BUG: ", "RIP: ", "WARNING: at ", "Oops:", "Oops#", "kernel BUG at",
	"general protection fault", "NULL pointer dereference",
	"unable to handle kernel", "INFO: task ", "lockdep", "Kernel panic", NULL,
};
/* Added diff lines that add a device id or a quirk. */
static const char *const device_id_marks[] = {
	"USB_DEVICE", "PCI_DEVICE", "PCI_VDEVICE", "HID_USB_DEVICE", "SDIO_DEVICE",
	"DMI_MATCH", "_QUIRK", "PNP_ID", "ACPI_ID", "_PRODUCT_ID", "_DEVICE_ID",
	"USB_VENDOR_AND_INTERFACE", NULL,
};

/* Does word (lowercase, its length) match a list entry ('*' ends a prefix)? */
static bool in_list(const char *const *list, const char *word, size_t len)
{
	for (size_t i = 0; list[i]; i++) {
		size_t l = strlen(list[i]);
		if (list[i][l - 1] == '*' ? len >= l - 1 && !strncmp(word, list[i], l - 1) :
		    len == l && !strncmp(word, list[i], l))
			return true;
	}
	return false;
}

/* A lowercase copy of len bytes of text (caller frees). */
static char *lower_dup(const char *text, size_t len)
{
	char *low = xstrndup(text, len);

	for (char *p = low; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return low;
}

/*
 * The first word of text (lowercased: letters, digits, ' and -) in list, or
 * a phrase of phrases it contains; copied into found.
 */
static bool says(const char *text, size_t len, const char *const *list,
		 const char *const *phrases, char *found, size_t fsize)
{
	char *low = lower_dup(text, len);
	bool yes = false;

	for (size_t i = 0; phrases && phrases[i] && !yes; i++)
		if (strstr(low, phrases[i])) {
			snprintf(found, fsize, "%s", phrases[i]);
			yes = true;
		}
	for (char *p = low; *p && !yes;) {
		size_t n = 0;
		while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '\'' || p[n] == '-' ||
				p[n] == '_'))
			n++;
		if (n && in_list(list, p, n)) {
			snprintf(found, fsize, "%.*s", (int)n, p);
			yes = true;
		}
		p += n ? n : 1;
	}
	free(low);
	return yes;
}

/*
 * A feature's word in the subject, not counting the words of a fix's
 * phrase: "use after free" and "do not" add no feature.
 */
static bool says_feature(const char *words, char *found, size_t fsize)
{
	char *low = lower_dup(words, strlen(words));
	bool yes;

	for (size_t i = 0; fix_phrases[i]; i++)
		for (char *at = low; (at = strstr(at, fix_phrases[i]));)
			memset(at, ' ', strlen(fix_phrases[i]));
	yes = says(low, strlen(low), feature_words, NULL, found, fsize);
	free(low);
	return yes;
}

/* Cleanup words in the subject and no failure word: "rename causes kernel Oops" is no cleanup. */
static bool says_cleanup(const char *words, char *found, size_t fsize)
{
	char failure[64], word[64];

	if (!says(words, strlen(words), cleanup_words, cleanup_phrases, word, sizeof(word)) ||
	    says(words, strlen(words), failure_words, failure_phrases, failure, sizeof(failure)))
		return false;
	snprintf(found, fsize, "\"%s\" in the subject", word);
	return true;
}

/*
 * The body says the change changes nothing a user sees, and tells of no
 * failure (a fix that adds "no functional change for X" tells of one).
 */
static bool says_no_change(const char *message, unsigned signals, char *found, size_t fsize)
{
	char *low;
	bool yes = false;

	if (!message || (signals & (FIXSIG_BODY | FIXSIG_OOPS | FIXSIG_REPORTED)))
		return false;
	low = lower_dup(message, strlen(message));
	for (size_t i = 0; no_change_phrases[i] && !yes; i++)
		if (strstr(low, no_change_phrases[i])) {
			snprintf(found, fsize, "\"%s\" in the message", no_change_phrases[i]);
			yes = true;
		}
	free(low);
	return yes;
}

/* The subject without "subsys: part: " prefixes. */
static const char *subject_words(const char *subject)
{
	const char *colon = strrchr(subject, ':');

	return colon && colon[1] == ' ' ? colon + 2 : subject;
}

/* The body without the subject and the trailers (Signed-off-by: ...). */
static char *body_text(const char *message)
{
	const char *p = strchr(message, '\n');
	struct sbuf sb = SBUF_INIT;

	for (p = p ? p + 1 : ""; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		bool trailer = colon && colon > p && colon - p < 24 && colon[1] == ' ';

		for (const char *q = p; trailer && q < colon; q++)
			trailer = isalnum((unsigned char)*q) || *q == '-';
		if (!trailer) {
			sbuf_add(&sb, p, len);
			sbuf_adds(&sb, "\n");
		}
		p += len + (eol != NULL);
	}
	return sb.buf ? sb.buf : xstrdup("");
}

static bool has_trailer(const char *message, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = message; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncasecmp(p, name, n))
			return true;
	return false;
}

/* A bug tracker's entry: "bugzilla", "show_bug", "launchpad", "bug #12", "Bug 15422". */
static bool bug_link(const char *message)
{
	static const char *const trackers[] = {
		"bugzilla", "show_bug", "bugs.", "launchpad", "bug #", NULL,
	};
	char *low = lower_dup(message, strlen(message));
	bool yes = false;

	for (size_t i = 0; trackers[i] && !yes; i++)
		yes = strstr(low, trackers[i]) != NULL;
	for (const char *p = low; !yes && (p = strstr(p, "bug")); p += 3) {
		const char *q = p + 3;
		size_t digits = 0;
		while (isspace((unsigned char)*q))
			q++;
		while (isdigit((unsigned char)q[digits]))
			digits++;
		yes = digits >= 3;
	}
	free(low);
	return yes;
}

/* What the diff does, file by file. */
struct diff_shape {
	size_t files, docs, maintainers, documentation, defconfigs, new_files, deleted, renamed, top_makefile, staging;
	size_t tools, boards, build_files;
	size_t added, removed, lines;       /* lines: of the hunks, with context */
	size_t id_lines;            /* added lines with a device id mark */
	bool version_only;          /* the top Makefile's changed lines are version lines */
};

static bool doc_path(const char *path)
{
	static const char *const docs[] = {
		"Documentation/", "MAINTAINERS", "CREDITS", "README", ".mailmap", NULL,
	};
	const char *base = strrchr(path, '/');

	for (size_t i = 0; docs[i]; i++)
		if (!strncmp(path, docs[i], strlen(docs[i])))
			return true;
	base = base ? base + 1 : path;
	return !strcmp(base, ".gitignore") || !strncmp(base, "README", 6);
}

static bool marks(const char *line, size_t len, const char *const *list)
{
	for (size_t i = 0; list[i]; i++) {
		size_t l = strlen(list[i]);
		for (size_t k = 0; k + l <= len; k++)
			if (!memcmp(line + k, list[i], l))
				return true;
	}
	return false;
}

/* arch/arm/mach-omap2/..., arch/sh/boards/... are not: arch/X/mach-* and plat-* only */
static bool board_path(const char *path)
{
	const char *p = !strncmp(path, "arch/", 5) ? strchr(path + 5, '/') : NULL;

	return p && (!strncmp(p + 1, "mach-", 5) || !strncmp(p + 1, "plat-", 5));
}

static void shape_file(struct diff_shape *d, const char *path)
{
	const char *base = strrchr(path, '/');

	d->files++;
	d->docs += doc_path(path);
	d->maintainers += !strcmp(path, "MAINTAINERS");
	d->documentation += !strncmp(path, "Documentation/", 14);
	d->defconfigs += strstr(path, "defconfig") != NULL;
	d->top_makefile += !strcmp(path, "Makefile");
	d->staging += !strncmp(path, "drivers/staging/", 16);
	d->tools += !strncmp(path, "tools/", 6);
	d->boards += board_path(path);
	d->build_files += strstr(base ? base + 1 : path, "Kconfig") || strstr(base ? base + 1 : path, "Makefile") ||
			  strstr(base ? base + 1 : path, "Kbuild");
}

static void read_shape(struct diff_shape *d, const char *diff)
{
	bool in_makefile = false;

	memset(d, 0, sizeof(*d));
	d->version_only = true;
	for (const char *p = diff; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (!strncmp(p, "diff --git a/", 13)) {
			const char *sp = memchr(p + 13, ' ', len - 13);
			char *path = xstrndup(p + 13, sp ? (size_t)(sp - p - 13) : len - 13);
			shape_file(d, path);
			in_makefile = !strcmp(path, "Makefile");
			free(path);
		} else if (!strncmp(p, "new file mode", 13)) {
			d->new_files++;
		} else if (!strncmp(p, "deleted file mode", 17)) {
			d->deleted++;
		} else if (!strncmp(p, "rename from ", 12)) {
			d->renamed++;
		} else if (*p == ' ') {
			d->lines++;
		} else if ((*p == '+' || *p == '-') && strncmp(p, "+++ ", 4) && strncmp(p, "--- ", 4)) {
			d->lines++;
			static const char *const version[] = {
				"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION", "NAME", NULL,
			};
			bool vline = false;
			for (size_t i = 0; version[i] && !vline; i++)
				vline = !strncmp(p + 1, version[i], strlen(version[i]));
			if (!in_makefile || !vline)
				d->version_only = false;
			if (*p == '+') {
				d->added++;
				d->id_lines += marks(p, len, device_id_marks);
			} else {
				d->removed++;
			}
		}
		p += len + (eol != NULL);
	}
}

static enum fix_shape shape_of(const struct diff_shape *d, unsigned nparents)
{
	if (nparents > 1)
		return FIXSHAPE_MERGE;
	if (!d->files)
		return FIXSHAPE_EMPTY;
	if (d->docs == d->files)
		return FIXSHAPE_DOCS;
	if (d->defconfigs == d->files)
		return FIXSHAPE_DEFCONFIG;
	if (d->top_makefile == d->files && d->version_only)
		return FIXSHAPE_VERSION;
	if (d->new_files == d->files)
		return FIXSHAPE_NEW_FILES;
	if (d->deleted == d->files)
		return FIXSHAPE_REMOVAL;
	if (d->renamed == d->files && !d->added && !d->removed)
		return FIXSHAPE_RENAME;
	if (d->staging == d->files)
		return FIXSHAPE_STAGING;
	/* Documentation/stable_kernel_rules.txt: "no bigger than 100 lines, with context" */
	if (d->lines > 100)
		return FIXSHAPE_LARGE;
	return FIXSHAPE_CODE;
}

/* A subsystem's own mark for stable: KVM wrote "KVM-Stable-Tag" on a line. */
static bool subsystem_stable_tag(const char *msg)
{
	for (const char *p = msg; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncasecmp(p, "KVM-Stable-Tag", 14))
			return true;
	return false;
}

/* How strongly a piece of message evidence says "fix", 0: not at all. */
static unsigned word_rank(const struct evidence *e, bool released)
{
	/* a bare mention says "fix" only of released code */
	if (e->kind == EV_MENTION)
		return released ? 1 : 0;
	/* Fixes:, a named culprit or a revert: of any commit, released first */
	return (e->kind == EV_FIXES ? 3 : 2) + (released ? 2 : 0);
}

/* The commit's own word that it is a fix, and the commit it names. */
static enum fix_word word_of(const char *msg, const struct evidence_list *ev,
			     fix_released_fn *released, void *ctx, uint32_t *commit)
{
	unsigned best_rank = 0;
	enum fix_word best = FIXWORD_NONE;

	*commit = PV_NONE;
	if (ev->cc_stable)
		return FIXWORD_CC_STABLE;
	if (subsystem_stable_tag(msg))
		return FIXWORD_STABLE_TAG;
	for (size_t i = 0; i < ev->nr; i++) {
		const struct evidence *e = &ev->v[i];
		unsigned rank;

		/* a given introducer is a person's word, not the message's */
		if (e->commit == PV_NONE || e->kind == EV_BLAME || e->kind == EV_GIVEN || e->merge)
			continue;
		rank = word_rank(e, released(ctx, e->commit));
		if (rank <= best_rank)
			continue;
		best_rank = rank;
		best = e->kind == EV_FIXES ? FIXWORD_FIXES : e->kind == EV_MENTION ? FIXWORD_MENTION :
		       e->phrase && !strncasecmp(e->phrase, "revert", 6) ? FIXWORD_REVERT :
		       FIXWORD_NAMED;
		*commit = e->commit;
	}
	return best;
}

static unsigned signals_of(const struct patch *p, const struct diff_shape *d, char *why,
			   size_t wsize)
{
	const char *subject = p->subject ? p->subject : "";
	const char *words = subject_words(subject);
	char *body = body_text(p->message ? p->message : "");
	char found[64];
	unsigned s = 0;

	*why = 0;
	if (says(words, strlen(words), fix_words, fix_phrases, found, sizeof(found))) {
		s |= FIXSIG_SUBJECT;
		snprintf(why, wsize, "\"%s\" in the subject", found);
	}
	if (says(body, strlen(body), failure_words, failure_phrases, found, sizeof(found))) {
		s |= FIXSIG_BODY;
		if (!*why)
			snprintf(why, wsize, "\"%s\" in the message", found);
	}
	if (has_trailer(p->message ? p->message : "", "Reported-by:") ||
	    has_trailer(p->message ? p->message : "", "Bisected-by:"))
		s |= FIXSIG_REPORTED;
	if (marks(body, strlen(body), oops_marks))
		s |= FIXSIG_OOPS;
	if (has_trailer(p->message ? p->message : "", "Tested-by:") ||
	    has_trailer(p->message ? p->message : "", "Reported-and-tested-by:"))
		s |= FIXSIG_TESTED;
	if (bug_link(p->message ? p->message : ""))
		s |= FIXSIG_BUG_LINK;
	/* a few added id lines, nothing much else */
	if ((d->id_lines && d->added <= 40 && d->removed <= d->added && !d->new_files) ||
	    (says(words, strlen(words), (const char *const[]){ "quirk*", "id", "ids", NULL },
		  NULL, found, sizeof(found)) && d->added <= 40 && !d->new_files))
		s |= FIXSIG_DEVICE_ID;
	free(body);
	return s;
}

/* "\"fix\" in the subject, a Reported-by:, an oops quoted" */
static char *reason_possible(unsigned signals, const char *why)
{
	static const struct {
		unsigned bit;
		const char *text;
	} signs[] = {
		{ FIXSIG_REPORTED, "a Reported-by:" },
		{ FIXSIG_OOPS, "an oops quoted" },
		{ FIXSIG_TESTED, "a Tested-by:" },
		{ FIXSIG_BUG_LINK, "a bug tracker's entry" },
		{ FIXSIG_DEVICE_ID, "a device id or quirk added" },
		{ FIXSIG_LATE, "merged after -rc1" },
	};
	struct sbuf sb = SBUF_INIT;

	sbuf_adds(&sb, why);
	for (size_t i = 0; i < sizeof(signs) / sizeof(signs[0]); i++)
		if (signals & signs[i].bit)
			sbuf_addf(&sb, "%s%s", sb.len ? ", " : "", signs[i].text);
	return sb.buf ? sb.buf : xstrdup("");
}

/* Shapes that say "not a fix" whatever the signs, short of a word. */
static bool shape_final(enum fix_shape shape)
{
	return shape != FIXSHAPE_CODE && shape != FIXSHAPE_LARGE && shape != FIXSHAPE_STAGING &&
	       shape != FIXSHAPE_CLEANUP && shape != FIXSHAPE_FEATURE;
}

static char *reason_shape(const struct fix_kind *v, const struct diff_shape *d,
			  const char *cleanup, const char *feature)
{
	switch (v->shape) {
	case FIXSHAPE_MERGE:
		return xstrdup("a merge");
	case FIXSHAPE_EMPTY:
		return xstrdup("changes no file");
	case FIXSHAPE_DOCS:
		return xstrdup(d->maintainers == d->files ? "changes only MAINTAINERS" :
			       d->documentation == d->files ? "changes only Documentation/" :
			       "changes only documentation, MAINTAINERS and the like");
	case FIXSHAPE_DEFCONFIG:
		return xstrdup("changes only defconfigs");
	case FIXSHAPE_VERSION:
		return xstrdup("a version bump (the top Makefile's version lines only)");
	case FIXSHAPE_NEW_FILES:
		return xstrdup("adds new files only (a new driver or feature)");
	case FIXSHAPE_REMOVAL:
		return xstrdup("deletes files only");
	case FIXSHAPE_RENAME:
		return xstrdup("renames files only");
	case FIXSHAPE_STAGING:
		return xstrdup("changes only staging drivers, without a word of a fix for stable");
	case FIXSHAPE_LARGE:
		return xstrfmt("no word of a fix, and %zu lines with context: over the stable "
			       "rules' 100", d->lines);
	case FIXSHAPE_CLEANUP:
		return xstrfmt("a cleanup (%s)", cleanup);
	case FIXSHAPE_FEATURE:
		return xstrfmt("a feature or rework (\"%s\" in the subject%s)", feature,
			       v->signals ? "" : ", no sign of a fix");
	case FIXSHAPE_CODE:
		break;
	}
	return xstrdup(v->signals ? "too little sign of a fix" :
		       "no sign of a fix (no Cc: stable, Fixes:, named culprit, fix words, "
		       "report or oops)");
}

/* The shape's reason; with signs, what they scored against it. */
static char *reason_not_fix(const struct fix_kind *v, const struct diff_shape *d,
			    const char *why, const char *cleanup, const char *feature)
{
	char *shape = reason_shape(v, d, cleanup, feature), *signs, *reason;

	if (shape_final(v->shape) || !v->signals)
		return shape;
	signs = reason_possible(v->signals, why);
	reason = xstrfmt("%s; its signs (%s) score %d, a possible fix %d", shape, signs,
			 v->score, FIXSCORE_POSSIBLE);
	free(signs);
	free(shape);
	return reason;
}

static char *reason_word(enum fix_word w, const char *ref, bool released)
{
	const char *carried = released ? ", which released kernels carry" :
			      " (in no release before the fix)";

	switch (w) {
	case FIXWORD_CC_STABLE:
		return xstrdup("Cc: stable");
	case FIXWORD_STABLE_TAG:
		return xstrdup("KVM-Stable-Tag: the subsystem's mark for stable");
	case FIXWORD_FIXES:
		return xstrfmt("Fixes: %.12s%s", ref, carried);
	case FIXWORD_NAMED:
		return xstrfmt("names its culprit %.12s%s", ref, carried);
	case FIXWORD_MENTION:
		return xstrfmt("names commit %.12s%s", ref, carried);
	case FIXWORD_REVERT:
		return xstrfmt("reverts %.12s%s", ref, carried);
	case FIXWORD_NONE:
		break;
	}
	return xstrdup("");
}

/* The short sha the message gave for commit. */
static const char *ref_of(const struct evidence_list *ev, uint32_t commit)
{
	for (size_t i = 0; i < ev->nr; i++)
		if (ev->v[i].commit == commit && ev->v[i].kind != EV_BLAME)
			return ev->v[i].ref;
	return "?";
}

/*
 * Does the word stand against the shape?  The developer's Cc: stable
 * decides whatever the files; a Fixes:, a named culprit or a revert do
 * not make a typo, a comment or MAINTAINERS a fix; a bare mention of
 * released code is a word only beside a sign of a fix in code ("a rewrite
 * of what commit X added" is no fix of X).
 */
static bool word_stands(const struct fix_kind *v)
{
	switch (v->word) {
	case FIXWORD_CC_STABLE:
	case FIXWORD_STABLE_TAG:
	case FIXWORD_NONE:
		return true;
	case FIXWORD_MENTION:
		return v->shape == FIXSHAPE_CODE &&
		       (v->signals & (FIXSIG_SUBJECT | FIXSIG_BODY | FIXSIG_REPORTED | FIXSIG_OOPS));
	case FIXWORD_FIXES:
	case FIXWORD_NAMED:
	case FIXWORD_REVERT:
		break;
	}
	return v->shape != FIXSHAPE_MERGE && v->shape != FIXSHAPE_EMPTY &&
	       v->shape != FIXSHAPE_DOCS && v->shape != FIXSHAPE_DEFCONFIG &&
	       v->shape != FIXSHAPE_VERSION && v->shape != FIXSHAPE_CLEANUP;
}

/*
 * The score's weights (hundredths), fitted by logistic regression on the
 * tuning half of the 2.6.35 cycle: of its commits without a word, needed
 * in 2.6.34, which 2.6.34.y took (`bench/picks.py train`, which prints
 * this table).  FIXSCORE_POSSIBLE is where the not-picked commits of the
 * tuning half in the candidate classes reach 19.5%.  A sign of a fix
 * raises the score; a shape that stable seldom takes without a word
 * lowers it.
 */
#define FIXSCORE_BIAS (-318)
static const struct {
	const char *key;
	int weight;
} fix_features[FIXFEAT_COUNT] = {
	[FIXFEAT_LATE] = { "merged-after-rc1", 76 },
	[FIXFEAT_SUBJECT_FIX] = { "subject-fix", 31 },
	[FIXFEAT_SUBJECT_OTHER] = { "subject-fix-word", 39 },
	[FIXFEAT_FAILURE] = { "failure-described", 45 },
	[FIXFEAT_REPORTED] = { "reported-by", -24 },
	[FIXFEAT_DEVICE_ID] = { "device-id", 72 },
	[FIXFEAT_TESTED] = { "tested-by", 46 },
	[FIXFEAT_BUG_LINK] = { "bug-tracker", 89 },
	[FIXFEAT_LARGE] = { "over-100-lines", -141 },
	[FIXFEAT_STAGING] = { "staging-only", -62 },
	[FIXFEAT_CLEANUP] = { "cleanup-words", -83 },
	[FIXFEAT_FEATURE] = { "feature-words", -59 },
	[FIXFEAT_LINES_10] = { "lines-up-to-10", -6 },
	[FIXFEAT_LINES_30] = { "lines-11-to-30", -62 },
	[FIXFEAT_LINES_100] = { "lines-31-to-100", -78 },
	[FIXFEAT_ONE_FILE] = { "one-file", -63 },
	[FIXFEAT_TOOLS] = { "tools-only", -28 },
	[FIXFEAT_BOARD] = { "board-only", -45 },
	[FIXFEAT_BUILD_FILES] = { "build-files-only", -25 },
};

static unsigned features_of(const struct fix_kind *v, const struct diff_shape *d,
			    const char *words, bool cleanup, bool feature)
{
	static const char *const fix_stem[] = { "fix*", NULL };
	char found[64];
	unsigned f = 0;
	bool fix = says(words, strlen(words), fix_stem, NULL, found, sizeof(found));

#define FEAT(cond, bit) (f |= (cond) ? 1u << (bit) : 0)
	FEAT(v->signals & FIXSIG_LATE, FIXFEAT_LATE);
	FEAT(fix, FIXFEAT_SUBJECT_FIX);
	FEAT(!fix && (v->signals & FIXSIG_SUBJECT), FIXFEAT_SUBJECT_OTHER);
	FEAT(v->signals & FIXSIG_BODY, FIXFEAT_FAILURE);
	FEAT(v->signals & FIXSIG_REPORTED, FIXFEAT_REPORTED);
	FEAT(v->signals & FIXSIG_DEVICE_ID, FIXFEAT_DEVICE_ID);
	FEAT(v->signals & FIXSIG_TESTED, FIXFEAT_TESTED);
	FEAT(v->signals & FIXSIG_BUG_LINK, FIXFEAT_BUG_LINK);
	FEAT(v->shape == FIXSHAPE_LARGE, FIXFEAT_LARGE);
	FEAT(v->shape == FIXSHAPE_STAGING, FIXFEAT_STAGING);
	FEAT(cleanup, FIXFEAT_CLEANUP);
	FEAT(feature, FIXFEAT_FEATURE);
	FEAT(d->lines <= 10, FIXFEAT_LINES_10);
	FEAT(d->lines > 10 && d->lines <= 30, FIXFEAT_LINES_30);
	FEAT(d->lines > 30 && d->lines <= 100, FIXFEAT_LINES_100);
	FEAT(d->files == 1, FIXFEAT_ONE_FILE);
	FEAT(d->files && d->tools == d->files, FIXFEAT_TOOLS);
	FEAT(d->files && d->boards == d->files, FIXFEAT_BOARD);
	FEAT(d->files && d->build_files == d->files, FIXFEAT_BUILD_FILES);
#undef FEAT
	return f;
}

static int score_of(unsigned features)
{
	int score = FIXSCORE_BIAS;

	for (unsigned i = 0; i < FIXFEAT_COUNT; i++)
		if (features & (1u << i))
			score += fix_features[i].weight;
	return score;
}

void fixclass_judge(struct fix_kind *out, const struct patch *p, unsigned nparents, bool late,
		    const struct evidence_list *ev, fix_released_fn *released, void *ctx)
{
	const char *subject = p->subject ? p->subject : "";
	const char *words = subject_words(subject);
	struct diff_shape d;
	char cleanup[96], feature[64], why[96];
	bool is_cleanup, is_feature;

	memset(out, 0, sizeof(*out));
	read_shape(&d, p->diff ? p->diff : "");
	out->shape = shape_of(&d, nparents);
	out->signals = signals_of(p, &d, why, sizeof(why)) | (late ? FIXSIG_LATE : 0);
	is_cleanup = says_cleanup(words, cleanup, sizeof(cleanup)) ||
		     says_no_change(p->message, out->signals, cleanup, sizeof(cleanup));
	if (out->shape == FIXSHAPE_CODE && is_cleanup)
		out->shape = FIXSHAPE_CLEANUP;
	out->word_commit = PV_NONE;
	if (nparents < 2)
		out->word = word_of(p->message ? p->message : "", ev, released, ctx,
				    &out->word_commit);
	if (!word_stands(out)) {
		out->word = FIXWORD_NONE;
		out->word_commit = PV_NONE;
	}
	if (out->word != FIXWORD_NONE) {
		out->cls = FIXCLASS_FIX;
		out->reason = reason_word(out->word, ref_of(ev, out->word_commit),
					  out->word_commit == PV_NONE || released(ctx, out->word_commit));
		return;
	}
	is_feature = says_feature(words, feature, sizeof(feature));
	if (!shape_final(out->shape)) {
		out->features = features_of(out, &d, words, is_cleanup, is_feature);
		out->score = score_of(out->features);
	}
	/* a score without a sign of a fix is only the shape's: no fix */
	if (!shape_final(out->shape) && out->signals && out->score >= FIXSCORE_POSSIBLE) {
		out->cls = FIXCLASS_POSSIBLE;
		out->reason = out->signals & FIXSIG_DEVICE_ID ? xstrdup("adds a device id or quirk") :
			      reason_possible(out->signals, why);
		return;
	}
	if (out->shape == FIXSHAPE_CODE && is_feature)
		out->shape = FIXSHAPE_FEATURE;
	out->cls = FIXCLASS_NOT_FIX;
	out->reason = reason_not_fix(out, &d, why, cleanup, feature);
}

bool fixclass_late(const struct tag_table *t, uint32_t first)
{
	const struct kver *v;

	if (first == PV_NONE)
		return false;
	v = &t->v[first].ver;
	return !kver_is_stable(v) && v->rc != 1;
}

bool fixclass_released_before(const struct tag_table *t, uint32_t first, uint32_t fix_first)
{
	struct kver final;

	if (first == PV_NONE)
		return false;
	final = t->v[first].ver;
	final.rc = 0;
	if (fix_first != PV_NONE)
		return kver_cmp(&final, &t->v[fix_first].ver) < 0;
	for (size_t i = 0; i < t->nreleases; i++)
		if (!kver_cmp(&final, &t->v[t->releases[i]].ver))
			return true;
	return false;
}

void fix_kind_free(struct fix_kind *v)
{
	free(v->reason);
	memset(v, 0, sizeof(*v));
}

const char *fixclass_key(enum fix_class cls)
{
	static const char *const keys[] = { "not-a-fix", "possible-fix", "fix" };
	return keys[cls];
}

const char *fixword_key(enum fix_word word)
{
	static const char *const keys[] = {
		NULL, "cc-stable", "stable-tag", "fixes", "named-culprit", "mention", "revert",
	};
	return keys[word];
}

const char *fixshape_key(enum fix_shape shape)
{
	static const char *const keys[] = {
		"code", "merge", "empty", "documentation", "defconfig", "version-bump",
		"new-files", "removal", "rename", "staging", "large", "cleanup", "feature",
	};
	return keys[shape];
}

const char *fixsig_key(unsigned bit)
{
	static const char *const keys[FIXSIG_COUNT] = {
		"subject-fix-words", "failure-described", "reported-by", "oops-quoted",
		"device-id", "tested-by", "bug-tracker", "merged-after-rc1",
	};
	for (unsigned i = 0; i < FIXSIG_COUNT; i++)
		if (bit == 1u << i)
			return keys[i];
	return NULL;
}

const char *fixfeat_key(enum fix_feature f)
{
	return f < FIXFEAT_COUNT ? fix_features[f].key : NULL;
}
