/*
 * Build prerequisites: what a fix needs that came after the release it
 * goes to, found from the compiler's first error and the history.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/stable/definer.h"
#include "patchver/lab/builderr.h"
#include "patchver/lab/buildlog.h"
#include "patchver/lab/prereq.h"

static const enum definer_kind definer_of[] = {
	[BUILDERR_IMPLICIT_FUNCTION] = DEFINER_FUNCTION,
	[BUILDERR_UNDECLARED] = DEFINER_IDENTIFIER,
	[BUILDERR_NO_MEMBER] = DEFINER_MEMBER,
	[BUILDERR_UNKNOWN_TYPE] = DEFINER_TYPE,
	[BUILDERR_NO_HEADER] = DEFINER_HEADER,
	[BUILDERR_UNDEFINED_REFERENCE] = DEFINER_FUNCTION,
};

static void add_prereq_line(struct candidate *c, char *line)
{
	size_t n = 0;

	while (c->prereqs && c->prereqs[n])
		n++;
	c->prereqs = xrealloc(c->prereqs, (n + 2) * sizeof(*c->prereqs));
	c->prereqs[n] = line;
	c->prereqs[n + 1] = NULL;
}

/* Apply p before the fix (the last patch). */
static void insert_before_fix(struct candidate *c, struct kpatch *p)
{
	c->patches = xrealloc(c->patches, (c->npatches + 1) * sizeof(*c->patches));
	c->patches[c->npatches] = c->patches[c->npatches - 1];
	c->patches[c->npatches - 1] = p;
	c->npatches++;
}

static bool applied(const struct candidate *c, const char *name)
{
	for (size_t i = 0; i < c->npatches; i++)
		if (!strcmp(c->patches[i]->name, name))
			return true;
	return false;
}

/*
 * What the build lacks, found: the file of the fix's parent that defines
 * the missing name, then the commit of release..fix^ that brought it there.
 * 0 with *found set, or a reason in *why (the caller frees).
 */
static int find_prereq(const struct prereq_search *s, const struct candidate *c,
		       const struct builderr *e, git_oid *found, char **why)
{
	struct dag *dag = &s->h->dag;
	unsigned np;
	const uint32_t *par = dag_parents(dag, s->fix, &np);
	size_t work = strlen(s->lab->tree.work);
	/* the compiler names the work tree's file: the tree's own path is looked at first */
	const char *file = !strncmp(e->file, s->lab->tree.work, work) && e->file[work] == '/' ?
			   e->file + work + 1 : e->file;
	char fix[13];
	struct definer_query q = { definer_of[e->kind], e->name, e->container, file };
	char *path = NULL;

	git_oid_tostr(fix, sizeof(fix), &dag->oids[s->fix]);
	if (e->kind == BUILDERR_NONE || e->kind == BUILDERR_OTHER || !*e->name) {
		*why = xstrfmt("the first error names nothing to look for: %s",
			       *e->text ? e->text : "no error in the log");
		return PV_ENOTFOUND;
	}
	if (!np || !(path = definer_file(s->lab->tree.repo, &dag->trees[par[0]], &q))) {
		*why = xstrfmt("%s (%s) is defined nowhere in %s's parent", e->name,
			       builderr_kind_name(e->kind), fix);
		return PV_ENOTFOUND;
	}
	if (definer_commit(dag, &c->commit, &dag->oids[par[0]], path, &q, found)) {
		*why = xstrfmt("%s is defined in %s, and no commit between %.*s and %s brought it "
			       "there", e->name, path, (int)strcspn(c->name, "+"), c->name, fix);
		free(path);
		return PV_ENOTFOUND;
	}
	free(path);
	return 0;
}

static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int prereq_find(const struct prereq_search *s, struct candidate *c, size_t i, size_t n)
{
	int ret = 0;

	for (int round = 0; !ret && c->run.status == PV_EBUILD; round++) {
		struct builderr e;
		char *why = NULL, *subject, hex[13], *old_why;
		double start = seconds_now();
		struct kpatch *p;
		git_oid found;
		uint32_t idx;

		if ((ret = buildlog_first_error(s->lab, c, &e)))
			break;
		if (round == s->rounds) {
			why = xstrfmt("still does not build with %d build prerequisites; next missing: "
				      "%s (%s)", round, *e.name ? e.name : e.text,
				      builderr_kind_name(e.kind));
		} else if (find_prereq(s, c, &e, &found, &why) == 0) {
			git_oid_tostr(hex, sizeof(hex), &found);
			if (applied(c, hex))
				why = xstrfmt("still fails on %s (%s) with %s applied", e.name,
					      builderr_kind_name(e.kind), hex);
		}
		if (why) {
			old_why = c->run.why;
			c->run.why = xstrfmt("%s; build prerequisites: %s", old_why ? old_why : "build failed",
					 why);
			free(old_why);
			free(why);
			break;
		}
		if (!(p = s->patch_of(s->data, &found, &ret)))
			break;
		idx = dag_find(&s->h->dag, &found);
		subject = history_subject(s->h, idx);
		add_prereq_line(c, xstrfmt("%s %s (defines %s)", hex, subject, e.name));
		free(subject);
		lab_progress(s->lab, "%s: needs %s (defines %s), found in %.1fs: build again", c->name,
			     hex, e.name, seconds_now() - start);
		c->prereq_seconds += seconds_now() - start;
		insert_before_fix(c, p);
		candidate_reset(c);
		if ((ret = lab_run(s->lab, c, i, n)))
			break;
		if (c->run.status == PV_EPATCH && !strcmp(c->run.failed_patch, hex)) {
			free(c->run.why);
			c->run.why = xstrfmt("build prerequisite %s (defines %s) does not apply to %s",
					 hex, e.name, c->name);
		}
	}
	return ret;
}
