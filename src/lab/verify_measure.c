/*
 * --verify-boot --measure (verify_measure.h): where the bug shows, by boot,
 * beside the text's releases.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/verify_candidates.h"
#include "patchver/lab/verify_measure.h"

static bool planned_tag(const struct verify *v, uint32_t tag)
{
	for (size_t i = 0; i < v->npairs; i++)
		if (v->pairs[i].tag == tag)
			return true;
	return false;
}

uint32_t verify_text_culprit(const struct verify *v, uint32_t *release)
{
	return triage_introducer(&v->t, v->h, release);
}

static int seen_of(const struct candidate *c)
{
	return c->run.status || !c->run.log ? -1 : c->run.bug_seen;
}

/* The measured first release, when the plan did not boot it: it, and it with the fix. */
static int add_measured_pair(struct verify *v)
{
	const struct triage_group *g = &v->t.groups[0];
	size_t first = v->n;
	int ret = 0;

	if (v->m.first_commit == PV_NONE || planned_tag(v, v->m.first))
		return 0;
	/* booted now: no longer left out */
	for (size_t i = 0; i < v->nleft_out; i++)
		if (!strcmp(v->left_out[i], verify_tag_name(v, v->m.first))) {
			free(v->left_out[i]);
			memmove(&v->left_out[i], &v->left_out[i + 1],
				(v->nleft_out - i - 1) * sizeof(*v->left_out));
			v->nleft_out--;
			break;
		}
	for (size_t i = 0; i < g->naffected; i++)
		if (g->affected[i] == v->m.first && !(ret = verify_add_pair(v, v->m.first, &g->fits[i],
									      v->fix_patch, PLAN_FIRST))) {
			free(v->c[first].role);
			v->c[first].role = xstrdup("measured first affected release: the bug must show");
			free(v->c[first + 1].role);
			v->c[first + 1].role = xstrdup("measured first affected release, fix applied: "
						       "must pass");
		}
	for (size_t i = first; !ret && i < v->n; i++)
		ret = verify_run_candidate(v, i);
	return ret;
}

int verify_measure(struct verify *v)
{
	struct measure_state *st = xcalloc(v->npairs + 1, sizeof(*st));
	struct measure_input in = { st, v->npairs, -1, PV_NONE, PV_NONE, PV_NONE, v->o->measure,
				   v->o->measure_ask };
	int ret;

	/* mainline releases draw the line: a stable tag is on a branch of its own */
	for (size_t i = 0; i < v->npairs; i++) {
		st[i].tag = v->pairs[i].tag;
		st[i].seen = kver_is_stable(&v->h->tags.v[st[i].tag].ver) ? -1 :
			     seen_of(&v->c[v->pairs[i].c]);
	}
	if (v->control != SIZE_MAX) {
		in.control_seen = seen_of(&v->c[v->control]);
		in.control_tag = v->control_tag;
	}
	in.culprit = verify_text_culprit(v, &in.culprit_release);
	ret = measure_run(v->h, &v->lab, &in, &v->m);
	v->measured = true;
	free(st);
	if (!ret)
		ret = add_measured_pair(v);
	/* the text's releases the boots put outside: listed, not held against the fix */
	for (size_t i = 0; !ret && i < v->npairs; i++) {
		struct candidate *c = &v->c[v->pairs[i].c];
		/* a release that did not run is outside too when the measured range excludes it */
		c->run.outside = !kver_is_stable(&v->h->tags.v[v->pairs[i].tag].ver) &&
			     !measure_covers(v->h, &v->m, v->pairs[i].tag) && seen_of(c) != 1;
		/* and the fix on a release without the bug proves nothing either way */
		c[1].run.outside = c->run.outside;
	}
	return ret;
}

void verify_measure_bound(const struct verify *v, struct verify_result *r)
{
	const struct triage_group *g = &v->t.groups[0];
	size_t gap = 0, run = 0;

	for (size_t i = 0; v->have_triage && i < g->naffected; i++) {
		if (kver_is_stable(&v->h->tags.v[g->affected[i]].ver))
			continue;
		if (planned_tag(v, g->affected[i]))
			run = 0;
		else if (++run > gap)
			gap = run;
	}
	r->measure_gap = gap;
	r->measure_builds = 0;
	while (gap && (1u << r->measure_builds) < gap)
		r->measure_builds++;
	r->measure_builds += gap ? 2 : 0;
}
