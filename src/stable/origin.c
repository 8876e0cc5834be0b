/*
 * A fix's hunks grouped by the origin of the code they change.
 *
 * Message evidence first: a culprit the message names is attached to the
 * hunks whose lines it owns (all hunks, when it owns none: it names the
 * bug, not the lines).  Hunks it does not own stay with it unless their
 * code is older than the culprit's release cycle: then they repair
 * something else (d83c49f3e36c's "ancient bogosity in pivot_root()") and
 * get their own, weaker, verdict from blame.
 *
 * Blame groups: each hunk goes with the release cycle of its likeliest
 * introducer: the commit owning most of the lines it removes or extends,
 * for its age (a recent commit owning only context lines counts too); the
 * commits of that cycle are the group's introducers.  Older commits that
 * own a few lines do not drag the verdict back to them: they widen the
 * range and lower the confidence to "uncertain" instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/stable/origin.h"

/* The input, and the groups as they grow. */
struct grouping {
	uint32_t fix, fix_first;
	const struct evidence_list *ev;
	const struct fixblame *blame;
	struct triage_group *groups;
	size_t ngroups;
};

struct hunk {
	size_t *cand;           /* blame evidence owning lines of it */
	unsigned *weight;       /* ... how many removed/beside (0: context only) */
	size_t ncand;
	unsigned total;
	size_t dominant;        /* index into cand, or SIZE_MAX */
	size_t rewritten;       /* blame evidence owning most removed lines, or SIZE_MAX */
	unsigned *removed;      /* removed lines per cand */
	char cycle[32];         /* the dominant's release cycle, "" if none */
	bool owned;             /* a named culprit owns lines of it */
	bool cc_led;            /* dominant changed by the message's Cc: stable */
	int group;
};

static void cycle_of(const struct history *h, uint32_t tag, char *buf, size_t len)
{
	if (tag == PV_NONE)
		snprintf(buf, len, "unreleased");
	else
		kver_series(&h->tags.v[tag].ver, buf, len);
}

static size_t blame_ev(const struct grouping *t, uint32_t commit)
{
	for (size_t i = 0; i < t->ev->nr; i++)
		if (t->ev->v[i].kind == EV_BLAME && t->ev->v[i].commit == commit)
			return i;
	return SIZE_MAX;
}

static void add_cand(struct hunk *hk, size_t ev, enum blame_kind kind)
{
	size_t i;

	for (i = 0; i < hk->ncand && hk->cand[i] != ev; i++)
		;
	if (i == hk->ncand) {
		hk->cand = xrealloc(hk->cand, (hk->ncand + 1) * sizeof(*hk->cand));
		hk->weight = xrealloc(hk->weight, (hk->ncand + 1) * sizeof(*hk->weight));
		hk->removed = xrealloc(hk->removed, (hk->ncand + 1) * sizeof(*hk->removed));
		hk->cand[i] = ev;
		hk->weight[i] = hk->removed[i] = 0;
		hk->ncand++;
	}
	if (kind == LINE_CONTEXT)
		return;
	hk->weight[i]++;
	hk->removed[i] += kind == LINE_REMOVED;
	hk->total++;
}

/*
 * How likely evidence ev introduced the bug, from blame alone: the lines
 * it owns among those the fix removes or extends, and how recent it is.
 * Measured on fixes whose message names their culprit (bench/culprits.py,
 * tuning half), (1 + lines)^2 / age in days ranks the culprit first more
 * often (46% against 42%) than "the newest first release", and gets the
 * first affected release right more often (54% against 49%): a regression
 * is mostly found soon, and an old commit owning one line is rarely it.
 */
static double likelihood(const struct grouping *t, const struct history *h, size_t ev,
			 unsigned lines)
{
	const struct evidence *e = &t->ev->v[ev];
	double age = (double)(h->dag.dates[t->fix] - h->dag.dates[e->commit]) / 86400.0;

	if (age < 1.0)
		age = 1.0;
	return (1.0 + lines) * (1.0 + lines) / age;
}

/* Lines ev owns among those the whole fix removes or extends. */
static unsigned fix_lines(const struct grouping *t, size_t ev)
{
	return t->ev->v[ev].lines.removed + t->ev->v[ev].lines.neighbour;
}

/* A candidate that counts for the group's introducers and range. */
static bool counts(const struct hunk *x, size_t i)
{
	return x->weight[i] || i == x->dominant;
}

/* Is release a of an earlier release cycle than release b? */
static bool cycle_before(const struct history *h, uint32_t a, uint32_t b)
{
	char x[32], y[32];

	if (tags_cmp_version(&h->tags, a, b) >= 0)
		return false;
	cycle_of(h, a, x, sizeof(x));
	cycle_of(h, b, y, sizeof(y));
	return strcmp(x, y) != 0;
}

/*
 * Was ev's code in a release before the fix's own release cycle began?
 * Code the fix's cycle brought was never in a released kernel.
 */
static bool released_before_fix(const struct grouping *t, const struct history *h, size_t ev)
{
	uint32_t r = t->ev->v[ev].first_release;

	return r != PV_NONE && (t->fix_first == PV_NONE || cycle_before(h, r, t->fix_first));
}

/*
 * The likeliest candidate of hunk x (ties: more lines, then the evidence
 * ranked first) owning at least min_weight removed/beside lines, among
 * code released before the fix only with released; SIZE_MAX if none.
 */
static size_t likeliest(const struct grouping *t, const struct history *h,
			const struct hunk *x, bool released, unsigned min_weight)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < x->ncand; i++) {
		double a, b;
		if (x->weight[i] < min_weight ||
		    (released && !released_before_fix(t, h, x->cand[i])))
			continue;
		if (best == SIZE_MAX) {
			best = i;
			continue;
		}
		a = likelihood(t, h, x->cand[i], x->weight[i]);
		b = likelihood(t, h, x->cand[best], x->weight[best]);
		if (a > b || (a == b && (x->weight[i] > x->weight[best] ||
					 (x->weight[i] == x->weight[best] &&
					  x->cand[i] < x->cand[best]))))
			best = i;
	}
	return best;
}

/*
 * The message says Cc: stable: the developer holds that released kernels
 * have the bug.  x's likeliest owner came with the fix's own release
 * cycle, so it wins on recency; it gives way to released code that owns
 * as many of the lines the fix removes or extends, and, when it owns only
 * context lines, to an owner of such lines.  An owner of more of them
 * still decides: the developer can be wrong (seed 001 was sent to stable
 * for a bug of the 2.6.34 merge window).
 */
static void prefer_released(const struct grouping *t, const struct history *h, struct hunk *x)
{
	size_t pick = likeliest(t, h, x, true, x->weight[x->dominant]);

	if (pick == SIZE_MAX && !x->weight[x->dominant])
		pick = likeliest(t, h, x, false, 1);
	if (pick != SIZE_MAX) {
		x->dominant = pick;
		x->cc_led = true;
	}
}

/*
 * Per hunk: who owns its removed/beside lines; which hunks a culprit owns;
 * with released_only (Cc: stable), see prefer_released().
 */
static struct hunk *scan_hunks(const struct grouping *t, const struct history *h,
			       const bool *culprit, bool released_only)
{
	struct hunk *hk = xcalloc(t->blame->nhunks + 1, sizeof(*hk));
	bool set_aside = false;     /* some hunk is the fix itself: the others may be aside */

	for (unsigned k = 0; k < t->blame->nhunks && t->blame->aside; k++)
		set_aside |= !t->blame->aside[k];
	for (size_t i = 0; i < t->blame->nlines; i++) {
		const struct blamed_line *l = &t->blame->line[i];
		size_t ev = l->commit == PV_NONE ? SIZE_MAX : blame_ev(t, l->commit);

		for (size_t k = 0; k < t->ev->nr && l->commit != PV_NONE; k++)
			if (culprit[k] && t->ev->v[k].commit == l->commit)
				hk[l->hunk].owned = true;
		/* an added #include or declaration: its neighbours are no culprit */
		if (ev == SIZE_MAX || t->ev->v[ev].merge || (set_aside && t->blame->aside[l->hunk]))
			continue;
		add_cand(&hk[l->hunk], ev, l->kind);
	}
	for (unsigned k = 0; k < t->blame->nhunks; k++) {
		struct hunk *x = &hk[k];
		x->dominant = x->rewritten = SIZE_MAX;
		x->group = -1;
		for (size_t i = 0; i < x->ncand; i++)
			if (x->removed[i] && (x->rewritten == SIZE_MAX ||
					      x->removed[i] > x->removed[x->rewritten]))
				x->rewritten = i;
		x->dominant = likeliest(t, h, x, false, 0);
		if (released_only && x->dominant != SIZE_MAX &&
		    !released_before_fix(t, h, x->cand[x->dominant]))
			prefer_released(t, h, x);
		if (x->dominant != SIZE_MAX)
			cycle_of(h, t->ev->v[x->cand[x->dominant]].first_release,
				 x->cycle, sizeof(x->cycle));
	}
	return hk;
}

static struct triage_group *new_group(struct grouping *t)
{
	struct triage_group *g;

	t->groups = xrealloc(t->groups, (t->ngroups + 1) * sizeof(*t->groups));
	g = &t->groups[t->ngroups++];
	memset(g, 0, sizeof(*g));
	g->oldest = g->newest = PV_NONE;
	g->used = EV_BLAME;
	return g;
}

static void add_intro(struct triage_group *g, size_t ev)
{
	for (size_t i = 0; i < g->nintro; i++)
		if (g->intro[i] == ev)
			return;
	g->intro = xrealloc(g->intro, (g->nintro + 1) * sizeof(*g->intro));
	g->intro[g->nintro++] = ev;
}

static void add_hunk(struct triage_group *g, struct hunk *hk, unsigned k, int gi)
{
	g->hunks = xrealloc(g->hunks, (g->nhunks + 1) * sizeof(*g->hunks));
	g->hunks[g->nhunks++] = k;
	g->weight += hk[k].total;
	g->cc_led |= hk[k].cc_led;
	hk[k].group = gi;
}

/* Widen g's range of first releases by every candidate of its hunks. */
static void span(struct triage_group *g, const struct grouping *t, const struct history *h,
		 const struct hunk *hk)
{
	for (size_t i = 0; i < g->nhunks; i++) {
		const struct hunk *x = &hk[g->hunks[i]];
		for (size_t c = 0; c < x->ncand; c++) {
			uint32_t r = t->ev->v[x->cand[c]].first_release;
			if (r == PV_NONE || !counts(x, c))
				continue;
			if (g->oldest == PV_NONE || tags_cmp_version(&h->tags, r, g->oldest) < 0)
				g->oldest = r;
			if (g->newest == PV_NONE || tags_cmp_version(&h->tags, r, g->newest) > 0)
				g->newest = r;
		}
	}
}

/* The group's best likelihood (its introducers sorted). */
static double group_likelihood(const struct triage_group *g, const struct grouping *t,
			       const struct history *h)
{
	return g->nintro ? likelihood(t, h, g->intro[0], fix_lines(t, g->intro[0])) : 0.0;
}

/* Introducers likeliest first (then as ranked): the likeliest leads. */
static void sort_intro(struct triage_group *g, const struct grouping *t, const struct history *h)
{
	for (size_t i = 1; i < g->nintro; i++)
		for (size_t j = i; j > 0; j--) {
			size_t a = g->intro[j - 1], b = g->intro[j];
			double la = likelihood(t, h, a, fix_lines(t, a));
			double lb = likelihood(t, h, b, fix_lines(t, b));
			if (lb < la || (lb == la && b > a))
				break;
			g->intro[j - 1] = b;
			g->intro[j] = a;
		}
}

/* Blame groups for the hunks not taken yet: one per release cycle. */
static void blame_groups(struct grouping *t, const struct history *h, struct hunk *hk,
			 enum confidence cap)
{
	size_t first = t->ngroups;

	for (unsigned k = 0; k < t->blame->nhunks; k++) {
		struct triage_group *g = NULL;
		int gi = -1;

		if (hk[k].group >= 0 || hk[k].dominant == SIZE_MAX)
			continue;
		for (size_t j = first; j < t->ngroups && !g; j++) {
			const struct hunk *other = &hk[t->groups[j].hunks[0]];
			if (!strcmp(other->cycle, hk[k].cycle)) {
				g = &t->groups[j];
				gi = (int)j;
			}
		}
		if (!g) {
			gi = (int)t->ngroups;
			g = new_group(t);
		}
		add_hunk(g, hk, k, gi);
	}
	for (size_t j = first; j < t->ngroups; j++) {
		struct triage_group *g = &t->groups[j];
		const char *cycle = hk[g->hunks[0]].cycle;
		bool one_cycle = true;

		for (size_t i = 0; i < g->nhunks; i++) {
			const struct hunk *x = &hk[g->hunks[i]];
			for (size_t c = 0; c < x->ncand; c++) {
				char cy[32];
				if (!counts(x, c))
					continue;
				cycle_of(h, t->ev->v[x->cand[c]].first_release, cy, sizeof(cy));
				if (!strcmp(cy, cycle))
					add_intro(g, x->cand[c]);
				else
					one_cycle = false;
			}
		}
		sort_intro(g, t, h);
		g->likelihood = group_likelihood(g, t, h);
		span(g, t, h, hk);
		g->conf = one_cycle ? CONF_LIKELY : CONF_UNCERTAIN;
		if (g->conf > cap)
			g->conf = cap;
	}
}

static bool usable(const struct evidence *e)
{
	return e->commit != PV_NONE && !e->not_ancestor;
}

/*
 * The commits the message names, usable as culprits (culprit[ev]): Fixes:
 * and named culprits; a bare "commit <sha>" mention only without them, and
 * with Cc: stable only one released before the fix ("Commit 1b9508f ... has
 * been confirmed to fix" names a help, not the bug stable kernels have).
 * Returns the kind that decides, EV_BLAME when there is none.
 */
static enum evidence_kind message_culprits(const struct grouping *t, const struct history *h,
					   bool *culprit)
{
	enum evidence_kind kind = EV_BLAME;

	for (size_t i = 0; i < t->ev->nr; i++) {
		const struct evidence *e = &t->ev->v[i];
		if ((e->kind == EV_FIXES || e->kind == EV_NAMED) && usable(e)) {
			culprit[i] = true;
			if (kind == EV_BLAME || e->kind == EV_FIXES)
				kind = e->kind;
		}
	}
	for (size_t i = 0; i < t->ev->nr && kind == EV_BLAME; i++)
		if (t->ev->v[i].kind == EV_MENTION && usable(&t->ev->v[i]) &&
		    (!t->ev->cc_stable || released_before_fix(t, h, i)))
			culprit[i] = true;
	for (size_t i = 0; i < t->ev->nr && kind == EV_BLAME; i++)
		if (culprit[i])
			kind = EV_MENTION;
	return kind;
}

enum evidence_kind origin_message_culprits(const struct origin_input *in, const struct history *h,
					   bool *culprit)
{
	struct grouping work = { in->fix, in->fix_first, in->ev, in->blame, NULL, 0 };

	return message_culprits(&work, h, culprit);
}

/*
 * Hunks the culprits do not own join them unless they rewrite code older
 * than the culprits' release cycle: lines a fix only adds next to old code
 * are part of the same repair (d83c49f3e36c adds dont_mount() calls all
 * over the VFS for its 2.6.34-rc1 regression).
 */
static bool older_cycle(const struct grouping *t, const struct history *h,
			const struct hunk *x, const struct triage_group *g)
{
	uint32_t dom, earliest = PV_NONE;

	if (x->rewritten == SIZE_MAX)
		return false;
	dom = t->ev->v[x->cand[x->rewritten]].first_release;
	for (size_t i = 0; i < g->nintro; i++) {
		uint32_t r = t->ev->v[g->intro[i]].first_release;
		if (r != PV_NONE && (earliest == PV_NONE || tags_cmp_version(&h->tags, r, earliest) < 0))
			earliest = r;
	}
	return dom != PV_NONE && earliest != PV_NONE && cycle_before(h, dom, earliest);
}

static int cmp_likelihood(const void *a, const void *b)
{
	const struct triage_group *x = a, *y = b;
	return x->likelihood != y->likelihood ? (x->likelihood > y->likelihood ? -1 : 1) : 0;
}

/*
 * With Cc: stable, the headline is the likeliest group whose code was
 * released before the fix, if there is one: the part of the fix that
 * explains the developer's claim (the others follow, likeliest first).
 */
static void released_first(struct grouping *t, const struct history *h)
{
	for (size_t i = 0; i < t->ngroups; i++) {
		struct triage_group g = t->groups[i];
		if (!g.nintro || !released_before_fix(t, h, g.intro[0]))
			continue;
		memmove(t->groups + 1, t->groups, i * sizeof(*t->groups));
		t->groups[0] = g;
		t->groups[0].cc_led |= i > 0;
		return;
	}
}

void origin_group(const struct origin_input *in, const struct history *h,
		  enum evidence_mode mode, struct triage_group **groups, size_t *ngroups)
{
	struct grouping work = { in->fix, in->fix_first, in->ev, in->blame, NULL, 0 };
	struct grouping *t = &work;
	bool *culprit = xcalloc(t->ev->nr + 1, 1);
	bool released_only = mode != EVIDENCE_BLAME && t->ev->cc_stable;
	enum evidence_kind tier = EV_BLAME;
	struct hunk *hk;

	if (mode != EVIDENCE_BLAME)
		tier = message_culprits(t, h, culprit);
	hk = scan_hunks(t, h, culprit, released_only);
	if (tier != EV_BLAME) {
		struct triage_group *g = new_group(t);
		bool owns_any = false;

		g->used = tier;
		g->conf = tier == EV_MENTION ? CONF_LIKELY : CONF_CERTAIN;
		for (size_t i = 0; i < t->ev->nr; i++)
			if (culprit[i])
				add_intro(g, i);
		for (unsigned k = 0; k < t->blame->nhunks; k++)
			owns_any |= hk[k].owned;
		for (unsigned k = 0; k < t->blame->nhunks; k++)
			if (!owns_any || hk[k].owned || !older_cycle(t, h, &hk[k], g))
				add_hunk(g, hk, k, 0);
		blame_groups(t, h, hk, CONF_LIKELY);
		if (t->ngroups > 1)
			qsort(t->groups + 1, t->ngroups - 1, sizeof(*t->groups), cmp_likelihood);
	} else if (mode == EVIDENCE_ALL || mode == EVIDENCE_BLAME) {
		/* (with text, the message's; its lines are the triage's to place) */
		blame_groups(t, h, hk, CONF_LIKELY);
		if (t->ngroups > 1)
			qsort(t->groups, t->ngroups, sizeof(*t->groups), cmp_likelihood);
		if (released_only)
			released_first(t, h);
	}
	if (!t->ngroups)
		new_group(t)->conf = CONF_NONE;     /* no introducer: unknown */
	/* hunks without any candidate go with the headline */
	for (unsigned k = 0; k < t->blame->nhunks; k++)
		if (hk[k].group < 0)
			add_hunk(&t->groups[0], hk, k, 0);
	for (unsigned k = 0; k < t->blame->nhunks; k++) {
		free(hk[k].cand);
		free(hk[k].weight);
		free(hk[k].removed);
	}
	free(hk);
	free(culprit);
	*groups = t->groups;
	*ngroups = t->ngroups;
}
