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
	"changes done in", "changes made in", "changes made by", NULL,
};
/* ... and just after it: "commit <sha> ("...") introduced/broke ..." */
static const char *const after_phrases[] = {
	"introduced", "broke", "breaks", "caused", "causes", "regressed", NULL,
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
	if (*p == '(' && (end = strchr(p + 1, ')')) && end - p > 8)
		return squeeze(p + 1, (size_t)(end - p - 1));
	return NULL;
}

/* Does the text ending at end (start of text: start) end with a phrase? */
static const char *phrase_before(const char *start, const char *end)
{
	for (;;) {
		const char *w;
		size_t len;
		bool skipped = false;

		/* "introduced by the following commit: X", "Since (X: ...", "# X" */
		while (end > start && (isspace((unsigned char)end[-1]) || strchr(":(#", end[-1])))
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

static const char *phrase_after(const char *p)
{
	while (*p == ' ' || *p == ',')
		p++;
	for (size_t i = 0; after_phrases[i]; i++) {
		size_t len = strlen(after_phrases[i]);
		if (!strncasecmp(p, after_phrases[i], len) && !isalnum((unsigned char)p[len]))
			return after_phrases[i];
	}
	return NULL;
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
		    const struct ambiguity *amb, const char *after)
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
	e->claimed_subject = subject_after(after);
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
	"garbage", "bogus", "lost", "loses", "unbalanced", "bad", NULL,
};

/* ... and of a cleanup that a commit made possible. */
static const char *const cleanup_stems[] = {
	"remove", "obsolete", "unnecessary", "redundant", "no longer need", "not needed",
	"unneeded", "simplif", "always valid", "can't be null", "cannot be null", "can drop",
	"no need", "n't needed", "needed any more", "needed anymore", NULL,
};

/* Does the sentence around p (and the next) say one of stems? */
static bool sentence_says(const char *flat, const char *p, const char *const *stems)
{
	const char *start = p, *end = p;
	int stops = 0;
	bool yes = false;

	while (start > flat && p - start < 300 && !(start[-1] == ' ' && start > flat + 1 &&
						    start[-2] == '.'))
		start--;
	while (*end && end - p < 400 && stops < 2) {
		if (*end == '.' && (end[1] == ' ' || !end[1]))
			stops++;
		end++;
	}
	for (size_t i = 0; stems[i] && !yes; i++) {
		size_t len = strlen(stems[i]);
		for (const char *q = start; q + len <= end && !yes; q++)
			yes = !strncasecmp(q, stems[i], len);
	}
	return yes;
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

/*
 * "after X" and "as of X" tell of when more often than of a cause ("after
 * 2b8a1d2 we can drop ..."): a culprit only where their sentence, or the
 * next, tells of a bug and of no cleanup.
 */
static bool culprit_scoped(const char *flat, const char *p, const char *phrase)
{
	if (strcmp(phrase, "after") && strcmp(phrase, "as of"))
		return true;
	/* "isn't needed any more after: X" (4aa0edd294f6) tells of a cleanup */
	return sentence_says(flat, p, bug_stems) && !sentence_says(flat, p, cleanup_stems);
}

static void named_sha(struct reader *r, const char *flat, const char *p, size_t n)
{
	const char *phrase = phrase_before(flat, p);
	char hex[41];
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
	if (!phrase)
		phrase = phrase_after(skip_show_header(r, skip_subject(p + n), c));
	if (phrase && ((!strcmp(phrase, "since") && since_is_date(flat, p)) ||
		       !culprit_scoped(flat, p, phrase)))
		phrase = NULL;      /* a date: a mention at most */
	if ((e = find(r->list, c, hex))) {
		/* "Commit X (...) moved ...  The offending commit X": named */
		if (phrase && e->kind == EV_MENTION) {
			e->kind = EV_NAMED;
			e->phrase = xstrdup(phrase);
		}
		return;
	}
	if (c == PV_NONE && strspn(hex, "0123456789") == n)
		return;     /* a number ("since 20100512"), not a sha */
	if (!phrase) {
		/* "commit <sha>" alone: a weaker hint; a bare hex run is nothing */
		if ((c == PV_NONE && !amb.ncandidates) || !after_commit_word(flat, p))
			return;
		e = evidence_add(r->list, EV_MENTION);
	} else {
		e = evidence_add(r->list, EV_NAMED);
		e->phrase = xstrdup(phrase);
	}
	resolve(r, e, hex, c, &amb, p + n);
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
		/* a subject right after a sha was that sha's claimed subject */
		if (!phrase || end - p < 9 || end - p > 300 || after_sha(flat, p)) {
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
	resolve(r, e, hex, c, &amb, p + n);
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

void evidence_read(struct evidence_list *list, struct history *h, uint32_t fix,
		   const char *msg, const struct patch *fixp)
{
	struct reader r = { .list = list, .h = h, .fix = fix, .fixp = fixp };
	struct sbuf flat = SBUF_INIT;

	r.has_up = upstream_ref(msg, r.up);
	/* trailers line by line; the prose as one line, since it wraps */
	for (const char *p = msg; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xstrndup(p, len);
		const char *s = line;

		while (isspace((unsigned char)*s))
			s++;
		if (!strncasecmp(s, "fixes:", 6) || !strncasecmp(s, "cc:", 3))
			trailer(&r, s);
		else if (*s)
			sbuf_addf(&flat, "%s ", s);
		free(line);
		p = eol ? eol + 1 : NULL;
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
	free(r.below);
}
