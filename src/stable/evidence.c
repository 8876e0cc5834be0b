/*
 * Message evidence: the commit that introduced a bug, as the fix's
 * message names it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patchver/base/util.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/treepath.h"
#include "patchver/engine/upstream.h"
#include "patchver/stable/evidence.h"

/* What a developer writes just before the culprit's sha or quoted subject. */
static const char *const before_phrases[] = {
	"regression caused by", "regression introduced by", "regression created by",
	"bug introduced by", "introduced by", "introduced in", "introduced with",
	"caused by", "created by", "regression from", "regression in", "regression of",
	"regressed by", "regressed in", "regressed with", "broken by", "broken in",
	"breakage from", "breakage in", "breakage caused by", "fallout from",
	"since", "reverts", "revert", "reverting", "offending", "due to",
	"after", "as of",   /* in a bug's sentence only: culprit_scoped() */
	/* "This reverts changes done in commit X" */
	"changes done in", "changes made in", "changes made by",
	"left over by", "leftover from", "should have been part of",
	"breaking",         /* "fix build-breaking 7a192ec commit" */
	/* in a bug's sentence only: culprit_scoped() */
	"originate from", "originates from", "originated from",
	"follow up to", "follow-up to", "followup to", NULL,
};
/* ... and just after it: "commit <sha> ("...") introduced/broke ..." */
static const char *const after_phrases[] = {
	"introduced", "broke", "breaks", "caused", "causes", "regressed", NULL,
};
/*
 * What a commit did, when the sentence opens with its id and tells of a
 * bug: "633aae2 \"Input: ...\" removed handling for PMSG_THAW" (the fix:
 * "fix KBC jam"), "However, d280ead changed this to ...".
 */
static const char *const opener_verbs[] = {
	"added", "assumed", "changed", "converted", "dropped", "forgot", "made", "missed",
	"moved", "removed", "replaced", "switched", "would", NULL,
};
/* Words that may stand between a phrase and the sha. */
static const char *const filler[] = {
	"commit", "the", "patch", "change", "changeset", "cset", "git", "upstream",
	"mainline", "recent", "earlier", "in", "following", "this",
	"part", "of",   /* "Revert part of X" */
	NULL,
};

struct evidence *evidence_add(struct evidence_list *list, enum evidence_kind kind)
{
	struct evidence *e;

	list->v = xrealloc(list->v, (list->nr + 1) * sizeof(*list->v));
	e = &list->v[list->nr++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->commit = PV_NONE;
	e->first_release = PV_NONE;
	return e;
}

void evidence_list_free(struct evidence_list *list)
{
	for (size_t i = 0; i < list->nr; i++) {
		free(list->v[i].claimed_subject);
		free(list->v[i].phrase);
	}
	free(list->v);
	memset(list, 0, sizeof(*list));
}

const char *evidence_kind_name(enum evidence_kind kind)
{
	static const char *const names[] = { "Fixes:", "named", "commit mention", "blame", "given" };
	return names[kind];
}

const char *evidence_kind_key(enum evidence_kind kind)
{
	static const char *const keys[] = { "fixes", "named", "mention", "blame", "given" };
	return keys[kind];
}

static size_t hex_run(const char *p)
{
	size_t n = 0;
	while (isxdigit((unsigned char)p[n]) && n < 40)
		n++;
	return isalnum((unsigned char)p[n]) ? 0 : n;
}

/*
 * Seven hex digits, git's default abbreviation, are an id in prose only
 * with both letters and digits: "defaced" is a word, "2010051" a number.
 */
static bool short_id(const char *p)
{
	bool letters = false, digits = false;

	for (size_t i = 0; i < 7; i++) {
		letters |= isalpha((unsigned char)p[i]) != 0;
		digits |= isdigit((unsigned char)p[i]) != 0;
	}
	return letters && digits;
}

static struct evidence *find(struct evidence_list *list, uint32_t commit, const char *ref)
{
	for (size_t i = 0; i < list->nr; i++) {
		struct evidence *e = &list->v[i];
		if (commit != PV_NONE ? e->commit == commit : !strcasecmp(e->ref, ref))
			return e;
	}
	return NULL;
}

/* Why a sha written in a message names no commit of this history. */
static const char *unresolved_reason(git_repository *repo, const char *hex)
{
	git_oid oid;
	git_object *obj;
	const char *why = "unknown";
	size_t len = strlen(hex);
	int err;

	if (git_oid_fromstrn(&oid, hex, len) < 0)
		return why;
	err = git_object_lookup_prefix(&obj, repo, &oid, len, GIT_OBJECT_ANY);
	if (err == GIT_EAMBIGUOUS)
		why = "ambiguous";
	else if (!err) {
		git_object_t type = git_object_type(obj);
		why = type == GIT_OBJECT_TREE ? "a tree" : type == GIT_OBJECT_BLOB ? "a blob" :
		      type == GIT_OBJECT_TAG ? "a tag" : "not in the history below the tags";
		git_object_free(obj);
	}
	git_error_clear();
	return why;
}

/* Whitespace runs as one space, ends trimmed: wrapped text compares equal. */
static char *squeeze(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i])) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = s[i];
		}
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

/* A claimed subject equals the real one; "..." or "…" ends a prefix. */
static bool subject_matches(const char *claimed, const char *real)
{
	size_t n = strlen(claimed);

	if (n > 3 && !strcmp(claimed + n - 3, "..."))
		return !strncmp(claimed, real, n - 3);
	if (n > 3 && !strcmp(claimed + n - 3, "\u2026"))
		return !strncmp(claimed, real, n - 3);
	if (n > 5 && !strcmp(claimed + n - 5, "[...]"))
		return !strncmp(claimed, real, n - 5);
	return !strcmp(claimed, real);
}

static void check_subject(struct history *h, struct evidence *e)
{
	char *real, *a, *b;

	if (e->commit == PV_NONE || !e->claimed_subject)
		return;
	real = history_subject(h, e->commit);
	a = squeeze(e->claimed_subject, strlen(e->claimed_subject));
	b = squeeze(real, strlen(real));
	e->subject_mismatch = !subject_matches(a, b);
	free(a);
	free(b);
	free(real);
}

/* ("subject"), (subject) or "subject" right after a sha: the claimed subject. */
static char *subject_after(const char *p)
{
	const char *end;

	while (*p == ' ' || *p == ':')
		p++;
	if (!strncmp(p, "(\"", 2) && (end = strstr(p + 2, "\")")))
		return squeeze(p + 2, (size_t)(end - p - 2));
	if (*p == '"' && (end = strchr(p + 1, '"')))
		return squeeze(p + 1, (size_t)(end - p - 1));
	if (*p == '(' && (end = strchr(p + 1, ')')) && end - p > 8) {
		/* git's --pretty=reference: "(subject, 2008-08-01)" */
		if (end - p > 20 && !strncmp(end - 12, ", ", 2) &&
		    strspn(end - 10, "0123456789-") == 10)
			end -= 12;
		return squeeze(p + 1, (size_t)(end - p - 1));
	}
	return NULL;
}

/* Does the text ending at end (start of text: start) end with a phrase? */
static const char *phrase_before(const char *start, const char *end)
{
	for (;;) {
		const char *w;
		size_t len;
		bool skipped = false;

		/* "introduced by the following commit: X", "Since (X: ...", "# X",
		 * 'broke it: "8a77b8d serial: ..."' */
		while (end > start && (isspace((unsigned char)end[-1]) || strchr(":(#\"'", end[-1])))
			end--;
		for (size_t i = 0; before_phrases[i]; i++) {
			len = strlen(before_phrases[i]);
			if ((size_t)(end - start) >= len &&
			    !strncasecmp(end - len, before_phrases[i], len) &&
			    (end - len == start || !isalnum((unsigned char)end[-len - 1])))
				return before_phrases[i];
		}
		/* step back over one filler word */
		for (w = end; w > start && isalpha((unsigned char)w[-1]); w--)
			;
		len = (size_t)(end - w);
		for (size_t i = 0; filler[i] && len; i++)
			if (strlen(filler[i]) == len && !strncasecmp(w, filler[i], len))
				skipped = true;
		if (!skipped)
			return NULL;
		end = w;
	}
}

/* The word at p is one of words (whole): which, or NULL. */
static const char *word_at(const char *p, const char *const *words)
{
	for (size_t i = 0; words[i]; i++) {
		size_t len = strlen(words[i]);
		if (!strncasecmp(p, words[i], len) && !isalnum((unsigned char)p[len]))
			return words[i];
	}
	return NULL;
}

static const char *phrase_after(const char *p)
{
	while (*p == ' ' || *p == ',')
		p++;
	return word_at(p, after_phrases);
}

/* Past a claimed subject after a sha: "(...)" or "\"...\"". */
static const char *skip_subject(const char *p)
{
	const char *q = p, *end;

	while (*q == ' ')
		q++;
	if (*q == '(' && (end = strchr(q, ')')))
		return end + 1;
	if (*q == '"' && (end = strchr(q + 1, '"')))
		return end + 1;
	return p;
}

/* Every ancestor of fix: is c one of them?  (Computed once per read.) */
struct reader {
	struct evidence_list *list;
	struct history *h;
	uint32_t fix;
	bool *below;            /* ancestors of the fix, or NULL until needed */
	char up[41];            /* the upstream commit a backport names */
	bool has_up;
	const struct patch *fixp;   /* the fix: its files bound a search by subject */
	bool fix_says_bug;      /* the fix's subject line tells of a bug, or says "fix" */
	size_t *paras;          /* where each paragraph starts in the flat text */
	size_t nparas;
	struct listed *listed;  /* ids listed under a phrase: read_lists() */
	size_t nlisted, alisted;
};

/* An id listed on a line of its own, under the phrase of its list. */
struct listed {
	char hex[41];
	const char *phrase;
};

static bool below_fix(struct reader *r, uint32_t c)
{
	if (!r->below)
		r->below = dag_ancestors(&r->h->dag, &r->fix, 1);
	return r->below && r->below[c] && c != r->fix;
}

/* "commit <sha>", "Commit: <sha>" */
static bool after_commit_word(const char *flat, const char *p)
{
	if (p - flat >= 7 && !strncasecmp(p - 7, "commit ", 7))
		return true;
	return p - flat >= 8 && !strncasecmp(p - 8, "commit: ", 8);
}

/*
 * The commit hex names, as git reads a short id: only commits count, and
 * of several, the one that is an ancestor of the fix (a message names what
 * came before it).  PV_NONE when none or several are: amb says which.
 */
static uint32_t pick(struct reader *r, const char *hex, struct ambiguity *amb)
{
	uint32_t cand[8], below[8];
	size_t n = rev_find_hex_all(&r->h->dag, hex, cand, 8), nbelow = 0;

	memset(amb, 0, sizeof(*amb));
	if (n == 1)
		return cand[0];
	if (n > 8)
		n = 8;
	for (size_t i = 0; i < n; i++)
		if (below_fix(r, cand[i]))
			below[nbelow++] = cand[i];
	if (nbelow == 1)
		return below[0];
	if (n) {
		const uint32_t *shown = nbelow ? below : cand;
		amb->candidates[0] = shown[0];
		amb->candidates[1] = shown[1];
		amb->ncandidates = 2;
		amb->below_fix = (unsigned)nbelow;
	}
	return PV_NONE;
}

/*
 * The sha hex (commit c, or PV_NONE) the message names, and the subject
 * written after it (at after): resolved, checked, why not when not.
 */
static void resolve(struct reader *r, struct evidence *e, const char *hex, uint32_t c,
		    const struct ambiguity *amb, char *claim)
{
	snprintf(e->ref, sizeof(e->ref), "%s", hex);
	e->commit = c;
	if (amb && amb->ncandidates) {
		e->ambiguity = *amb;
		e->unresolved = amb->below_fix ? "ambiguous: more than one commit below the fix" :
				"ambiguous: no commit below the fix";
	} else if (c == PV_NONE) {
		e->unresolved = unresolved_reason(r->h->repo, hex);
	} else {
		e->not_ancestor = !below_fix(r, c);
	}
	e->claimed_subject = claim;
	check_subject(r->h, e);
}

/*
 * Past a git show header quoted after a sha, "Author: ... Date: ...
 * -0700" and the commit's subject (02f5ba5bac8b: "commit f84b29ec...
 * Author: ... iwlwifi: queue user-initiated scan ... introduced a
 * potential deadlock"); p itself without one.
 */
static const char *skip_show_header(struct reader *r, const char *p, uint32_t c)
{
	const char *q = p, *d;

	while (*q == ' ')
		q++;
	if (strncmp(q, "Author:", 7) || !(d = strstr(q, "Date:")) || d - q > 200)
		return p;
	/* the date ends with its zone, +hhmm or -hhmm */
	for (d += 5; *d && d - q < 300; d++)
		if ((*d == '+' || *d == '-') && strspn(d + 1, "0123456789") >= 4)
			break;
	if (!*d || d - q >= 300)
		return p;
	d += 5;
	while (*d == ' ')
		d++;
	if (c != PV_NONE) {
		char *subj = history_subject(r->h, c), *s = squeeze(subj, strlen(subj));
		if (*s && !strncmp(d, s, strlen(s)))
			d += strlen(s);
		free(subj);
		free(s);
	}
	return d;
}

/* Word stems of a bug, for phrases that name a culprit only beside one. */
static const char *const bug_stems[] = {
	"bug", "broke", "break", "regress", "crash", "oops", "fail", "wrong", "leak",
	"deadlock", "race", "racy", "hang", "hung", "stuck", "lockup", "corrupt", "panic",
	"warn", "incorrect", "not work", "n't work", "uninitiali", "null pointer", "dereferenc",
	"miss", "error", "problem", "issue", "invalid", "overflow", "underflow", "stale",
	"garbage", "bogus", "lost", "loses", "unbalanced", "bad", "stopped work",
	"stop work", "no longer work", NULL,
};

/* ... and of a cleanup that a commit made possible. */
static const char *const cleanup_stems[] = {
	"remove", "obsolete", "unnecessary", "redundant", "no longer need", "not needed",
	"unneeded", "simplif", "always valid", "can't be null", "cannot be null", "can drop",
	"no need", "n't needed", "needed any more", "needed anymore", NULL,
};

/* A cost a commit added is its regression too ("103638d added a bit of
 * avoidable overhead to the fast-path"), said of what it did. */
static const char *const cost_stems[] = { "overhead", "slow", NULL };
/* ... and a fix's own word, said of it ("Fix that"). */
static const char *const fix_word[] = { "fix", NULL };

/*
 * Does s[0..n) say one of stems?  A stem starts a word ("hang" is not in
 * "changed", "miss" not in "permission"); "n't work" ends one.
 */
static bool says(const char *s, size_t n, const char *const *stems)
{
	for (size_t i = 0; stems[i]; i++) {
		size_t len = strlen(stems[i]);
		bool inside = stems[i][0] == 'n' && stems[i][1] == '\'';
		for (const char *q = s; q + len <= s + n; q++)
			if ((inside || q == s || !isalpha((unsigned char)q[-1])) &&
			    !strncasecmp(q, stems[i], len))
				return true;
	}
	return false;
}

/* Does the sentence around p (and the next) say one of stems? */
static bool sentence_says(const char *flat, const char *p, const char *const *stems)
{
	const char *start = p, *end = p;
	int stops = 0;

	while (start > flat && p - start < 300 && !(start[-1] == ' ' && start > flat + 1 &&
						    start[-2] == '.'))
		start--;
	while (*end && end - p < 400 && stops < 2) {
		if (*end == '.' && (end[1] == ' ' || !end[1]))
			stops++;
		end++;
	}
	return says(start, (size_t)(end - start), stems);
}

/*
 * "since X" is a date as often as a cause: "Since ea6d290c ->signal is
 * always valid ... We can remove" (0bdd2ed4138 and four more cleanups).
 * It names no culprit where its sentence, or the next, tells of a cleanup
 * it made possible and of no bug.  (Demanding a bug word instead cost 6
 * points of the named culprits' first affected release: bench/culprits.py
 * measure, 93.1% / 92.3% against 99.2% / 100.0%.)
 */
static bool since_is_date(const char *flat, const char *p)
{
	return sentence_says(flat, p, cleanup_stems) && !sentence_says(flat, p, bug_stems);
}

/* Phrases that tell of when, or of what followed, more often than of a cause. */
static const char *const scoped_phrases[] = {
	"after", "as of", "originate from", "originates from", "originated from",
	"follow up to", "follow-up to", "followup to", NULL,
};

/*
 * "after X" and "as of X" tell of when more often than of a cause ("after
 * 2b8a1d2 we can drop ..."); "follow-up to X" of what came next: a culprit
 * only where their sentence, or the next, tells of a bug and of no cleanup.
 */
static bool culprit_scoped(const char *flat, const char *p, const char *phrase)
{
	bool scoped = false;

	for (size_t i = 0; scoped_phrases[i] && !scoped; i++)
		scoped = !strcmp(phrase, scoped_phrases[i]);
	/* "isn't needed any more after: X" (4aa0edd294f6) tells of a cleanup */
	return !scoped ||
	       (sentence_says(flat, p, bug_stems) && !sentence_says(flat, p, cleanup_stems));
}

/*
 * Does the sha at p open its sentence?  Its paragraph's start or a ". "
 * before it, over the words that may lead a subject ("Commit '28a0ce7",
 * "However, d280ead", "Greetings, 103638d").
 */
static bool opens_sentence(struct reader *r, const char *flat, const char *p)
{
	static const char *const lead[] = { "commit", "commits", "the", "patch", NULL };
	const char *w = p;
	bool comma = false;

	for (;;) {
		const char *q;
		while (w > flat && (w[-1] == ' ' || w[-1] == '"' || w[-1] == '\''))
			w--;
		for (q = w; q > flat && isalpha((unsigned char)q[-1]); q--)
			;
		if (q < w && word_at(q, lead)) {
			w = q;
		} else if (!comma && w > flat && w[-1] == ',') {
			for (q = w - 1; q > flat && isalpha((unsigned char)q[-1]); q--)
				;
			if (q == w - 1)
				break;
			w = q;
			comma = true;
		} else {
			break;
		}
	}
	/* w is past the text before the sentence's first word */
	if (w == flat || strchr(".!?", w[-1]))
		return true;
	while (*w == ' ' || *w == '"' || *w == '\'')
		w++;
	for (size_t i = 0; i < r->nparas; i++)
		if (flat + r->paras[i] == w)
			return true;
	return false;
}

/* "633aae2 \"subject\" removed ...": the verb, where the sentence tells of a bug. */
static const char *opener_verb(struct reader *r, const char *flat, const char *p,
			       const char *after)
{
	const char *verb;

	while (*after == ' ')
		after++;
	if (!(verb = word_at(after, opener_verbs)) || !opens_sentence(r, flat, p))
		return NULL;
	/* "... so that the reserved bits are no longer preserved.  Fix that" */
	if (r->fix_says_bug || sentence_says(flat, p, bug_stems) ||
	    sentence_says(flat, p, cost_stems) || sentence_says(flat, p, fix_word))
		return verb;
	return NULL;
}

/*
 * "Using fae9c79, a recent patch that changed ..., the parent incorrectly
 * reports zero usage" (94b3dd0f7bb3): "using X" or "with X" opening a
 * sentence that tells of a bug and of no cleanup.
 */
static const char *with_sha(struct reader *r, const char *flat, const char *p)
{
	static const char *const with[] = { "using", "with", NULL };
	const char *w = p, *word;

	while (w > flat && w[-1] == ' ')
		w--;
	while (w > flat && isalpha((unsigned char)w[-1]))
		w--;
	if (w == p || !(word = word_at(w, with)) || !opens_sentence(r, flat, w))
		return NULL;
	if (!sentence_says(flat, p, bug_stems) || sentence_says(flat, p, cleanup_stems))
		return NULL;
	return word;
}

/* The phrase of the list whose line holds hex, if any. */
static const char *listed_phrase(struct reader *r, const char *hex)
{
	for (size_t i = 0; i < r->nlisted; i++)
		if (!strcasecmp(r->listed[i].hex, hex))
			return r->listed[i].phrase;
	return NULL;
}

/*
 * An id that opens a quote, 'commit "f06febc: timers: fix ..." broke it':
 * where the quote ends (NULL when p opens none), and the subject in it.
 */
static const char *quote_end(const char *flat, const char *p, size_t n, char **claim)
{
	const char *close, *s = p + n;

	if (p == flat || (p[-1] != '"' && p[-1] != '\''))
		return NULL;
	if (!(close = strchr(s, p[-1])) || close - s > 300)
		return NULL;
	while (s < close && (*s == ':' || *s == ' '))
		s++;
	*claim = squeeze(s, (size_t)(close - s));
	return close + 1;
}

static void named_sha(struct reader *r, const char *flat, const char *p, size_t n)
{
	const char *phrase = phrase_before(flat, p), *after;
	char hex[41], *claim = NULL;
	uint32_t c;
	struct evidence *e;
	struct ambiguity amb;

	memcpy(hex, p, n);
	hex[n] = '\0';
	if (r->has_up && !strncasecmp(r->up, hex, n))
		return;
	c = pick(r, hex, &amb);
	if (c == r->fix)
		return;
	if (!(after = quote_end(flat, p, n, &claim)))
		after = skip_subject(p + n);
	if (!phrase)
		phrase = phrase_after(skip_show_header(r, after, c));
	if (!phrase)
		phrase = listed_phrase(r, hex);
	if (!phrase)
		phrase = opener_verb(r, flat, p, after);
	if (!phrase)
		phrase = with_sha(r, flat, p);
	if (phrase && ((!strcmp(phrase, "since") && since_is_date(flat, p)) ||
		       !culprit_scoped(flat, p, phrase)))
		phrase = NULL;      /* a date: a mention at most */
	if ((e = find(r->list, c, hex))) {
		/* "Commit X (...) moved ...  The offending commit X": named */
		if (phrase && e->kind == EV_MENTION) {
			e->kind = EV_NAMED;
			e->phrase = xstrdup(phrase);
		}
		goto out;
	}
	if (c == PV_NONE && strspn(hex, "0123456789") == n)
		goto out;   /* a number ("since 20100512"), not a sha */
	if (!phrase) {
		/* "commit <sha>" alone: a weaker hint; a bare hex run is nothing */
		if ((c == PV_NONE && !amb.ncandidates) || !after_commit_word(flat, p))
			goto out;
		e = evidence_add(r->list, EV_MENTION);
	} else {
		e = evidence_add(r->list, EV_NAMED);
		e->phrase = xstrdup(phrase);
	}
	resolve(r, e, hex, c, &amb, claim ? claim : subject_after(p + n));
	claim = NULL;
out:
	free(claim);
}

/*
 * The newest ancestor of the fix that changes one of its files and whose
 * subject is quoted (a prefix when it ends in "...").  Bounded: culprits
 * named this way are recent.
 */
static uint32_t by_subject(struct reader *r, const char *quoted)
{
	struct dag *dag = &r->h->dag;
	char *const *paths = r->fixp->paths;
	size_t npaths = r->fixp->npaths, head = 0, visited = 0;
	struct treepath_cache *tp = xcalloc(npaths + 1, sizeof(*tp));
	uint32_t *queue = xmalloc(sizeof(*queue) * 2), found = PV_NONE;
	size_t qalloc = 2, qn = 0;
	bool *seen = xcalloc(dag->nr + 1, 1);

	for (size_t i = 0; i < npaths; i++)
		treepath_init(&tp[i], dag, paths[i]);
	/* breadth-first from the fix: nearer commits first */
	queue[qn++] = r->fix;
	seen[r->fix] = true;
	while (head < qn && visited++ < 30000 && found == PV_NONE) {
		uint32_t c = queue[head++];
		unsigned np;
		const uint32_t *par = dag_parents(dag, c, &np);
		bool touches = false;

		for (size_t i = 0; i < npaths && !touches && c != r->fix; i++)
			touches = treepath_touches(&tp[i], dag, c);
		if (touches) {
			char *subj = history_subject(r->h, c), *s = squeeze(subj, strlen(subj));
			if (subject_matches(quoted, s))
				found = c;
			free(s);
			free(subj);
		}
		for (unsigned i = 0; i < np; i++) {
			if (seen[par[i]])
				continue;
			seen[par[i]] = true;
			queue = xgrow(queue, &qalloc, qn + 1, sizeof(*queue));
			queue[qn++] = par[i];
		}
	}
	for (size_t i = 0; i < npaths; i++)
		treepath_free(&tp[i]);
	free(tp);
	free(queue);
	free(seen);
	return found;
}

/* Does the quote at p follow a sha ("<sha> (\"subject\")", "<sha> \"subject\"")? */
static bool after_sha(const char *flat, const char *p)
{
	const char *w = p;

	while (w > flat && (w[-1] == ' ' || w[-1] == '('))
		w--;
	while (w > flat && isxdigit((unsigned char)w[-1]))
		w--;
	return hex_run(w) >= 7 && (w == flat || !isalnum((unsigned char)w[-1]));
}

/* Is the quote at p in the subject after a sha, "ca7e716: Revert \"...\""? */
static bool in_sha_subject(const char *flat, const char *p)
{
	const char *w = p;

	while (w > flat && w[-1] == ' ')
		w--;
	while (w > flat && isalpha((unsigned char)w[-1]))
		w--;
	while (w > flat && (w[-1] == ' ' || w[-1] == ':'))
		w--;
	return w < p && !isalpha((unsigned char)*w) && after_sha(flat, w);
}

/* Is the quoted subject that of a commit the message already names? */
static bool named_already(struct reader *r, const char *quoted)
{
	bool yes = false;

	for (size_t i = 0; i < r->list->nr && !yes; i++) {
		char *subj, *s;
		if (r->list->v[i].commit == PV_NONE)
			continue;
		subj = history_subject(r->h, r->list->v[i].commit);
		s = squeeze(subj, strlen(subj));
		yes = subject_matches(quoted, s);
		free(s);
		free(subj);
	}
	return yes;
}

/* 'created by "subject..." commit', 'Revert "subject"' */
static void named_subjects(struct reader *r, const char *flat)
{
	for (const char *p = flat; (p = strchr(p, '"'));) {
		const char *end = strchr(p + 1, '"'), *phrase;
		struct evidence *e;
		char *quoted;
		uint32_t c;

		if (!end)
			break;
		phrase = phrase_before(flat, p);
		/* a subject right after a sha was that sha's claimed subject; one
		 * after it in the quote ("\"8a77b8d serial: ...\"") likewise */
		if (!phrase || end - p < 9 || end - p > 300 || after_sha(flat, p) ||
		    hex_run(p + 1) >= 7 || in_sha_subject(flat, p)) {
			p = end + 1;
			continue;
		}
		quoted = squeeze(p + 1, (size_t)(end - p - 1));
		c = named_already(r, quoted) ? PV_NONE - 1 : by_subject(r, quoted);
		if (c == PV_NONE - 1) {
			free(quoted);   /* "Revert "X"; This reverts commit <X>." */
			p = end + 1;
			continue;
		}
		if (c == PV_NONE || !find(r->list, c, "")) {
			e = evidence_add(r->list, EV_NAMED);
			e->phrase = xstrfmt("%s \"...\"", phrase);
			e->claimed_subject = quoted;
			e->commit = c;
			if (c == PV_NONE)
				e->unresolved = "no ancestor touching the fix's files has that subject";
			else
				git_oid_tostr(e->ref, 13, &r->h->dag.oids[c]);
		} else {
			free(quoted);
		}
		p = end + 1;
	}
}

/* Fixes: <sha> ("subject") */
static void fixes_line(struct reader *r, const char *p)
{
	size_t n = hex_run(p);
	struct evidence *e, *old;
	struct ambiguity amb;
	char hex[41];
	uint32_t c;

	if (n < 7)
		return;
	memcpy(hex, p, n);
	hex[n] = '\0';
	c = pick(r, hex, &amb);
	old = find(r->list, c, hex);
	if (old && old->kind != EV_FIXES) {
		/* a trailer beats the same commit named in prose */
		old->kind = EV_FIXES;
		free(old->claimed_subject);
		old->claimed_subject = NULL;
		old->subject_mismatch = false;
		e = old;
	} else if (old) {
		/* the mail and its commit often carry the same trailer: keep one,
		 * and a wrong subject from either */
		char *claim = subject_after(p + n);
		struct evidence tmp = { .commit = c, .claimed_subject = claim };
		check_subject(r->h, &tmp);
		if (tmp.subject_mismatch && !old->subject_mismatch) {
			free(old->claimed_subject);
			old->claimed_subject = claim;
			old->subject_mismatch = true;
		} else {
			free(claim);
		}
		return;
	} else {
		e = evidence_add(r->list, EV_FIXES);
	}
	resolve(r, e, hex, c, &amb, subject_after(p + n));
}

static void trailer(struct reader *r, const char *s)
{
	if (!strncasecmp(s, "fixes:", 6)) {
		s += 6;
		while (isspace((unsigned char)*s))
			s++;
		fixes_line(r, s);
	} else if (!strncasecmp(s, "cc:", 3) && strcasestr(s, "stable@")) {
		const char *hash = strchr(s, '#');
		r->list->cc_stable = true;
		if (hash) {
			hash++;
			while (isspace((unsigned char)*hash))
				hash++;
			snprintf(r->list->cc_hint, sizeof(r->list->cc_hint), "%.*s",
				 (int)strcspn(hash, " \t"), hash);
		}
	}
}

/*
 * Lists: ids each on a line of their own under the sentence that says what
 * they did ("this commit introduced more than a year ago:\n  717115e:
 * printk ratelimiting rewrite", "So revert:\n # c300ba2: ...\n # c0c8773:
 * ..."), or above "Revert them.".  Every id of the list takes its phrase.
 */
static const char *const lead_words[] = {
	"introduced by", "introduced in", "caused by", "broken by", "introduced", "broke",
	"breaks", "broken", "caused", "causes", "regressed", "revert", "reverts",
	"reverting", NULL,
};
static const char *const revert_them[] = {
	"revert them", "revert these", "revert those", "revert both", "revert all", NULL,
};

/* The id that opens a list item's line, its length (0: none). */
static size_t item_id(const char *line, const char **id, bool *marked)
{
	const char *s = line;
	size_t n;

	*marked = isspace((unsigned char)*s);
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '#' || *s == '*' || *s == '-') {
		*marked = true;
		s++;
		while (*s == ' ')
			s++;
	}
	if (*s == '"' || *s == '\'')
		s++;
	n = hex_run(s);
	if (n < 7 || (n == 7 && !short_id(s)) || (s[n] && !strchr(" :(\"'", s[n])))
		return 0;
	*id = s;
	return n;
}

/* The phrase of the lead-in lines[from..to) (a paragraph), if it says one. */
static const char *lead_phrase(char **lines, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		for (const char *p = lines[i]; *p; p++) {
			const char *w;
			if (p > lines[i] && isalnum((unsigned char)p[-1]))
				continue;
			if ((w = word_at(p, lead_words)))
				return w;
		}
	return NULL;
}

static bool blank(const char *line)
{
	return !line[strspn(line, " \t")];
}

static void list_block(struct reader *r, char **lines, size_t nlines, size_t first, size_t end)
{
	size_t top = first, lead, next;
	const char *phrase, *tail = "";
	size_t tlen = 0;
	bool colon, marked;

	/* the lead-in: the paragraph above the list (never the subject line) */
	while (top > 1 && blank(lines[top - 1]))
		top--;
	for (lead = top; lead > 1 && !blank(lines[lead - 1]); lead--)
		;
	if (top > lead) {
		tail = lines[top - 1];
		tlen = strlen(tail);
		while (tlen && isspace((unsigned char)tail[tlen - 1]))
			tlen--;
	}
	colon = tlen && tail[tlen - 1] == ':';
	phrase = lead_phrase(lines, lead, top);
	for (next = end; !phrase && next < nlines && blank(lines[next]); next++)
		;
	if (!phrase && next < nlines)
		phrase = word_at(lines[next] + strspn(lines[next], " \t"), revert_them) ?
			 "revert" : NULL;
	for (size_t i = first; phrase && i < end; i++) {
		const char *id;
		size_t n = item_id(lines[i], &id, &marked);
		/* unmarked lines are a list only under a lead-in that ends in ':' */
		if (!marked && !colon)
			continue;
		r->listed = xgrow(r->listed, &r->alisted, r->nlisted + 1, sizeof(*r->listed));
		snprintf(r->listed[r->nlisted].hex, sizeof(r->listed[0].hex), "%.*s", (int)n, id);
		r->listed[r->nlisted++].phrase = phrase;
	}
}

static void read_lists(struct reader *r, char **lines, size_t nlines)
{
	for (size_t i = 1; i < nlines;) {
		const char *id;
		bool marked;
		size_t end = i;

		while (end < nlines && item_id(lines[end], &id, &marked))
			end++;
		if (end > i)
			list_block(r, lines, nlines, i, end);
		i = end > i ? end : i + 1;
	}
}

/* The message's lines, each its own string; *n of them. */
static char **split_lines(const char *msg, size_t *n)
{
	char **lines = NULL;
	size_t alloc = 0;

	*n = 0;
	for (const char *p = msg; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		lines = xgrow(lines, &alloc, *n + 1, sizeof(*lines));
		lines[(*n)++] = xstrndup(p, len);
		p = eol ? eol + 1 : NULL;
	}
	return lines;
}

void evidence_read(struct evidence_list *list, struct history *h, uint32_t fix,
		   const char *msg, const struct patch *fixp)
{
	struct reader r = { .list = list, .h = h, .fix = fix, .fixp = fixp };
	struct sbuf flat = SBUF_INIT;
	size_t nlines, aparas = 0;
	char **lines = split_lines(msg, &nlines);
	bool para = true;

	r.has_up = upstream_ref(msg, r.up);
	if (nlines)
		r.fix_says_bug = says(lines[0], strlen(lines[0]), fix_word) ||
				 says(lines[0], strlen(lines[0]), bug_stems);
	read_lists(&r, lines, nlines);
	/* trailers line by line; the prose as one line, since it wraps */
	for (size_t i = 0; i < nlines; i++) {
		const char *s = lines[i];

		while (isspace((unsigned char)*s))
			s++;
		if (!*s) {
			para = true;
		} else if (!strncasecmp(s, "fixes:", 6) || !strncasecmp(s, "cc:", 3)) {
			trailer(&r, s);
		} else {
			if (para || i == 1) {
				r.paras = xgrow(r.paras, &aparas, r.nparas + 1, sizeof(*r.paras));
				r.paras[r.nparas++] = flat.len;
			}
			para = false;
			sbuf_addf(&flat, "%s ", s);
		}
	}
	for (const char *p = sbuf_str(&flat); *p; p++) {
		size_t n;
		if (p > flat.buf && isalnum((unsigned char)p[-1]))
			continue;
		if ((n = hex_run(p)) >= 8 || (n == 7 && short_id(p))) {
			named_sha(&r, flat.buf, p, n);
			p += n - 1;
		}
	}
	named_subjects(&r, sbuf_str(&flat));
	sbuf_free(&flat);
	for (size_t i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	free(r.paras);
	free(r.listed);
	free(r.below);
}
