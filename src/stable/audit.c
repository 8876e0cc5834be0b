/*
 * --audit: a merge window's commits against stable series.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/base/util.h"
#include "patchver/engine/backscan.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/upstream.h"
#include "patchver/stable/apply.h"
#include "patchver/stable/audit.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/fixclass.h"
#include "patchver/stable/match.h"
#include "patchver/stable/preimage.h"
#include "patchver/stable/reverts.h"
#include "patchver/stable/triage.h"

#define ON_BRANCH BACKMAP_ON_BRANCH  /* in the series' branch, in no tag yet */

/* One stable series: vX.Y, its tags and branch, and what they carry. */
struct stable_series {
	char name[32];
	uint32_t base_tag, base;
	bool stable_tags;           /* the repository has a stable tag of the series */
	uint32_t tip;               /* newest commit: the last tag, or the branch */
	char *tip_name;
	bool *in_base;              /* ancestors of vX.Y */
	uint32_t *first_tag;        /* per commit: first series tag with it, PV_NONE, ON_BRANCH */
	uint32_t nr;                /* commits first_tag covers */
	uint32_t *by_upstream;      /* per commit: the series' earliest commit carrying it */
	bool *reverted;             /* per commit: a commit of the series reverts it */
	git_tree *tip_tree;
	struct preimage_texts base_texts;   /* vX.Y's files read so far */
};

struct audit {
	struct history *h;
	const struct audit_opts *o;
	struct contain c;
	struct carriers carriers;         /* what the stable lines carry */
	struct stable_series *s;
	size_t ns;
	struct audit_row *rows;           /* newest first */
	size_t nrows;
};

/* Assign every commit reachable from start, not in vX.Y, not yet assigned, to tag. */
static void assign(struct stable_series *s, struct dag *dag, uint32_t start, uint32_t tag)
{
	uint32_t *stack = xmalloc(((size_t)dag->nr + 1) * sizeof(*stack));
	size_t sp = 0;

	if (s->in_base[start] || s->first_tag[start] != PV_NONE) {
		free(stack);
		return;
	}
	stack[sp++] = start;
	s->first_tag[start] = tag;
	while (sp) {
		uint32_t c = stack[--sp], np;
		const uint32_t *p;
		dag_load(dag, c);
		p = dag_parents(dag, c, &np);
		for (uint32_t k = 0; k < np; k++)
			if (!s->in_base[p[k]] && s->first_tag[p[k]] == PV_NONE) {
				s->first_tag[p[k]] = tag;
				stack[sp++] = p[k];
			}
	}
	free(stack);
}

/* The series' branch (linux-X.Y.y, in refs/heads or refs/remotes), if any. */
static uint32_t series_branch(struct audit *a, const struct stable_series *s, char **name)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	char want[48];
	uint32_t found = PV_NONE;

	snprintf(want, sizeof(want), "/linux-%s.y", s->name);
	if (git_reference_iterator_new(&it, a->h->repo) < 0)
		return PV_NONE;
	while (found == PV_NONE && git_reference_next(&ref, it) == 0) {
		const char *n = git_reference_name(ref);
		size_t ln = strlen(n), lw = strlen(want);
		git_object *obj = NULL;

		if (ln > lw && !strcmp(n + ln - lw, want) &&
		    git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0) {
			found = dag_intern(&a->h->dag, git_object_id(obj));
			dag_load(&a->h->dag, found);
			*name = xstrdup(n);
		}
		git_object_free(obj);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	git_error_clear();
	return found;
}

/*
 * A series as maintainers write it, "2.6.34", "2.6.34.y", "v3.2.y", into
 * its name ("2.6.34"): numbers, two of them from 3.0 on, three for 2.6.
 */
static int series_name(const char *arg, char name[32])
{
	const char *p = arg + (*arg == 'v');
	size_t len = strlen(p), dots = 0;
	bool numbers = true;    /* digits, and dots between them */

	if (len > 2 && !strcmp(p + len - 2, ".y"))
		len -= 2;
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '.' && i && p[i - 1] != '.' && i + 1 < len)
			dots++;
		else if (!isdigit((unsigned char)p[i]))
			numbers = false;
	}
	if (!numbers || len >= 32 || dots != (strncmp(p, "2.", 2) ? 1u : 2u))
		return pv_error_set(PV_EINVALID, "'%s' is not a stable series: "
				    "write X.Y or X.Y.y (3.2, 2.6.34.y)", arg);
	snprintf(name, 32, "%.*s", (int)len, p);
	return 0;
}

static int open_series(struct audit *a, struct stable_series *s, const char *name)
{
	const struct tag_table *t = &a->h->tags;
	struct dag *dag = &a->h->dag;
	uint32_t branch;
	char *branch_name = NULL;
	git_commit *tip = NULL;

	char vname[40];
	struct kver want;

	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(vname, sizeof(vname), "v%s", name);
	s->base_tag = PV_NONE;
	if (!kver_parse(vname, &want))
		return pv_error_set(PV_EINVALID, "%s: not a series", name);
	for (size_t i = 0; i < t->nreleases; i++) {
		const struct tag *tg = &t->v[t->releases[i]];
		if (!kver_same_series(&tg->ver, &want) || kver_is_rc(&tg->ver) ||
		    tg->commit == PV_NONE)
			continue;
		if (!kver_is_stable(&tg->ver))
			s->base_tag = t->releases[i];
	}
	if (s->base_tag == PV_NONE)
		return pv_error_set(PV_EINVALID, "%s: no release tag v%s in this repository",
				    name, name);
	s->base = t->v[s->base_tag].commit;
	branch = series_branch(a, s, &branch_name);   /* may grow the DAG: before the arrays */
	s->in_base = dag_ancestors(dag, &s->base, 1);
	/* the DAG has vX.Y's tree already: no commit to read */
	preimage_texts_init(&s->base_texts, a->h->repo, &dag->trees[s->base]);
	s->nr = dag->nr;
	s->first_tag = xmalloc(((size_t)dag->nr + 1) * sizeof(*s->first_tag));
	for (uint32_t i = 0; i <= dag->nr; i++)
		s->first_tag[i] = PV_NONE;
	s->tip = s->base;
	s->tip_name = xstrdup(t->v[s->base_tag].shortname);
	for (size_t i = 0; i < t->nreleases; i++) {
		uint32_t r = t->releases[i];
		if (!kver_same_series(&t->v[r].ver, &want) || !kver_is_stable(&t->v[r].ver) ||
		    t->v[r].commit == PV_NONE)
			continue;
		assign(s, dag, t->v[r].commit, r);
		s->stable_tags = true;
		s->tip = t->v[r].commit;
		free(s->tip_name);
		s->tip_name = xstrdup(t->v[r].shortname);
	}
	if (branch != PV_NONE && s->first_tag[branch] == PV_NONE && !s->in_base[branch]) {
		assign(s, dag, branch, ON_BRANCH);
		s->tip = branch;
		free(s->tip_name);
		s->tip_name = branch_name;
		branch_name = NULL;
	}
	free(branch_name);
	if (git_commit_lookup(&tip, a->h->repo, &dag->oids[s->tip]) < 0 ||
	    git_commit_tree(&s->tip_tree, tip) < 0)
		return pv_error_set(PV_ECORRUPT, "cannot read the tree of %s", s->tip_name);
	git_commit_free(tip);
	return 0;
}

/* Is commit one of the series' (a tag's, or its branch's queue)? */
static bool in_series(const struct stable_series *s, uint32_t commit)
{
	return commit < s->nr && s->first_tag[commit] != PV_NONE;
}

/*
 * What the series carries: the history's carriers (carriers.h, the
 * triage's and the query's map) whose stable commit is one of the series'
 * (its tags', or its branch's queue), and which of those the series
 * reverted.
 */
static void index_series(struct audit *a, struct stable_series *s)
{
	struct dag *dag = &a->h->dag;
	const struct backport_map *maps[2] = { &a->carriers.tagged, &a->carriers.queued };

	s->by_upstream = xmalloc(((size_t)dag->nr + 1) * sizeof(*s->by_upstream));
	s->reverted = xcalloc((size_t)dag->nr + 1, sizeof(*s->reverted));
	for (uint32_t i = 0; i <= dag->nr; i++)
		s->by_upstream[i] = PV_NONE;
	for (size_t m = 0; m < 2; m++)
		for (size_t i = 0; i < maps[m]->nreverts; i++)
			if (in_series(s, maps[m]->reverts[i].commit))
				s->reverted[maps[m]->reverts[i].commit] = true;
	/* the earliest backport of each upstream commit the series has not reverted,
	 * else the earliest (each map is in version order, the queue after the tags) */
	for (size_t m = 2; m-- > 0;)
		for (size_t i = maps[m]->nr; i-- > 0;) {
			const struct backport *b = &maps[m]->v[i];
			uint32_t *at = &s->by_upstream[b->upstream];
			if (in_series(s, b->commit) &&
			    (*at == PV_NONE || s->reverted[*at] || !s->reverted[b->commit]))
				*at = b->commit;
		}
}

/* Does the series' c carry upstream commit u by patch-id, naming no upstream? */
static bool by_patchid(const struct audit *a, uint32_t c, uint32_t u)
{
	return carriers_by_patchid(&a->carriers, a->h, c, u);
}

/* The series tag that first has commit, or its branch. */
static const char *tag_of(const struct audit *a, const struct stable_series *s, uint32_t commit)
{
	uint32_t t = s->first_tag[commit];
	return t == ON_BRANCH ? s->tip_name : t == PV_NONE ? "?" : a->h->tags.v[t].shortname;
}

/* Did the series release x before y (a branch's commit after every tag)? */
static bool released_before(const struct audit *a, const struct stable_series *s, uint32_t x,
			    uint32_t y)
{
	uint32_t tx = s->first_tag[x], ty = s->first_tag[y];

	if (tx == ON_BRANCH || ty == ON_BRANCH)
		return ty == ON_BRANCH && tx != ON_BRANCH;
	return tags_cmp_version(&a->h->tags, tx, ty) < 0;
}

/*
 * The series' earliest commit with commit's patch-id under another name
 * (carriers.h: a backport of its twin), not reverted; PV_NONE if none.
 * p: commit's patch as the audit read it, or NULL.
 */
static uint32_t series_same_patch(const struct audit *a, const struct stable_series *s,
				  uint32_t commit, const struct patch *p)
{
	struct patch none = { 0 };
	uint32_t *same, best = PV_NONE;
	size_t n = carriers_same_patch(&a->carriers, a->h, commit, p ? p : &none, &same);

	for (size_t i = 0; i < n; i++)
		if (in_series(s, same[i]) && !s->reverted[same[i]] &&
		    (best == PV_NONE || released_before(a, s, same[i], best)))
			best = same[i];
	free(same);
	return best;
}

/*
 * The series' commit carrying commit, not reverted since (*by_pid: found
 * by patch-id).  PV_NONE if none.
 */
static uint32_t series_carries(struct audit *a, struct stable_series *s, uint32_t commit,
			       bool *by_pid)
{
	uint32_t c = s->by_upstream[commit];

	*by_pid = c != PV_NONE && by_patchid(a, c, commit);
	if (c != PV_NONE && !s->reverted[c])
		return c;
	c = series_same_patch(a, s, commit, NULL);
	*by_pid = c != PV_NONE;
	return c;
}

/*
 * Needed?  Only a fix can be, by its own word or possibly (fixclass.h):
 * any change to code the release has would otherwise count (6,606 of the
 * 8,113 commits of v2.6.34..v2.6.35-rc1).  For a fix, the culprits its
 * message names as the triage takes them (culprit[], origin.h: Fixes: and
 * named culprits, else mentions), else the preimage.
 */
static void judge_needed(struct audit *a, struct stable_series *s, const struct triage *t,
			 const bool *culprit, struct audit_row *r, struct audit_cell *cell)
{
	const struct tag_table *tt = &a->h->tags;

	if (r->fix.cls == FIXCLASS_NOT_FIX && !a->o->needed_all) {
		cell->needed = AUDIT_NOT_A_FIX;
		cell->needed_why = xstrdup(r->fix.reason);
		return;
	}

	for (size_t i = 0; i < t->ev.nr; i++) {
		const struct evidence *e = &t->ev.v[i];
		uint32_t bp;
		bool by_pid;
		if (!culprit[i])
			continue;
		if (s->in_base[e->commit]) {
			cell->needed = AUDIT_NEEDED;
			cell->needed_why = xmalloc(96);
			snprintf(cell->needed_why, 96, "%s %.12s is in %s",
				 e->kind == EV_FIXES ? "Fixes:" : e->kind == EV_NAMED ? "culprit" : "mentions", e->ref,
				 tt->v[s->base_tag].shortname);
			return;
		}
		/* stable took the culprit: the series has the bug whatever its base */
		if ((bp = series_carries(a, s, e->commit, &by_pid)) != PV_NONE) {
			cell->needed = AUDIT_NEEDED;
			cell->via_backport = true;
			cell->needed_why = xstrfmt("culprit %.12s is in %s.y as %.12s%s since %s", e->ref,
						   s->name, git_oid_tostr_s(&a->h->dag.oids[bp]),
						   by_pid ? " (same patch-id)" : "", tag_of(a, s, bp));
			return;
		}
		if (cell->needed != AUDIT_NOT_NEEDED) {
			uint32_t first = contain_first_release(&a->c, e->commit);
			cell->needed = AUDIT_NOT_NEEDED;
			cell->needed_why = xmalloc(96);
			snprintf(cell->needed_why, 96, "%s %.12s came later (%s)",
				 e->kind == EV_FIXES ? "Fixes:" : e->kind == EV_NAMED ? "culprit" : "mentions", e->ref,
				 first == PV_NONE ? "in no release" : tt->v[first].shortname);
		}
	}
	if (cell->needed)
		return;
	switch (preimage_in(&s->base_texts, r->diff)) {
	case PREIMAGE_HAS_LINES:
		cell->needed = AUDIT_NEEDED;
		cell->needed_why = xstrfmt("the lines it changes are in %s",
					   tt->v[s->base_tag].shortname);
		break;
	case PREIMAGE_CAME_LATER:
		cell->needed = AUDIT_NOT_NEEDED;
		cell->needed_why = xstrfmt("the code it changes came after %s",
					   tt->v[s->base_tag].shortname);
		break;
	case PREIMAGE_ADDS_ONLY:
		cell->needed = AUDIT_NEED_UNKNOWN;
		cell->needed_why = xstrfmt("adds files only (%s)", tt->v[s->base_tag].shortname);
		break;
	}
}

static void judge_present(const struct audit *a, const struct stable_series *s,
			  const struct audit_row *r, struct audit_cell *cell)
{
	uint32_t c = s->by_upstream[r->commit];
	struct patch change = { .patchid = r->pid, .has_patchid = r->has_pid };

	cell->present = PV_NONE;
	/* a backport the series reverted is not there any more */
	if (c != PV_NONE && !s->reverted[c]) {
		cell->present = c;
		cell->present_how = by_patchid(a, c, r->commit) ? "patch-id" : "upstream line";
	} else if ((c = series_same_patch(a, s, r->commit, &change)) != PV_NONE) {
		cell->present = c;
		cell->present_how = "patch-id";
	}
	if (cell->present != PV_NONE)
		cell->present_since = tag_of(a, s, cell->present);
}

/*
 * Does it apply to the series' tip, exactly?  And a missing fix: does it
 * go in there, and after which commits (readiness.h)?
 */
static int judge_applies(struct audit *a, struct stable_series *s, size_t row,
			 struct audit_cell *cell)
{
	struct audit_row *r = &a->rows[row];
	/* the row's change as read once for the judges: readiness reads no diff again */
	struct patch change = { .diff = r->diff, .paths = r->paths, .npaths = r->npaths,
				.patchid = r->pid, .has_patchid = r->has_pid };
	struct readiness rd;
	char *why = NULL;
	int ret;

	if (r->fix.cls == FIXCLASS_FIX) {
		/* a missing fix: a backport queue's question, not the possible fixes' review list */
		if ((ret = readiness_check(&rd, a->h, r->commit, &change, s->tip)) < 0)
			return ret;
		readiness_summarize(&rd, &cell->ready);
		readiness_free(&rd);
	}
	/* readiness tries git apply's way first: its answer is the column's, unless it stopped at "already" */
	if (cell->ready.checked && cell->ready.answer != READY_ALREADY) {
		cell->applies = cell->ready.how == APPLY_CLEAN;
	} else {
		cell->applies = apply_to_tree(a->h->repo, git_tree_id(s->tip_tree), r->diff, NULL,
					      &why) == 0;
		free(why);
	}
	if (cell->ready.checked && cell->ready.answer == READY_ALREADY) {
		/* the same change under another id, in mainline before the series left it */
		uint32_t first = contain_first_release(&a->c, cell->ready.already_by);
		cell->present = cell->ready.already_by;
		cell->present_how = "patch-id";
		cell->present_since = first == PV_NONE ? s->tip_name : a->h->tags.v[first].shortname;
	}
	return 0;
}

/* Newest first, by committer date, as git log lists them. */
static int cmp_newest(const void *x, const void *y, void *dates)
{
	const int64_t *d = dates;
	const struct audit_row *a = x, *b = y;

	if (d[a->commit] != d[b->commit])
		return d[a->commit] > d[b->commit] ? -1 : 1;
	return a->commit < b->commit ? -1 : a->commit > b->commit;
}

/* The window: non-merge commits of A..B, newest first (by commit date). */
static int collect(struct audit *a)
{
	struct dag *dag = &a->h->dag;
	bool *mask;
	int ret = match_range(a->h, a->o->range, &mask);

	if (ret)
		return ret;
	for (uint32_t c = 0; c < dag->nr; c++) {
		uint32_t np;
		if (!mask[c])
			continue;
		dag_parents(dag, c, &np);
		if (np > 1)
			continue;
		a->rows = xrealloc(a->rows, (a->nrows + 1) * sizeof(*a->rows));
		memset(&a->rows[a->nrows], 0, sizeof(*a->rows));
		a->rows[a->nrows++].commit = c;
	}
	free(mask);
	if (a->nrows > 1)
		qsort_r(a->rows, a->nrows, sizeof(*a->rows), cmp_newest, dag->dates);
	return 0;
}

struct released_ctx {
	struct audit *a;
	uint32_t fix_first;
};

/* Released before the fix, or carried by one of the audited series (fixclass.h). */
static bool released(void *ctx, uint32_t commit)
{
	struct released_ctx *rc = ctx;
	struct audit *a = rc->a;

	if (fixclass_released_before(&a->h->tags, contain_first_release(&a->c, commit),
				     rc->fix_first))
		return true;
	for (size_t k = 0; k < a->ns; k++)
		if (a->s[k].by_upstream[commit] != PV_NONE)
			return true;
	return false;
}

static enum audit_mark mark_of(const struct fix_kind *v)
{
	switch (v->word) {
	case FIXWORD_CC_STABLE:
	case FIXWORD_STABLE_TAG:
		return AUDIT_MARK_CC_STABLE;
	case FIXWORD_FIXES:
		return AUDIT_MARK_FIXES;
	case FIXWORD_NAMED:
	case FIXWORD_MENTION:
	case FIXWORD_REVERT:
		return AUDIT_MARK_NAMED;
	case FIXWORD_NONE:
		break;
	}
	return v->cls == FIXCLASS_POSSIBLE ? AUDIT_MARK_POSSIBLE : AUDIT_MARK_NONE;
}

/*
 * Mainline's reverts of the window's commits, in it or after it up to the
 * newest mainline release (reverts.h, as the triage reads them): what a
 * standing revert names is no longer missing anywhere.
 */
static int find_reverts(struct audit *a)
{
	struct dag *dag = &a->h->dag;
	uint32_t *rows = xmalloc((a->nrows + 1) * sizeof(*rows));
	uint32_t *bottom = NULL;        /* parents below the window: what it starts on */
	size_t nbottom = 0;
	bool *in_window = xcalloc((size_t)dag->nr + 1, 1);
	struct reverts rv;
	int ret;

	for (size_t i = 0; i < a->nrows; i++)
		in_window[rows[i] = a->rows[i].commit] = true;
	for (size_t i = 0; i < a->nrows; i++) {
		uint32_t np;
		const uint32_t *p = dag_parents(dag, rows[i], &np);
		for (uint32_t k = 0; k < np; k++)
			if (!in_window[p[k]]) {
				bottom = xrealloc(bottom, (nbottom + 1) * sizeof(*bottom));
				bottom[nbottom++] = p[k];
			}
	}
	ret = reverts_scan(&rv, a->h, bottom, nbottom, rows, a->nrows);
	for (size_t i = 0; !ret && i < a->nrows; i++) {
		struct audit_row *r = &a->rows[i];
		r->reverted_by = reverts_standing(&rv, r->commit, r->subject);
		r->reverted_release = r->reverted_by == PV_NONE ? PV_NONE :
				      contain_first_release(&a->c, r->reverted_by);
	}
	reverts_free(&rv);
	free(in_window);
	free(bottom);
	free(rows);
	return ret;
}

/* What the fix's message blames, read as the triage reads it (origin.h). */
static bool *message_culprits(struct audit *a, struct triage *t, uint32_t fix_first)
{
	bool *culprit = xcalloc(t->ev.nr + 1, 1);
	struct origin_input in = { t->fix, fix_first, &t->ev, &t->blame };

	for (size_t i = 0; i < t->ev.nr; i++)
		if (t->ev.v[i].commit != PV_NONE)
			t->ev.v[i].first_release = contain_first_release(&a->c, t->ev.v[i].commit);
	origin_message_culprits(&in, a->h, culprit);
	return culprit;
}

/* The missing fixes (cells) whose readiness the audit checks. */
static size_t count_missing(const struct audit *a)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nrows; i++)
		for (size_t k = 0; k < a->ns; k++)
			n += audit_missing(&a->rows[i], &a->rows[i].cells[k]) &&
			     a->rows[i].fix.cls == FIXCLASS_FIX;
	return n;
}


/* What is missing: does it apply, and the missing fixes' readiness, oldest first. */
static int judge_missing(struct audit *a)
{
	size_t done = 0, n = count_missing(a);
	int ret;

	for (size_t i = a->nrows; i-- > 0;)
		for (size_t k = 0; k < a->ns; k++) {
			struct audit_cell *cell = &a->rows[i].cells[k];
			if (!audit_missing(&a->rows[i], cell))
				continue;
			if ((ret = judge_applies(a, &a->s[k], i, cell)) < 0)
				return ret;
			if (a->rows[i].fix.cls == FIXCLASS_FIX && (++done % 10 == 0 || done == n))
				pv_progress("audit", "missing fixes checked for backport", done, n);
		}
	return 0;
}

static int read_rows(struct audit *a)
{
	int ret;

	for (size_t i = 0; i < a->nrows; i++) {
		struct audit_row *r = &a->rows[i];
		struct triage t;
		struct released_ctx rc;
		bool *culprit;

		if ((ret = triage_read(&t, a->h, r->commit)))
			return ret;
		rc = (struct released_ctx){ a, contain_first_release(&a->c, r->commit) };
		culprit = message_culprits(a, &t, rc.fix_first);
		fixclass_judge(&r->fix, &t.fixp, 1, fixclass_late(&a->h->tags, rc.fix_first), &t.ev,
			       released, &rc);
		r->mark = mark_of(&r->fix);
		snprintf(r->hint, sizeof(r->hint), "%s", t.ev.cc_hint);
		r->subject = history_subject(a->h, r->commit);
		r->diff = xstrdup(t.fixp.diff);
		r->paths = t.fixp.paths;
		r->npaths = t.fixp.npaths;
		t.fixp.paths = NULL;
		t.fixp.npaths = 0;
		r->pid = t.fixp.patchid;
		r->has_pid = t.fixp.has_patchid;
		r->cells = xcalloc(a->ns, sizeof(*r->cells));
		for (size_t k = 0; k < a->ns; k++) {
			judge_present(a, &a->s[k], r, &r->cells[k]);
			judge_needed(a, &a->s[k], &t, culprit, r, &r->cells[k]);
			r->cells[k].applies = -1;
		}
		triage_free(&t);
		free(culprit);
		if (i % 250 == 0 || i + 1 == a->nrows)
			pv_progress("audit", "commits", i + 1, a->nrows);
	}
	ret = find_reverts(a);
	return ret ? ret : judge_missing(a);
}

bool audit_missing(const struct audit_row *r, const struct audit_cell *c)
{
	return c->needed == AUDIT_NEEDED && c->present == PV_NONE && r->reverted_by == PV_NONE;
}

bool audit_listed(const struct audit_result *res, const struct audit_row *r, const char *only)
{
	if (!only || !strcmp(only, "all"))
		return true;
	for (size_t k = 0; k < res->nseries; k++) {
		const struct audit_cell *c = &r->cells[k];
		bool missing = audit_missing(r, c);
		if ((!strcmp(only, "missing") && missing && r->fix.cls == FIXCLASS_FIX) ||
		    (!strcmp(only, "possible") && missing && r->fix.cls == FIXCLASS_POSSIBLE) ||
		    (!strcmp(only, "present") && c->present != PV_NONE) ||
		    (!strcmp(only, "unneeded") && c->needed != AUDIT_NEEDED && c->present == PV_NONE))
			return true;
	}
	return false;
}

static void count_ready(const struct ready_summary *s, struct audit_counts *n)
{
	if (!s->checked)
		return;
	switch (s->answer) {
	case READY_ALREADY:     /* present, then (judge_applies): not missing */
		break;
	case READY_APPLIES:
		*(s->how == APPLY_CLEAN ? &n->ready_clean : &n->ready_merged) += 1;
		break;
	case READY_AFTER:
		n->ready_after++;
		break;
	case READY_CONFLICT:
		n->ready_conflict++;
		break;
	}
}

void audit_count(const struct audit_result *res, size_t k, struct audit_counts *n)
{
	memset(n, 0, sizeof(*n));
	for (size_t i = 0; i < res->nrows; i++) {
		const struct audit_row *r = &res->rows[i];
		const struct audit_cell *c = &r->cells[k];
		bool fix = r->fix.cls == FIXCLASS_FIX, absent = c->present == PV_NONE;
		bool missing = audit_missing(r, c);

		n->marked += r->mark == AUDIT_MARK_CC_STABLE;
		n->by_word += fix;
		n->possible += r->fix.cls == FIXCLASS_POSSIBLE;
		n->not_fix += r->fix.cls == FIXCLASS_NOT_FIX;
		if (!absent) {
			n->present++;
			n->by_line += !strcmp(c->present_how, "upstream line");
			n->present_not_fix += r->fix.cls == FIXCLASS_NOT_FIX;
		}
		n->reverted += c->needed == AUDIT_NEEDED && absent && !missing;
		if (c->needed == AUDIT_NEEDED && fix) {
			n->candidates++;
			n->missing += missing;
			n->missing_backported_culprit += missing && c->via_backport;
			if (missing)
				count_ready(&c->ready, n);
		} else if (c->needed == AUDIT_NEEDED) {
			n->possible_needed++;
			n->possible_missing += missing;
		} else if (c->needed == AUDIT_NOT_NEEDED) {
			*(fix ? &n->unneeded_fix : &n->unneeded_possible) += 1;
		} else if (c->needed == AUDIT_NEED_UNKNOWN) {
			n->unknown++;
		}
	}
}

static void free_rows(struct audit_row *rows, size_t nrows, size_t nseries)
{
	for (size_t i = 0; i < nrows; i++) {
		struct audit_row *r = &rows[i];
		for (size_t k = 0; r->cells && k < nseries; k++) {
			free(r->cells[k].needed_why);
			ready_summary_free(&r->cells[k].ready);
		}
		for (size_t k = 0; k < r->npaths; k++)
			free(r->paths[k]);
		free(r->paths);
		free(r->cells);
		free(r->subject);
		free(r->diff);
		fix_kind_free(&r->fix);
	}
	free(rows);
}

void audit_result_free(struct audit_result *res)
{
	free_rows(res->rows, res->nrows, res->nseries);
	for (size_t k = 0; k < res->nseries; k++)
		free(res->series[k].tip);
	free(res->series);
	memset(res, 0, sizeof(*res));
}

/* The table, handed over: the rows and each series' name, base and tip. */
static void hand_over(struct audit *a, struct audit_result *out)
{
	out->rows = a->rows;
	out->nrows = a->nrows;
	out->series = xcalloc(a->ns, sizeof(*out->series));
	out->nseries = a->ns;
	for (size_t k = 0; k < a->ns; k++) {
		memcpy(out->series[k].name, a->s[k].name, sizeof(out->series[k].name));
		out->series[k].base = a->h->tags.v[a->s[k].base_tag].shortname;
		out->series[k].tip = a->s[k].tip_name;
		out->series[k].stable_tags = a->s[k].stable_tags;
		a->s[k].tip_name = NULL;
	}
	a->rows = NULL;
	a->nrows = 0;
}

static void free_audit(struct audit *a)
{
	free_rows(a->rows, a->nrows, a->ns);     /* not handed over: a failure on the way */
	for (size_t k = 0; k < a->ns; k++) {
		struct stable_series *s = &a->s[k];
		free(s->tip_name);
		free(s->in_base);
		free(s->first_tag);
		free(s->by_upstream);
		free(s->reverted);
		git_tree_free(s->tip_tree);
		preimage_texts_free(&s->base_texts);
	}
	free(a->s);
	carriers_close(&a->carriers);
	contain_free(&a->c);
}

int audit_run(struct audit_result *out, struct history *h, const struct audit_opts *o)
{
	struct audit a;
	char *list = xstrdup(o->series), *save = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	memset(&a, 0, sizeof(a));
	a.h = h;
	a.o = o;
	/* every commit the audit indexes by is loaded before per-commit arrays are sized */
	history_load_branches(h);
	contain_init(&a.c, h);
	ret = collect(&a);
	for (char *arg = strtok_r(list, ",", &save); arg && !ret;
	     arg = strtok_r(NULL, ",", &save)) {
		char name[32];
		if ((ret = series_name(arg, name)))
			break;
		a.s = xrealloc(a.s, (a.ns + 1) * sizeof(*a.s));
		memset(&a.s[a.ns], 0, sizeof(*a.s));
		ret = open_series(&a, &a.s[a.ns++], name);
	}
	if (!ret && !a.ns)
		ret = pv_error_set(PV_EINVALID, "'%s' names no series", o->series);
	if (!ret)
		ret = carriers_open(&a.carriers, h, &a.c, NULL, 0, NULL, 0);
	/* every row asks for its patch-id's carriers: one index, not a search a row */
	if (!ret)
		carriers_index_patchids(&a.carriers, h);
	for (size_t k = 0; !ret && k < a.ns; k++)
		index_series(&a, &a.s[k]);
	if (!ret)
		ret = read_rows(&a);
	if (!ret)
		hand_over(&a, out);
	free_audit(&a);
	free(list);
	return ret;
}
