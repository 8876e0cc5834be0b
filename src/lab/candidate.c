/*
 * A candidate (candidate.h): its patches and expectation, the judgement
 * of its boot, and forgetting a run of it.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/candidate.h"
#include "patchver/lab/ktree.h"

int kpatch_from_file(struct kpatch *p, const char *path)
{
	const char *slash = strrchr(path, '/');

	memset(p, 0, sizeof(*p));
	p->name = xstrdup(slash ? slash + 1 : path);
	return ktree_diff_file(&p->diff, path);
}

void kpatch_free(struct kpatch *p)
{
	git_diff_free(p->diff);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

int expectation_parse(struct expectation *e, const char *text, const struct bug_spec *dflt,
		      struct bug_spec **own)
{
	int ret;

	*own = NULL;
	e->bug = strcmp(text, "pass") != 0;
	e->how = dflt;
	if (!strcmp(text, "pass") || !strcmp(text, "bug"))
		return 0;
	*own = xcalloc(1, sizeof(**own));
	if ((ret = oracle_parse(*own, text))) {
		free(*own);
		*own = NULL;
		return ret;
	}
	e->how = *own;
	return 0;
}


void candidate_judge(struct candidate *c)
{
	const struct serial_report *s = &c->run.boot.serial;
	const struct bug_spec *how = c->expect.how;
	char *detail = NULL;

	c->run.answer = oracle_judge(how, s, c->run.boot.timed_out, &detail);
	if (c->run.answer == ANSWER_SKIP) {
		c->run.status = PV_EBOOT;
		c->run.why = detail;
		return;
	}
	c->run.bug_seen = c->run.answer == ANSWER_BUG;
	if (!c->judge) {
		c->run.ok = true;
		c->run.why = xstrfmt("%s: %s", c->run.bug_seen ? "the bug shows" : "no bug",
				 detail);
	} else if (c->expect.bug) {
		c->run.ok = c->run.bug_seen;
		c->run.why = !c->run.ok ? xstrfmt("expected the bug (%s): %s", how->text, detail) :
			 how->kind == BUG_CHECK ? xstrdup(detail) : xstrfmt("the bug shows: %s", detail);
	} else if (how->kind == BUG_CHECK) {
		/* a multi-check reproducer: fixed means every check passes */
		c->run.ok = !c->run.bug_seen && s->fail == 0 && s->pass > 0;
		c->run.why = c->run.ok ? xstrfmt("all %d checks pass", s->pass) :
			 c->run.bug_seen ? xstrdup(detail) : xstrfmt("%d check(s) fail", s->fail);
	} else {
		c->run.ok = !c->run.bug_seen;
		c->run.why = c->run.ok ? xstrfmt("no bug: %s", detail) : xstrfmt("the bug still shows: %s",
									 detail);
	}
	free(detail);
}

static void run_free(struct candidate_run *r)
{
	for (size_t i = 0; i < r->ncompat; i++)
		free(r->compat[i]);
	free(r->compat);
	strv_free(r->make_vars);
	free(r->make_flags);
	free(r->guest_cc);
	strv_free(r->qemu_args);
	free(r->state);
	free(r->failed_patch);
	free(r->image);
	free(r->build_log);
	free(r->log);
	free(r->record);
	free(r->why);
	strv_free(r->unstuck);
	strv_free(r->unbuilt);
	boot_result_free(&r->boot);
}

void candidate_reset(struct candidate *c)
{
	run_free(&c->run);
	c->run = (struct candidate_run){ 0 };
}

void candidate_free(struct candidate *c)
{
	candidate_reset(c);
	free(c->object_log);
	free(c->name);
	free(c->role);
	free(c->models);
	free(c->patches);
	strv_free(c->prereqs);
	if (c->own_bug)
		oracle_free(c->own_bug);
	free(c->own_bug);
	memset(c, 0, sizeof(*c));
}
