/*
 * Stable triage of one fix: evidence, affected releases, series, verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/treepath.h"
#include "patchver/stable/apply.h"
#include "patchver/stable/match.h"
#include "patchver/stable/preimage.h"
#include "patchver/stable/reverts.h"
#include "patchver/stable/triage.h"
#include "patchver/stable/verdict.h"

static bool is_merge(const struct dag *dag, uint32_t c)
{
	unsigned np;
	dag_parents(dag, c, &np);
	return np > 1;
}

static int add_blame(struct triage *t, struct history *h)
{
	struct dag *dag = &h->dag;
	struct fixblame *r = &t->blame;
	unsigned np;
	const uint32_t *par = dag_parents(dag, t->fix, &np);

	if (!np || !*t->fixp.diff)
		return 0;
	if (fixblame_run(h->repo, dag, par[0], t->fixp.diff, r) < 0)
		return pv_error_wrap(PV_ECORRUPT, "cannot blame the fix's lines: ");
	fixblame_rank(r);
	t->blame_lines = r->lines;
	for (size_t i = 0; i < r->nr; i++) {
		struct evidence *e = evidence_add(&t->ev, EV_BLAME);
		git_oid_tostr(e->ref, sizeof(e->ref), &r->v[i].commit);
		e->commit = dag_find(dag, &r->v[i].commit);
		e->lines = r->v[i];
		e->merge = e->commit != PV_NONE && is_merge(dag, e->commit);
	}
	return 0;
}

/* Mark in set[] every tag containing commit. */
static void mark_tags(struct contain *c, uint32_t commit, bool *set)
{
	size_t n;
	uint32_t *tags = contain_tags(c, commit, &n);

	for (size_t i = 0; i < n; i++)
		set[tags[i]] = true;
	free(tags);
}

static bool tag_contains(struct contain *c, uint32_t tag, uint32_t commit)
{
	size_t n;
	uint32_t *tags = contain_tags(c, commit, &n);
	bool yes = false;

	for (size_t i = 0; i < n && !yes; i++)
		yes = tags[i] == tag;
	free(tags);
	return yes;
}

/*
 * Mark in set[] the tags carrying the stable commit `commit` and not its
 * revert (PV_NONE: none); via[tag], when not NULL, gets commit where it
 * marks a tag set[] did not have yet.
 */
static void mark_unreverted(struct contain *c, uint32_t commit, uint32_t revert,
			    bool *set, uint32_t *via)
{
	size_t n;
	uint32_t *tags = contain_tags(c, commit, &n);
	bool *reverted = xcalloc(c->h->tags.nr + 1, 1);

	if (revert != PV_NONE)
		mark_tags(c, revert, reverted);
	for (size_t i = 0; i < n; i++) {
		if (reverted[tags[i]] || set[tags[i]])
			continue;
		set[tags[i]] = true;
		if (via)
			via[tags[i]] = commit;
	}
	free(tags);
	free(reverted);
}

/*
 * Where one commit is, tag by tag: the tags containing it, and those
 * containing a stable backport of it that no revert has taken back out
 * (backports.h).  via[tag] gets the backport that put it there (PV_NONE:
 * the commit itself).
 */
static void mark_carried(struct contain *c, const struct triage *t, uint32_t commit,
			 bool *set, uint32_t *via)
{
	size_t nb;
	const struct backport *b = backport_map_of(&t->carriers.tagged, commit, &nb);

	mark_unreverted(c, commit, PV_NONE, set, via);
	for (size_t i = 0; i < c->h->tags.nr + 1; i++)
		if (set[i] && via[i] == commit)
			via[i] = PV_NONE;
	for (size_t k = 0; k < nb; k++)
		mark_unreverted(c, b[k].commit, b[k].revert, set, via);
	for (size_t k = 0; k < t->nintro_extra; k++)
		if (t->intro_extra[k].upstream == commit)
			mark_unreverted(c, t->intro_extra[k].commit, t->intro_extra[k].revert,
					set, via);
}

/* Was carrier found carrying upstream by its patch-id (named none, or another)? */
static bool intro_by_patchid(const struct triage *t, const struct history *h, uint32_t carrier,
			     uint32_t upstream)
{
	for (size_t i = 0; i < t->nintro_same; i++)
		if (t->intro_same[i] == carrier)
			return true;
	return carriers_by_patchid(&t->carriers, h, carrier, upstream);
}

/* The first mainline release after the series of releases[r] (its next rc1), or PV_NONE. */
static uint32_t next_mainline(const struct tag_table *tt, size_t r)
{
	const struct kver *bv = &tt->v[tt->releases[r]].ver;

	for (size_t k = r + 1; k < tt->nreleases; k++) {
		const struct kver *v = &tt->v[tt->releases[k]].ver;
		if (!kver_is_stable(v) && !kver_same_series(v, bv))
			return tt->releases[k];
	}
	return PV_NONE;
}

/* Is one of the stable tags s's answer turns on a commit mainline also reaches? */
static void check_on_mainline(struct series *s, const struct tag_table *tt, size_t r,
			      struct contain *c)
{
	uint32_t next = next_mainline(tt, r), turns[4] = { s->intro_tag, s->first_affected,
							   s->last_affected, s->fixed_in };

	s->on_mainline = s->mainline_by = PV_NONE;
	for (size_t k = 0; k < 4 && next != PV_NONE; k++)
		if (turns[k] != PV_NONE && kver_is_stable(&tt->v[turns[k]].ver) &&
		    tt->v[turns[k]].commit != PV_NONE &&
		    tag_contains(c, next, tt->v[turns[k]].commit)) {
			s->on_mainline = turns[k];
			s->mainline_by = next;
			return;
		}
}

/*
 * A series is maintained when it has stable releases: vX.Y.Z tags.  It is
 * affected from its first tag carrying an introducer (its base release, or
 * the stable tag that took a backport of one) up to the tag before the fix
 * or its backport came; intro_via[tag] names the backport that brought it.
 */
static void build_series(struct triage_group *g, const struct triage *t,
			 struct history *h, const bool *intro, const uint32_t *intro_via,
			 const uint32_t *intro_of, const bool *fixed, struct contain *c)
{
	const struct tag_table *tt = &h->tags;

	for (size_t r = 0; r < tt->nreleases; r++) {
		uint32_t base = tt->releases[r];
		const struct kver *bv = &tt->v[base].ver;
		struct series *s;
		bool by_other;

		if (kver_is_rc(bv) || kver_is_stable(bv))
			continue;
		g->series = xrealloc(g->series, (g->nseries + 1) * sizeof(*g->series));
		s = &g->series[g->nseries++];
		memset(s, 0, sizeof(*s));
		kver_series(bv, s->name, sizeof(s->name));
		s->base = base;
		s->first_affected = s->last_affected = s->fixed_in = s->intro_tag = PV_NONE;
		s->backport = s->intro_backport = s->intro_upstream = s->twin = PV_NONE;
		s->tags = xmalloc((tt->nreleases + 1) * sizeof(uint32_t));
		for (size_t k = r; k < tt->nreleases; k++) {
			uint32_t tag = tt->releases[k];
			const struct kver *v = &tt->v[tag].ver;
			if (!kver_same_series(v, bv) || kver_is_rc(v))
				continue;
			s->tags[s->ntags++] = tag;
			s->maintained |= kver_is_stable(v);
			if (intro[tag] && s->intro_tag == PV_NONE) {
				s->intro_tag = tag;
				s->intro_backport = intro_via[tag];
				s->intro_upstream = intro_of[tag];
				s->intro_by_patchid = intro_via[tag] != PV_NONE &&
					intro_by_patchid(t, h, intro_via[tag], intro_of[tag]);
				s->together = fixed[tag] && tag != base;
			}
			/* the fix's backport in a stable tag the culprit has not reached */
			if (fixed[tag] && !intro[tag] && s->intro_tag == PV_NONE && tag != base)
				s->fix_before = s->fix_alone = true;
			if (intro[tag] && !fixed[tag]) {
				s->affected = true;
				if (s->first_affected == PV_NONE)
					s->first_affected = tag;
				s->last_affected = tag;
			} else if (fixed[tag] && s->fixed_in == PV_NONE && s->intro_tag != PV_NONE) {
				s->fixed_in = tag;
			}
		}
		/* before the culprit, or without it: the culprit never came */
		if (s->intro_tag == PV_NONE)
			s->fix_before = false;
		else
			s->fix_alone = false;
		check_on_mainline(s, tt, r, c);
		/* fixed, but not by the fix itself: by mainline's twin of it, or a backport */
		by_other = s->fixed_in != PV_NONE && !tag_contains(c, s->fixed_in, t->fix);
		for (size_t k = 0; k < t->ntwins && by_other; k++)
			if (tag_contains(c, s->fixed_in, t->twins[k]))
				s->twin = t->twins[k];
		if (by_other && s->twin == PV_NONE) {
			s->fixed_by_backport = true;
			for (size_t b = 0; b < t->nbackports; b++)
				if (tag_contains(c, s->fixed_in, t->backports[b]))
					s->backport = t->backports[b];
		}
	}
}

/*
 * For each affected release of the headline: does the fix apply there?
 * If not, which of the commits that last changed its hunks' lines (the
 * blame evidence, already computed) does the release lack: its
 * prerequisites.
 */
static int apply_check(struct triage *t, struct history *h, struct contain *c)
{
	struct triage_group *g = &t->groups[0];
	bool **has = NULL;      /* has[k][tag]: release tag carries blamed commit k */

	if (!g->naffected || !*t->fixp.diff)
		return 0;
	has = xcalloc(t->ev.nr + 1, sizeof(*has));
	for (size_t k = 0; k < t->ev.nr; k++) {
		if (t->ev.v[k].kind != EV_BLAME || t->ev.v[k].commit == PV_NONE)
			continue;
		has[k] = xcalloc(h->tags.nr + 1, 1);
		mark_tags(c, t->ev.v[k].commit, has[k]);
	}
	g->fits = xcalloc(g->naffected, sizeof(*g->fits));
	for (size_t i = 0; i < g->naffected; i++) {
		struct release_fit *f = &g->fits[i];
		uint32_t commit = h->tags.v[g->affected[i]].commit;
		char *why = NULL;

		f->tag = g->affected[i];
		f->applies = apply_to_tree(h->repo, &h->dag.trees[commit], t->fixp.diff, NULL, &why) == 0;
		free(why);
		for (size_t k = 0; !f->applies && k < t->ev.nr; k++) {
			if (!has[k] || has[k][f->tag])
				continue;
			f->prereqs = xrealloc(f->prereqs, (f->nprereqs + 1) * sizeof(uint32_t));
			f->prereqs[f->nprereqs++] = t->ev.v[k].commit;
		}
	}
	for (size_t k = 0; k < t->ev.nr; k++)
		free(has[k]);
	free(has);
	return 0;
}

/*
 * Per tag: intro[] carries an introducer, via[] the backport that brought
 * it, of[] its upstream commit (PV_NONE: none yet).
 */
static void new_marks(size_t ntags, bool **intro, uint32_t **via, uint32_t **of)
{
	*intro = xcalloc(ntags, 1);
	*via = xmalloc(ntags * sizeof(**via));
	*of = xmalloc(ntags * sizeof(**of));
	for (size_t i = 0; i < ntags; i++)
		(*via)[i] = (*of)[i] = PV_NONE;
}

/* The releases carrying intro[] and not fixed[], and g's series rows from them; frees the three. */
static void finish_rows(struct triage_group *g, const struct triage *t, struct history *h,
			struct contain *c, const bool *fixed, bool *intro, uint32_t *via, uint32_t *of)
{
	g->affected = xmalloc((h->tags.nreleases + 1) * sizeof(uint32_t));
	for (size_t r = 0; r < h->tags.nreleases; r++) {
		uint32_t tag = h->tags.releases[r];
		if (intro[tag] && !fixed[tag])
			g->affected[g->naffected++] = tag;
	}
	build_series(g, t, h, intro, via, of, fixed, c);
	free(intro);
	free(via);
	free(of);
}

/* Has release tag the lines the fix changes?  (Read from its tree alone.) */
static bool release_has_lines(const struct triage *t, struct history *h, uint32_t tag)
{
	git_commit *commit = NULL;
	struct preimage_texts texts;
	bool has = false;

	if (h->tags.v[tag].commit == PV_NONE ||
	    git_commit_lookup(&commit, h->repo, &h->dag.oids[h->tags.v[tag].commit]) < 0) {
		git_error_clear();
		return false;
	}
	preimage_texts_init(&texts, h->repo, git_commit_tree_id(commit));
	has = preimage_in(&texts, t->fixp.diff) == PREIMAGE_HAS_LINES;
	preimage_texts_free(&texts);
	git_commit_free(commit);
	return has;
}

/*
 * The releases carrying one of the introducers intro[0..n) (itself, or a
 * stable backport of it) and neither the fix nor a backport of it, and
 * g's series rows from them.
 */
static void place(struct triage_group *g, const struct triage *t, struct history *h,
		  struct contain *c, const bool *fixed, const uint32_t *intro_commits, size_t n)
{
	size_t ntags = h->tags.nr + 1;
	bool *intro;
	uint32_t *via, *of;

	new_marks(ntags, &intro, &via, &of);
	for (size_t i = 0; i < n; i++) {
		uint32_t u = intro_commits[i];
		bool *mine = xcalloc(ntags, 1);
		uint32_t *my_via = xmalloc(ntags * sizeof(*my_via));

		/* the first introducer to reach a tag names how it came there */
		mark_carried(c, t, u, mine, my_via);
		for (size_t k = 0; k < ntags; k++)
			if (mine[k] && !intro[k]) {
				intro[k] = true;
				of[k] = u;
				via[k] = my_via[k];
			}
		free(mine);
		free(my_via);
	}
	finish_rows(g, t, h, c, fixed, intro, via, of);
}

/*
 * --evidence text, the message naming no culprit: a series is affected from
 * its release when that release has the lines the fix changes (the audit's
 * test, preimage.h), up to the tag before the fix or its backport.
 */
static void place_by_lines(struct triage_group *g, const struct triage *t, struct history *h,
			   struct contain *c, const bool *fixed)
{
	const struct tag_table *tt = &h->tags;
	bool *intro;
	uint32_t *via, *of;

	new_marks(tt->nr + 1, &intro, &via, &of);
	for (size_t r = 0; r < tt->nreleases; r++) {
		const struct kver *bv = &tt->v[tt->releases[r]].ver;
		if (!kver_is_rc(bv) && !kver_is_stable(bv) && release_has_lines(t, h, tt->releases[r]))
			for (size_t k = r; k < tt->nreleases; k++) {
				const struct kver *v = &tt->v[tt->releases[k]].ver;
				intro[tt->releases[k]] |= kver_same_series(v, bv) && !kver_is_rc(v);
			}
	}
	g->by_lines = true;
	g->conf = CONF_UNCERTAIN;
	finish_rows(g, t, h, c, fixed, intro, via, of);
}

/* A group's releases and series, from its introducers (commits of the evidence). */
static void find_affected(struct triage_group *g, struct triage *t,
			  struct history *h, struct contain *c, const bool *fixed)
{
	uint32_t *commits = xmalloc((g->nintro + 1) * sizeof(*commits));

	for (size_t i = 0; i < g->nintro; i++)
		commits[i] = t->ev.v[g->intro[i]].commit;
	place(g, t, h, c, fixed, commits, g->nintro);
	free(commits);
}

int triage_read(struct triage *t, struct history *h, uint32_t fix)
{
	memset(t, 0, sizeof(*t));
	t->fix = fix;
	t->fix_first = PV_NONE;
	t->backport_first = PV_NONE;
	if (patch_from_commit(&t->fixp, h->repo, &h->dag.oids[fix]) < 0)
		return pv_error_set(PV_ECORRUPT, "cannot read the diff of %s: %s",
				    git_oid_tostr_s(&h->dag.oids[fix]), git_errmsg());
	evidence_read(&t->ev, h, fix, t->fixp.message, &t->fixp);
	return 0;
}

/*
 * The tags with the fix: containing it, or a backport of it (named or found
 * by patch-id) that no stable revert has taken out again.
 */
static void mark_fixed(const struct triage *t, struct contain *c, bool *fixed)
{
	mark_tags(c, t->fix, fixed);
	for (size_t k = 0; k < t->ntwins; k++)
		mark_tags(c, t->twins[k], fixed);
	for (size_t b = 0; b < t->nbackports; b++)
		mark_unreverted(c, t->backports[b], carriers_revert_of(&t->carriers, t->backports[b]), fixed, NULL);
}

/*
 * The backport map for this fix: the stable commits that change the fix's
 * files or an introducer's (a backport changes what it carries; a revert
 * what it reverts).
 */
static int stable_map(struct triage *t, struct history *h, struct contain *c)
{
	uint32_t *commits = xmalloc((t->ev.nr + 1) * sizeof(*commits));
	size_t n = 0;
	int ret;

	for (size_t gi = 0; gi < t->ngroups; gi++)
		for (size_t k = 0; k < t->groups[gi].nintro; k++)
			commits[n++] = t->ev.v[t->groups[gi].intro[k]].commit;
	ret = carriers_open(&t->carriers, h, c, commits, n,
			    (const char *const *)t->fixp.paths, t->fixp.npaths);
	free(commits);
	return ret;
}

/* Does an introducer before groups[gi].intro[k] name commit u? */
static bool named_before(const struct triage *t, size_t gi, size_t k, uint32_t u)
{
	for (size_t g = 0; g <= gi; g++)
		for (size_t i = 0; i < (g < gi ? t->groups[g].nintro : k); i++)
			if (t->ev.v[t->groups[g].intro[i]].commit == u)
				return true;
	return false;
}

/* Add the backport b of introducer u to intro_extra. */
static void add_intro_extra(struct triage *t, size_t *alloc, const struct backport *b)
{
	t->intro_extra = xgrow(t->intro_extra, alloc, t->nintro_extra + 1, sizeof(*t->intro_extra));
	t->intro_extra[t->nintro_extra++] = *b;
}

/*
 * An introducer's stable commits carrying its patch-id under another
 * upstream's name (carriers.h): read only for the few introducers, by
 * their files.  Each is also kept in intro_same.
 */
static void intro_same_patch(struct triage *t, struct history *h, struct contain *c, uint32_t u,
			     size_t *alloc)
{
	struct patch files = { 0 };
	uint32_t *found = NULL;
	size_t n = 0;

	if (backport_files(h, u, &files.paths, &files.npaths))
		n = carriers_same_patch(&t->carriers, h, u, &files, &found);
	for (size_t x = 0; x < n; x++) {
		struct backport b = { u, found[x], contain_first_release(c, found[x]),
				      carriers_revert_of(&t->carriers, found[x]), PV_NONE };
		if (b.revert != PV_NONE)
			b.revert_tag = contain_first_release(c, b.revert);
		add_intro_extra(t, alloc, &b);
		t->intro_same = xrealloc(t->intro_same, (t->nintro_same + 1) * sizeof(*t->intro_same));
		t->intro_same[t->nintro_same++] = found[x];
	}
	free(found);
	for (size_t x = 0; x < files.npaths; x++)
		free(files.paths[x]);
	free(files.paths);
}

/*
 * The introducers' backports the tags' map does not hold: queued on a
 * stable branch (tag PV_NONE), or carrying the patch-id under another name.
 */
static void find_intro_extra(struct triage *t, struct history *h, struct contain *c)
{
	size_t alloc = 0;

	for (size_t gi = 0; gi < t->ngroups; gi++)
		for (size_t k = 0; k < t->groups[gi].nintro; k++) {
			uint32_t u = t->ev.v[t->groups[gi].intro[k]].commit;
			size_t n = 0;
			const struct backport *q;
			/* each introducer once, though several groups may name it */
			if (named_before(t, gi, k, u))
				continue;
			q = backport_map_of(&t->carriers.queued, u, &n);
			for (size_t x = 0; x < n; x++) {
				struct backport b = q[x];
				b.tag = PV_NONE;
				b.revert_tag = b.revert == PV_NONE ? PV_NONE : BACKMAP_ON_BRANCH;
				add_intro_extra(t, &alloc, &b);
			}
			intro_same_patch(t, h, c, u, &alloc);
		}
}

/* The fix's backports: its carriers, and those with its patch-id under another name. */
static void find_backports(struct triage *t, struct history *h)
{
	uint32_t *same;
	size_t n = carriers_same_patch(&t->carriers, h, t->fix, &t->fixp, &same);

	t->nbackports = carriers_of(&t->carriers, t->fix, &t->backports);
	if (n) {
		t->backports = xrealloc(t->backports, (t->nbackports + n) * sizeof(*t->backports));
		memcpy(t->backports + t->nbackports, same, n * sizeof(*same));
		t->nbackports += n;
		qsort(t->backports, t->nbackports, sizeof(*t->backports), cmp_u32);
	}
	free(same);
}

/* The earliest stable tag that carries a backport of the fix, or PV_NONE. */
static uint32_t first_stable_backport(const struct triage *t, struct history *h,
				      struct contain *c)
{
	uint32_t best = PV_NONE;

	for (size_t b = 0; b < t->nbackports; b++) {
		uint32_t r = contain_first_release(c, t->backports[b]);
		if (r != PV_NONE && kver_is_stable(&h->tags.v[r].ver) &&
		    (best == PV_NONE || tags_cmp_version(&h->tags, r, best) < 0))
			best = r;
	}
	return best;
}

struct released_ctx {
	const struct triage *t;
	const struct history *h;
	struct contain *c;
};

/* Released before the fix, or carried by a stable series as a backport. */
static bool released(void *ctx, uint32_t commit)
{
	struct released_ctx *rc = ctx;
	size_t n = 0;

	if (fixclass_released_before(&rc->h->tags, contain_first_release(rc->c, commit),
				     rc->t->fix_first))
		return true;
	const struct backport *q;
	size_t nq;

	carriers_records(&rc->t->carriers, commit, &n, &q, &nq);
	return n + nq > 0;
}

/* Is it a fix?  Read after the backport map, which a culprit's word may need. */
static void classify(struct triage *t, struct history *h, struct contain *c)
{
	struct released_ctx rc = { t, h, c };
	uint32_t np;

	dag_parents(&h->dag, t->fix, &np);
	fixclass_judge(&t->fix_kind, &t->fixp, np, fixclass_late(&h->tags, t->fix_first), &t->ev,
		       released, &rc);
}

/* Did mainline take the fix back out (reverts.h)?  A revert of the revert restores it. */
static int find_mainline_revert(struct triage *t, struct history *h, struct contain *c)
{
	struct reverts rv;
	char *subject;
	int ret = reverts_scan(&rv, h, &t->fix, 1, NULL, 0);

	t->mainline_revert = t->mainline_revert_first = PV_NONE;
	if (ret)
		return ret;
	subject = history_subject(h, t->fix);
	t->mainline_revert = reverts_standing(&rv, t->fix, subject);
	if (t->mainline_revert != PV_NONE)
		t->mainline_revert_first = contain_first_release(c, t->mainline_revert);
	free(subject);
	reverts_free(&rv);
	return 0;
}

/*
 * The given introducers as the one group: evidence of their own, every
 * hunk of the fix (what the message and blame say stays in the list).
 */
static void given_group(struct triage *t, const struct history *h,
			const struct triage_given *given)
{
	struct triage_group *g = xcalloc(1, sizeof(*g));

	g->used = EV_GIVEN;
	g->conf = CONF_GIVEN;
	g->oldest = g->newest = PV_NONE;
	g->intro = xmalloc(given->n * sizeof(*g->intro));
	for (size_t i = 0; i < given->n; i++) {
		struct evidence *e = evidence_add(&t->ev, EV_GIVEN);
		e->commit = given->commits[i];
		git_oid_tostr(e->ref, sizeof(e->ref), &h->dag.oids[e->commit]);
		g->intro[g->nintro++] = t->ev.nr - 1;
	}
	g->hunks = xmalloc((t->blame.nhunks + 1) * sizeof(*g->hunks));
	for (unsigned k = 0; k < t->blame.nhunks; k++)
		g->hunks[g->nhunks++] = k;
	t->groups = g;
	t->ngroups = 1;
}

int triage_run_given(struct triage *t, struct history *h, struct contain *c, uint32_t fix,
		     const struct patch *mail, enum evidence_mode mode,
		     const struct triage_given *given)
{
	struct origin_input in;
	bool *fixed;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fix = fix;
	/* the queues need the branches' commits; a broken branch is left out */
	history_load_branches(h);
	if (patch_from_commit(&t->fixp, h->repo, &h->dag.oids[fix]) < 0)
		return pv_error_set(PV_ECORRUPT, "cannot read the fix's diff: %s", git_errmsg());
	t->fix_first = contain_first_release(c, fix);
	if ((ret = find_mainline_revert(t, h, c)))
		return ret;
	evidence_read(&t->ev, h, fix, t->fixp.message, &t->fixp);
	if (mail)
		evidence_read(&t->ev, h, fix, mail->message, &t->fixp);
	/* the audit's evidence is blame-free */
	if (mode != EVIDENCE_TEXT && (ret = add_blame(t, h)))
		return ret;
	if (given && given->n)
		given_group(t, h, given);
	for (size_t i = 0; i < t->ev.nr; i++)
		if (t->ev.v[i].commit != PV_NONE)
			t->ev.v[i].first_release = contain_first_release(c, t->ev.v[i].commit);
	if (!t->ngroups) {
		in = (struct origin_input){ t->fix, t->fix_first, &t->ev, &t->blame };
		origin_group(&in, h, mode, &t->groups, &t->ngroups);
	}
	if ((ret = stable_map(t, h, c)))
		return ret;
	find_backports(t, h);
	t->backport_first = first_stable_backport(t, h, c);
	t->ntwins = match_twins(h, c, fix, &t->fixp, &t->twins);
	find_intro_extra(t, h, c);
	fixed = xcalloc(h->tags.nr + 1, 1);
	mark_fixed(t, c, fixed);
	for (size_t i = 0; i < t->ngroups; i++)
		if (mode == EVIDENCE_TEXT && !t->groups[i].nintro)
			place_by_lines(&t->groups[i], t, h, c, fixed);
		else
			find_affected(&t->groups[i], t, h, c, fixed);
	free(fixed);
	apply_check(t, h, c);
	classify(t, h, c);
	triage_verdict(t, h);
	return 0;
}

int triage_run(struct triage *t, struct history *h, struct contain *c,
	       uint32_t fix, const struct patch *mail, enum evidence_mode mode)
{
	return triage_run_given(t, h, c, fix, mail, mode, NULL);
}

uint32_t triage_root(const struct history *h, uint32_t commit)
{
	unsigned np;
	const uint32_t *p;

	while ((p = dag_parents(&h->dag, commit, &np)), np)
		commit = p[0];
	return commit;
}

void triage_place(struct triage_group *g, const struct triage *t, struct history *h,
		  struct contain *c, const uint32_t *intro, size_t n)
{
	bool *fixed = xcalloc(h->tags.nr + 1, 1);

	memset(g, 0, sizeof(*g));
	g->conf = CONF_NONE;
	mark_fixed(t, c, fixed);
	place(g, t, h, c, fixed, intro, n);
	free(fixed);
}

int triage_readiness(struct triage *t, struct history *h)
{
	struct triage_group *g = &t->groups[0];

	/* its rows are not judged, or mainline took it back out */
	if (t->fix_kind.cls == FIXCLASS_NOT_FIX || t->mainline_revert != PV_NONE)
		return 0;
	for (size_t i = 0; i < g->nseries; i++) {
		struct series *s = &g->series[i];
		struct readiness r;
		uint32_t onto;
		int ret;
		if (!s->affected || s->fixed_in != PV_NONE || !s->maintained || !s->ntags ||
		    (onto = h->tags.v[s->tags[s->ntags - 1]].commit) == PV_NONE)
			continue;
		if ((ret = readiness_check(&r, h, t->fix, NULL, onto)) < 0)
			return ret;
		readiness_summarize(&r, &s->ready);
		readiness_free(&r);
	}
	return 0;
}

void triage_group_free(struct triage_group *g)
{
	free(g->hunks);
	free(g->intro);
	free(g->affected);
	for (size_t i = 0; g->fits && i < g->naffected; i++)
		free(g->fits[i].prereqs);
	free(g->fits);
	for (size_t i = 0; i < g->nseries; i++) {
		free(g->series[i].tags);
		ready_summary_free(&g->series[i].ready);
	}
	free(g->series);
	free(g->verdict);
}

uint32_t triage_introducer(const struct triage *t, const struct history *h, uint32_t *release)
{
	const struct triage_group *g = &t->groups[0];
	uint32_t best = PV_NONE, best_rel = PV_NONE;

	for (size_t i = 0; i < g->nintro; i++) {
		const struct evidence *e = &t->ev.v[g->intro[i]];
		if (e->commit == PV_NONE)
			continue;
		if (best == PV_NONE || (e->first_release != PV_NONE && (best_rel == PV_NONE ||
		    tags_cmp_version(&h->tags, e->first_release, best_rel) < 0))) {
			best = e->commit;
			best_rel = e->first_release;
		}
	}
	if (release)
		*release = best_rel;
	return best;
}

void triage_free(struct triage *t)
{
	patch_free(&t->fixp);
	evidence_list_free(&t->ev);
	fix_kind_free(&t->fix_kind);
	fixblame_free(&t->blame);
	free(t->backports);
	free(t->twins);
	free(t->intro_extra);
	free(t->intro_same);
	carriers_close(&t->carriers);
	for (size_t i = 0; i < t->ngroups; i++)
		triage_group_free(&t->groups[i]);
	free(t->groups);
	free(t->cc_note);
	memset(t, 0, sizeof(*t));
}

int triage_given_resolve(struct history *h, uint32_t fix, char *const *ids, uint32_t **out,
			 size_t *n)
{
	char hex[13];
	bool *below;
	int ret = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; ids && ids[i] && !ret; i++) {
		struct rev r;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		if (!strcmp(ids[i], "none"))
			(*out)[(*n)++] = triage_root(h, fix);
		else if (!(ret = rev_resolve(&r, h->repo, &h->dag, ids[i])))
			(*out)[(*n)++] = r.commit;
		else
			ret = pv_error_wrap(ret, "--introducer: ");
	}
	if (ret)
		return ret;
	/* after every id is resolved: resolving may load commits */
	below = dag_ancestors(&h->dag, &fix, 1);
	git_oid_tostr(hex, sizeof(hex), &h->dag.oids[fix]);
	for (size_t i = 0; i < *n && !ret; i++)
		if ((*out)[i] == fix || !below[(*out)[i]])
			ret = pv_error_set(PV_EINVALID, "--introducer %s: not below the fix %s: it "
					   "cannot have introduced the bug", ids[i], hex);
	free(below);
	return ret;
}
