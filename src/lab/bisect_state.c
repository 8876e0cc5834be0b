/*
 * One state of a bisection (bisect_state.h): built and booted as many
 * times as asked, its answer from the guest's checks or the lab's
 * judgement, or recalled from the journal of an interrupted run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <openssl/evp.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/bisect_state.h"
#include "patchver/lab/digest.h"

static void step_done(const struct bisect_run *b, const struct bisect_step *s)
{
	if (b->ev && b->ev->step)
		b->ev->step(b->ev->data, s, b->res.nsteps);
}


int bisect_run_confirm_boots(const struct bisect_run *b)
{
	return b->o->repeat > 3 ? b->o->repeat : 3;
}

const char *bisect_answer_name_of(const struct bisect_run *b, enum bisect_answer v)
{
	return bisect_answer_name(v, b->fix_mode);
}

char *bisect_run_hex12(const struct bisect_run *b, uint32_t c)
{
	return xstrndup(git_oid_tostr_s(&b->h->dag.oids[c]), 12);
}

/* Does this check decide?  (--test names them; default: every check.) */
static bool selected(const struct bisect_run *b, const char *name)
{
	const char *t = b->o->tests;
	size_t len = strlen(name);

	if (!t)
		return true;
	for (const char *p = t; (p = strstr(p, name)); p += len)
		if ((p == t || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/* A boot's answer: 1 the test fails, 0 it passes, -1 cannot tell. */
static int test_result(const struct bisect_run *b, const struct candidate *c, char **why)
{
	const struct serial_report *s = &c->run.boot.serial;
	int found = 0, failed = 0;

	if (c->run.status) {
		*why = xstrdup(c->run.why ? c->run.why : "did not build");
		return -1;
	}
	if (!b->o->tests) {
		/* judged by the lab as --bug says (c->judge is false: the bug, or not) */
		*why = xstrdup(c->run.why);
		return c->run.bug_seen ? 1 : 0;
	}
	for (size_t k = 0; k < s->nchecks; k++) {
		if (!selected(b, s->checks[k].name))
			continue;
		found++;
		if (!s->checks[k].pass && !failed++)
			*why = xstrfmt("%s %s", s->checks[k].name, s->checks[k].err);
	}
	if (!found) {
		*why = xstrdup("the selected checks did not run");
		return -1;
	}
	if (!failed)
		*why = xstrfmt("%d check(s) pass", found);
	return failed ? 1 : 0;
}

/* The answer the journal keeps for key, or -2: none. */
static int recall(const struct bisect_run *b, const char *key)
{
	const struct bisect_journal *j = b->o->journal;

	return j && j->recall ? j->recall(j->data, key) : -2;
}

static void keep(const struct bisect_run *b, const struct bisect_step *s)
{
	const struct bisect_journal *j = b->o->journal;

	if (j && j->keep)
		j->keep(j->data, s);
}

/* A new step of the run, keyed by its commit, patches and boots. */
static struct bisect_step *new_step(struct bisect_run *b, const char *kind, char *label,
				    const git_oid *commit, struct kpatch **patches, size_t np,
				    int repeat)
{
	struct bisect_step *s;

	b->res.steps = xrealloc(b->res.steps, (b->res.nsteps + 1) * sizeof(*b->res.steps));
	s = &b->res.steps[b->res.nsteps++];
	memset(s, 0, sizeof(*s));
	s->label = label;
	s->kind = xstrdup(kind);
	s->fix_phase = b->fix_mode;
	snprintf(s->key, sizeof(s->key), "%s", git_oid_tostr_s(commit));
	for (size_t i = 0; i < np; i++)
		snprintf(s->key + strlen(s->key), sizeof(s->key) - strlen(s->key), "+%.16s",
			 patches[i]->name);
	snprintf(s->key + strlen(s->key), sizeof(s->key) - strlen(s->key), "x%d", repeat);
	return s;
}

/*
 * Boot r of step s: *result 1 the test fails, 0 it passes, -1 cannot
 * tell (s->why says which).  0 or the lab's PV_E* code.
 */
static int boot_once(struct bisect_run *b, struct bisect_step *s, const git_oid *commit,
		     struct kpatch **patches, size_t np, int r, int *result)
{
	struct candidate c = { 0 };
	char *why = NULL;
	int ret;

	c.name = xstrfmt("bisect-%zu-%d", b->res.nsteps, r + 1);
	c.expect.how = &b->lab->bug;
	c.role = xstrdup(s->kind);
	c.commit = *commit;
	c.patches = xmalloc((np ? np : 1) * sizeof(*c.patches));
	memcpy(c.patches, patches, np * sizeof(*patches));
	c.npatches = np;
	if ((ret = lab_run(b->lab, &c, b->res.nsteps - 1, b->res.nsteps)) == 0) {
		*result = test_result(b, &c, &why);
		if (r == 0) {
			s->built = !c.run.cached && !c.run.status;
			s->build_failed = c.run.status == PV_EBUILD;
			s->cached = c.run.cached;
			s->build_seconds = c.run.build_seconds;
			b->res.builds += s->built || s->build_failed;
		}
		if (c.run.log) {
			s->boots++;
			b->res.boots++;
			s->boot_seconds += c.run.boot.seconds;
		}
		free(s->why);
		s->why = why;
	}
	candidate_free(&c);
	return ret;
}

int bisect_test_state(struct bisect_run *b, const char *kind, char *label, const git_oid *commit,
		      struct kpatch **patches, size_t np, int repeat,
		      enum bisect_answer *answer)
{
	struct bisect_step *s = new_step(b, kind, label, commit, patches, np, repeat);
	int ret = 0, fails = 0, passes = 0, logged, result = -1;

	if ((logged = recall(b, s->key)) > -2) {
		s->answer = *answer = (enum bisect_answer)logged;
		s->from_log = true;
		s->why = xstrdup("verdict of the resumed log");
		step_done(b, s);
		return 0;
	}
	/* a boot that cannot tell ends the step: no point booting again */
	for (int r = 0; r < repeat && !ret && (r == 0 || result >= 0); r++)
		if (!(ret = boot_once(b, s, commit, patches, np, r, &result))) {
			fails += result == 1;
			passes += result == 0;
		}
	if (ret)
		return ret;
	s->bad_boots = fails;
	if (fails && passes)
		s->answer = BISECT_FLAKY;
	else if (!fails && !passes)
		s->answer = BISECT_SKIP;
	else
		s->answer = (fails > 0) != b->fix_mode ? BISECT_NEW : BISECT_OLD;
	if (s->answer == BISECT_FLAKY) {
		free(s->why);
		s->why = xstrfmt("flaky: %d of %d boots fail", fails, fails + passes);
	}
	*answer = s->answer;
	step_done(b, s);
	keep(b, s);
	return 0;
}

void bisect_open_journal(struct bisect_run *b)
{
	const char *parts[] = { b->lab->tree.what, b->o->good, b->o->bad, b->o->fix, b->o->tests,
				b->o->series, b->o->commits ? "commits" : "releases",
				b->lab->bug.text, b->lab->kreq.variant };
	const struct bisect_journal *j = b->o->journal;
	EVP_MD_CTX *ctx = digest_new();
	char hex[17], *dir = xstrfmt("%s/bisect", b->lab->cache);

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		digest_str(ctx, parts[i]);
	digest_file(ctx, b->lab->repro.binary);        /* the reproducer decides too */
	digest_hex(ctx, hex, 8);
	mkdir(dir, 0755);
	b->res.log_path = xstrfmt("%s/%s.jsonl", dir, hex);
	free(dir);
	/* --dry-run: the path said, the journal untouched */
	if (j && j->open && !b->o->dry_run)
		j->open(j->data, b->res.log_path, b->o->resume);
}
