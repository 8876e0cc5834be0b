/*
 * --bisect-boot: bisection by booting kernels in the lab.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <openssl/evp.h>

#include "patchver/lab/bisect.h"
#include "patchver/lab/bisect_boot.h"
#include "patchver/lab/digest.h"
#include "patchver/engine/contain.h"
#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/lab/lab.h"
#include "patchver/base/proc.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/triage.h"
#include "patchver/base/util.h"

struct step {
	char *label, *kind;
	char key[80];
	int verdict;                /* enum bisect_verdict, or -1: flaky */
	int boots, bad_boots;
	bool built, build_failed, cached, from_log;
	double build_seconds, boot_seconds;
	char *why;
};

/* One search's answer: a range of releases or commits. */
struct finding {
	bool done, ambiguous, confirmed;
	uint32_t last_old_tag, first_new_tag;         /* PV_NONE: none */
	uint32_t last_old, first_new;                 /* commits (DAG) */
	uint32_t commit;                              /* the commit found, PV_NONE if none */
	uint32_t *candidates;                         /* ambiguous: any of these */
	size_t ncandidates;
	int confirm_new, confirm_old, confirm_n;      /* boots that agreed, of confirm_n */
	char *confirm_why;
};

struct bb {
	struct history *h;
	const struct bisect_opts *o;
	struct lab lab;
	struct lab_opts lab_opts;
	bool fix_mode;              /* "new" = passing */
	struct step *steps;
	size_t nsteps;
	FILE *log;
	char *log_path;
	char **known;               /* --resume: "key verdict" lines */
	size_t nknown;
	int builds, boots;
	struct finding reg, fix;
	time_t start;
};

static const char *verdict_name(const struct bb *b, int v)
{
	if (v < 0)
		return "flaky";
	if (v == BISECT_SKIP)
		return "skip";
	if (v == BISECT_NEW)
		return b->fix_mode ? "good (fixed)" : "bad";
	return b->fix_mode ? "bad (not fixed)" : "good";
}

static char *hex12(const struct bb *b, uint32_t c)
{
	return xstrndup(git_oid_tostr_s(&b->h->dag.oids[c]), 12);
}

/* Does this check decide?  (--test names them; default: every check.) */
static bool selected(const struct bb *b, const char *name)
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
static int test_result(const struct bb *b, const struct candidate *c, char **why)
{
	const struct serial_report *s = &c->boot.serial;
	int found = 0, failed = 0;

	if (c->status) {
		*why = xstrdup(c->why ? c->why : "did not build");
		return -1;
	}
	if (!b->o->tests) {
		/* judged by the lab as --bug says (c->judge is false: the bug, or not) */
		*why = xstrdup(c->why);
		return c->bug_seen ? 1 : 0;
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

static int lookup_log(const struct bb *b, const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < b->nknown; i++)
		if (!strncmp(b->known[i], key, len) && b->known[i][len] == ' ')
			return atoi(b->known[i] + len + 1);
	return -2;
}

static void log_step(struct bb *b, const struct step *s)
{
	struct json j;

	if (!b->log)
		return;
	json_init(&j, b->log);
	json_obj_begin(&j);
	json_kstr(&j, "key", s->key);
	json_kint(&j, "verdict", s->verdict);
	json_kstr(&j, "label", s->label);
	json_kstr(&j, "kind", s->kind);
	json_kint(&j, "boots", s->boots);
	json_kint(&j, "failing_boots", s->bad_boots);
	json_kstr(&j, "why", s->why);
	json_obj_end(&j);
	fputc('\n', b->log);
	fflush(b->log);
}

static void print_step(const struct bb *b, const struct step *s)
{
	char build[24] = "-", boot[24] = "-";

	if (b->o->json)
		return;
	if (s->from_log)
		snprintf(build, sizeof(build), "from log");
	else if (s->cached)
		snprintf(build, sizeof(build), "cached");
	else if (s->build_failed)
		snprintf(build, sizeof(build), "FAILED %.0fs", s->build_seconds);
	else if (s->built)
		snprintf(build, sizeof(build), "built %.0fs", s->build_seconds);
	if (s->boots)
		snprintf(boot, sizeof(boot), "%dx %.1fs", s->boots, s->boot_seconds);
	printf("step %-3zu %-8s %-34.34s %-10s %-10s %-16s %s\n", b->nsteps, s->kind, s->label,
	       build, boot, verdict_name(b, s->verdict), s->why ? s->why : "");
	fflush(stdout);
}

/*
 * Build and boot a state `repeat` times; its verdict is the boots'
 * answer when they agree, "flaky" when they do not, "skip" when none can
 * tell.
 */
static int test_state(struct bb *b, const char *kind, char *label, const git_oid *commit,
		      struct kpatch **patches, size_t np, int repeat, int *verdict)
{
	struct step *s;
	int ret = 0, fails = 0, passes = 0, logged;

	b->steps = xrealloc(b->steps, (b->nsteps + 1) * sizeof(*b->steps));
	s = &b->steps[b->nsteps++];
	memset(s, 0, sizeof(*s));
	s->label = label;
	s->kind = xstrdup(kind);
	snprintf(s->key, sizeof(s->key), "%s", git_oid_tostr_s(commit));
	for (size_t i = 0; i < np; i++)
		snprintf(s->key + strlen(s->key), sizeof(s->key) - strlen(s->key), "+%.16s",
			 patches[i]->name);
	snprintf(s->key + strlen(s->key), sizeof(s->key) - strlen(s->key), "x%d", repeat);
	if ((logged = lookup_log(b, s->key)) > -2) {
		s->verdict = *verdict = logged;
		s->from_log = true;
		s->why = xstrdup("verdict of the resumed log");
		print_step(b, s);
		return 0;
	}
	for (int r = 0; r < repeat && !ret; r++) {
		struct candidate c = { 0 };
		char *why = NULL;
		int res;

		c.name = xstrfmt("bisect-%zu-%d", b->nsteps, r + 1);
		c.expect.how = &b->lab.bug;
		c.role = xstrdup(kind);
		c.commit = *commit;
		c.patches = xmalloc((np ? np : 1) * sizeof(*c.patches));
		memcpy(c.patches, patches, np * sizeof(*patches));
		c.npatches = np;
		if ((ret = lab_run(&b->lab, &c, b->nsteps - 1, b->nsteps)) == 0) {
			res = test_result(b, &c, &why);
			if (r == 0) {
				s->built = !c.cached && !c.status;
				s->build_failed = c.status == EXIT_BUILD;
				s->cached = c.cached;
				s->build_seconds = c.build_seconds;
				b->builds += s->built || s->build_failed;
			}
			if (c.log) {
				s->boots++;
				b->boots++;
				s->boot_seconds += c.boot.seconds;
			}
			fails += res == 1;
			passes += res == 0;
			free(s->why);
			s->why = why;
			if (res < 0)
				r = repeat;   /* cannot tell: no point booting again */
		}
		candidate_free(&c);
	}
	if (ret)
		return ret;
	s->bad_boots = fails;
	if (fails && passes)
		s->verdict = -1;
	else if (!fails && !passes)
		s->verdict = BISECT_SKIP;
	else
		s->verdict = (fails > 0) != b->fix_mode ? BISECT_NEW : BISECT_OLD;
	if (s->verdict == -1) {
		free(s->why);
		s->why = xstrfmt("flaky: %d of %d boots fail", fails, fails + passes);
	}
	*verdict = s->verdict;
	print_step(b, s);
	log_step(b, s);
	return 0;
}

/* --- the two stages: releases, then commits */

struct search {
	struct bb *b;
	const char *kind;
	uint32_t *items;            /* tags (releases) or commits */
	bool tags;
};

static uint32_t item_commit(const struct search *s, size_t i)
{
	return s->tags ? s->b->h->tags.v[s->items[i]].commit : s->items[i];
}

static int oracle(void *ctx, size_t i, enum bisect_verdict *out)
{
	struct search *s = ctx;
	struct bb *b = s->b;
	uint32_t c = item_commit(s, i);
	char *label;
	int v, ret;

	if (s->tags) {
		label = xstrdup(b->h->tags.v[s->items[i]].shortname);
	} else {
		char *hex = hex12(b, c), *subject = history_subject(b->h, c);
		label = xstrfmt("%s %s", hex, subject);
		free(hex);
		free(subject);
	}
	ret = test_state(b, s->kind, label, &b->h->dag.oids[c], NULL, 0,
			 b->o->repeat, &v);
	/* a flaky state cannot decide a step: step around it */
	*out = v < 0 ? BISECT_SKIP : (enum bisect_verdict)v;
	return ret;
}

static void set_candidates(struct finding *f, const struct search *s, size_t lo, size_t hi)
{
	f->ncandidates = hi - lo + 1;
	f->candidates = xmalloc(f->ncandidates * sizeof(*f->candidates));
	for (size_t k = lo; k <= hi; k++)
		f->candidates[k - lo] = item_commit(s, k);
}

/* Stage 1: releases after old up to new (both tags). */
static int search_releases(struct bb *b, struct finding *f, uint32_t old, uint32_t new)
{
	struct search s = { b, "release", NULL, true };
	struct bisect_result r;
	size_t n;
	int ret;

	s.items = bisect_releases(&b->h->tags, old, new, b->o->series, &n);
	if (!n) {
		free(s.items);
		return error(EXIT_USAGE, "no release between %s and %s to bisect",
			     b->h->tags.v[old].shortname, b->h->tags.v[new].shortname);
	}
	if (!b->o->json)
		printf("bisect: %zu release(s) after %s up to %s, %s\n", n,
		       b->h->tags.v[old].shortname, b->h->tags.v[new].shortname,
		       b->fix_mode ? "looking for the first that passes" :
		       "looking for the first that fails");
	ret = bisect_search(n, oracle, &s, &r);
	if (!ret) {
		f->first_new_tag = s.items[r.first_new];
		f->first_new = b->h->tags.v[f->first_new_tag].commit;
		f->last_old_tag = r.lo ? s.items[r.lo - 1] : old;
		f->last_old = b->h->tags.v[f->last_old_tag].commit;
		f->ambiguous = r.ambiguous;
		if (r.ambiguous)
			set_candidates(f, &s, r.lo, r.first_new);
		f->done = true;
	}
	free(s.items);
	return ret;
}

static int commit_oracle(void *ctx, uint32_t c, enum bisect_verdict *out)
{
	struct search s = { ctx, "commit", &c, false };
	return oracle(&s, 0, out);
}

static void commit_stage(void *ctx, size_t n, bool merged)
{
	struct bb *b = ctx;

	if (!b->o->json)
		printf("bisect: %zu commit(s)%s, first parent first\n", n,
		       merged ? " merged by the blamed merge" : "");
}

/* Stage 2: the commits between the last old and the first new state. */
static int search_commits(struct bb *b, struct finding *f)
{
	struct bisect_commits_result r;
	int ret = bisect_commits(&b->h->dag, f->last_old, f->first_new, commit_oracle, b,
				 commit_stage, &r);

	if (!ret) {
		f->commit = r.commit;
		f->ambiguous = r.ambiguous;
		f->candidates = r.candidates;
		f->ncandidates = r.ncandidates;
	} else {
		free(r.candidates);
	}
	return ret;
}

/* A tag's name, or a commit's short id when there is no tag. */
static const char *state_name(const struct bb *b, uint32_t tag, uint32_t commit, char hex[13])
{
	if (tag != PV_NONE)
		return b->h->tags.v[tag].shortname;
	return git_oid_tostr(hex, 13, &b->h->dag.oids[commit]);
}

/* The reverse of a commit's change, to take it out of a later tree. */
static struct kpatch *revert_of(struct bb *b, uint32_t c)
{
	struct kpatch *p = xcalloc(1, sizeof(*p));
	git_commit *commit = NULL, *parent = NULL;
	git_tree *new = NULL, *old = NULL;
	git_repository *repo = b->lab.tree.repo;

	p->name = xstrfmt("revert-%.12s", git_oid_tostr_s(&b->h->dag.oids[c]));
	if (git_commit_lookup(&commit, repo, &b->h->dag.oids[c]) < 0 ||
	    git_commit_tree(&new, commit) < 0 || git_commit_parent(&parent, commit, 0) < 0 ||
	    git_commit_tree(&old, parent) < 0 ||
	    git_diff_tree_to_tree(&p->diff, repo, new, old, NULL) < 0) {
		free(p->name);
		free(p);
		p = NULL;
	}
	git_error_clear();
	git_tree_free(new);
	git_tree_free(old);
	git_commit_free(parent);
	git_commit_free(commit);
	return p;
}

/*
 * Trust the answer only if it repeats: the state found must be new in
 * every one of n boots, and the first new release with the culprit
 * reverted (or, for releases only, the last old release) old in every one.
 */
static int confirm(struct bb *b, struct finding *f)
{
	int n = b->o->repeat > 3 ? b->o->repeat : 3, v, ret;
	uint32_t at = f->commit != PV_NONE ? f->commit : f->first_new;
	struct kpatch *rev = f->commit != PV_NONE ? revert_of(b, f->commit) : NULL;
	char *hex = hex12(b, at), buf[13];

	f->confirm_n = n;
	ret = test_state(b, "confirm", xstrfmt("%s (%dx)", f->commit != PV_NONE ? hex :
			 state_name(b, f->first_new_tag, f->first_new, buf), n), &b->h->dag.oids[at],
			 NULL, 0, n, &v);
	if (ret)
		goto out;
	f->confirm_new = v == BISECT_NEW ? n : 0;
	if (f->commit != PV_NONE && !rev) {
		f->confirm_why = xstrdup("cannot compute the revert");
		goto out;
	}
	if (f->commit != PV_NONE)
		ret = test_state(b, "confirm", xstrfmt("%s - %s (%dx)", state_name(b, f->first_new_tag,
				 f->first_new, buf), hex, n), &b->h->dag.oids[f->first_new], &rev, 1, n, &v);
	else
		ret = test_state(b, "confirm", xstrfmt("%s (%dx)",
				 state_name(b, f->last_old_tag, f->last_old, buf), n),
				 &b->h->dag.oids[f->last_old], NULL, 0, n, &v);
	if (ret)
		goto out;
	f->confirm_old = v == BISECT_OLD ? n : 0;
	f->confirmed = f->confirm_new == n && f->confirm_old == n;
	if (!f->confirmed)
		f->confirm_why = xstrfmt("%s", b->steps[b->nsteps - 1].why ? b->steps[b->nsteps - 1].why :
				     "the confirmation boots disagree");
out:
	if (rev) {
		kpatch_free(rev);
		free(rev);
	}
	free(hex);
	return ret;
}

/* --- revs, the window, the triage's view, reports */

/* A rev: its commit, and the release tag it names (PV_NONE: not a tag). */
static int resolve(struct bb *b, const char *spec, uint32_t *commit, uint32_t *tag)
{
	struct rev rev;
	int ret = rev_resolve(&rev, b->h->repo, &b->h->dag, spec);

	*tag = PV_NONE;
	if (ret)
		return ret;
	*commit = rev.commit;
	for (size_t i = 0; i < b->h->tags.nr; i++)
		if (b->h->tags.v[i].release && !strcmp(b->h->tags.v[i].shortname, spec))
			*tag = (uint32_t)i;
	return 0;
}

/*
 * Both ends must answer as claimed, or the search finds nothing real
 * (the fix phase's old end, the first bad release, is known already).
 */
static int check_ends(struct bb *b, struct finding *f)
{
	char buf[13];
	int v, ret;

	if (!b->fix_mode) {
		if ((ret = test_state(b, "end", xstrdup(state_name(b, f->last_old_tag, f->last_old, buf)),
				      &b->h->dag.oids[f->last_old], NULL, 0, b->o->repeat, &v)))
			return ret;
		if (v != BISECT_OLD)
			return error(EXIT_NOT_CONFIRMED, "--good %s: the test does not pass there (%s)",
				     b->o->good, verdict_name(b, v));
	}
	if ((ret = test_state(b, "end", xstrdup(state_name(b, f->first_new_tag, f->first_new, buf)),
			      &b->h->dag.oids[f->first_new], NULL, 0, b->o->repeat, &v)))
		return ret;
	if (v != BISECT_NEW)
		return error(EXIT_NOT_CONFIRMED, "%s %s: the test %s there (%s)",
			     b->fix_mode ? "--fix" : "--bad", b->fix_mode ? b->o->fix : b->o->bad,
			     b->fix_mode ? "does not pass" : "does not fail", verdict_name(b, v));
	return 0;
}

/* Stage 1 (when both ends are releases), stage 2 (--commits), confirmation. */
static int find(struct bb *b, struct finding *f, uint32_t old, uint32_t old_tag,
		uint32_t new, uint32_t new_tag)
{
	int ret = 0;

	f->commit = PV_NONE;
	f->last_old = old;
	f->last_old_tag = old_tag;
	f->first_new = new;
	f->first_new_tag = new_tag;
	if ((ret = check_ends(b, f)))
		return ret;
	if (old_tag != PV_NONE && new_tag != PV_NONE)
		ret = search_releases(b, f, old_tag, new_tag);
	else if (!b->o->commits)
		return error(EXIT_USAGE, "--good and --bad are not both release tags: "
			     "bisect their commits with --commits");
	if (!ret && !f->ambiguous && b->o->commits)
		ret = search_commits(b, f);
	f->done = true;
	if (!ret && !f->ambiguous)
		ret = confirm(b, f);
	return ret;
}

/* Mainline releases from the first bad up to the last not fixed: proven by boots. */
static uint32_t *window(const struct bb *b, size_t *n)
{
	const struct tag_table *t = &b->h->tags;
	uint32_t *out = xmalloc((t->nreleases + 1) * sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < t->nreleases; i++) {
		uint32_t r = t->releases[i];
		if (kver_is_stable(&t->v[r].ver) ||
		    tags_cmp_version(t, r, b->reg.first_new_tag) < 0 ||
		    tags_cmp_version(t, r, b->fix.first_new_tag) >= 0)
			continue;
		out[(*n)++] = r;
	}
	return out;
}

struct triage_view {
	bool have;
	uint32_t *affected;         /* mainline only, as the window */
	size_t naffected;
	bool names_culprit;         /* its evidence names the boot-bisected commit */
};

static void triage_view(struct bb *b, struct triage_view *tv)
{
	struct contain c;
	struct triage t;

	memset(tv, 0, sizeof(*tv));
	if (b->fix.commit == PV_NONE)
		return;
	history_load_branches(b->h);
	contain_init(&c, b->h);
	if (triage_run(&t, b->h, &c, b->fix.commit, NULL, EVIDENCE_ALL) == 0) {
		tv->have = true;
		tv->affected = xmalloc((t.groups[0].naffected + 1) * sizeof(*tv->affected));
		for (size_t i = 0; i < t.groups[0].naffected; i++)
			if (!kver_is_stable(&b->h->tags.v[t.groups[0].affected[i]].ver))
				tv->affected[tv->naffected++] = t.groups[0].affected[i];
		for (size_t i = 0; i < t.ev.nr; i++)
			tv->names_culprit = tv->names_culprit || t.ev.v[i].commit == b->reg.commit;
		triage_free(&t);
	}
	contain_free(&c);
}

static bool same_set(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void print_tags(const struct bb *b, const char *what, const uint32_t *v, size_t n)
{
	printf("%-20s", what);
	for (size_t i = 0; i < n; i++)
		printf(" %s", b->h->tags.v[v[i]].shortname);
	printf("%s\n", n ? "" : " none");
}

static void print_finding(const struct bb *b, const char *what, const struct finding *f,
			  bool fix)
{
	char buf[13], buf2[13];

	printf("%-20s last %s %s, first %s %s%s\n", what, fix ? "failing" : "good",
	       state_name(b, f->last_old_tag, f->last_old, buf), fix ? "passing" : "bad",
	       state_name(b, f->first_new_tag, f->first_new, buf2),
	       f->ambiguous && f->commit == PV_NONE ? " (skipped releases hide it)" : "");
	if (f->ambiguous) {
		printf("%-20s could be any of:", "");
		for (size_t i = 0; i < f->ncandidates; i++)
			printf(" %.12s", git_oid_tostr_s(&b->h->dag.oids[f->candidates[i]]));
		printf(" (builds or boots failed in between)\n");
	} else if (f->commit != PV_NONE) {
		char *subject = history_subject(b->h, f->commit);
		printf("%-20s %.12s %s (%s, boot-bisected)\n", "", git_oid_tostr_s(&b->h->dag.oids[f->commit]),
		       subject, fix ? "fixed by" : "introduced by");
		free(subject);
	}
	if (f->confirm_n)
		printf("%-20s confirmed: %s in %d/%d boots, %s in %d/%d%s%s\n", "",
		       fix ? "passes" : "fails", f->confirm_new, f->confirm_n,
		       f->commit != PV_NONE ? "reverted" : "the release before",
		       f->confirm_old, f->confirm_n, f->confirmed ? "" : ": NOT CONFIRMED, ",
		       f->confirmed ? "" : (f->confirm_why ? f->confirm_why : ""));
}

static void print_text(struct bb *b, const uint32_t *win, size_t nwin, const struct triage_view *tv)
{
	printf("\n");
	print_finding(b, "regression:", &b->reg, false);
	if (b->fix.done) {
		print_finding(b, "fix:", &b->fix, true);
		print_tags(b, "affected (boots):", win, nwin);
	}
	if (tv->have) {
		print_tags(b, "affected (triage):", tv->affected, tv->naffected);
		printf("%-20s %s\n", "", same_set(win, nwin, tv->affected, tv->naffected) ?
		       "the boots and the triage agree" : "the boots and the triage DISAGREE");
		if (b->reg.commit != PV_NONE)
			printf("%-20s the triage's evidence %s %.12s\n", "", tv->names_culprit ?
			       "names" : "does NOT name",
			       git_oid_tostr_s(&b->h->dag.oids[b->reg.commit]));
	}
	printf("%-20s %zu steps, %d builds, %d boots, %lds; log %s\n", "work:", b->nsteps,
	       b->builds, b->boots, (long)(time(NULL) - b->start), b->log_path);
}

static void json_finding(struct json *j, const struct bb *b, const char *key,
			 const struct finding *f)
{
	char hex[GIT_OID_HEXSZ + 1];

	json_key(j, key);
	if (!f->done) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kstr(j, "last_old", f->last_old_tag != PV_NONE ? b->h->tags.v[f->last_old_tag].shortname : NULL);
	json_kstr(j, "first_new", f->first_new_tag != PV_NONE ? b->h->tags.v[f->first_new_tag].shortname : NULL);
	json_kstr(j, "commit", f->commit == PV_NONE ? NULL :
		  git_oid_tostr(hex, sizeof(hex), &b->h->dag.oids[f->commit]));
	json_kbool(j, "ambiguous", f->ambiguous);
	json_key(j, "candidates");
	json_arr_begin(j);
	for (size_t i = 0; i < f->ncandidates; i++)
		json_str(j, git_oid_tostr(hex, sizeof(hex), &b->h->dag.oids[f->candidates[i]]));
	json_arr_end(j);
	json_kint(j, "confirm_boots", f->confirm_n);
	json_kint(j, "confirm_new", f->confirm_new);
	json_kint(j, "confirm_old", f->confirm_old);
	json_kbool(j, "confirmed", f->confirmed);
	json_obj_end(j);
}

static void json_tags(struct json *j, const struct bb *b, const char *key, const uint32_t *v,
		      size_t n)
{
	json_key(j, key);
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++)
		json_str(j, b->h->tags.v[v[i]].shortname);
	json_arr_end(j);
}

static void print_json(struct bb *b, const uint32_t *win, size_t nwin, const struct triage_view *tv)
{
	struct json j;

	json_init(&j, stdout);
	json_obj_begin(&j);
	json_kint(&j, "schema_version", 1);
	json_key(&j, "bisect_boot");
	json_obj_begin(&j);
	json_key(&j, "steps");
	json_arr_begin(&j);
	for (size_t i = 0; i < b->nsteps; i++) {
		const struct step *s = &b->steps[i];
		json_obj_begin(&j);
		json_kstr(&j, "kind", s->kind);
		json_kstr(&j, "label", s->label);
		json_kstr(&j, "verdict", s->verdict < 0 ? "flaky" : s->verdict == BISECT_SKIP ? "skip" :
			  s->verdict == BISECT_NEW ? "new" : "old");
		json_kbool(&j, "built", s->built);
		json_kbool(&j, "from_log", s->from_log);
		json_kint(&j, "build_milliseconds", (int64_t)(s->build_seconds * 1000));
		json_kint(&j, "boots", s->boots);
		json_kint(&j, "failing_boots", s->bad_boots);
		json_kint(&j, "boot_milliseconds", (int64_t)(s->boot_seconds * 1000));
		json_kstr(&j, "why", s->why);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_finding(&j, b, "regression", &b->reg);
	json_finding(&j, b, "fix", &b->fix);
	if (b->fix.done)
		json_tags(&j, b, "affected_by_boots", win, nwin);
	if (tv->have) {
		json_tags(&j, b, "affected_by_triage", tv->affected, tv->naffected);
		json_kbool(&j, "agree", same_set(win, nwin, tv->affected, tv->naffected));
		json_kbool(&j, "triage_names_culprit", tv->names_culprit);
	}
	json_kint(&j, "builds", b->builds);
	json_kint(&j, "boots", b->boots);
	json_kstr(&j, "log", b->log_path);
	json_obj_end(&j);
	json_obj_end(&j);
}

/* The log of this bisection (its question hashed), for --resume. */
static void open_log(struct bb *b)
{
	const char *parts[] = { b->lab.tree.what, b->o->good, b->o->bad, b->o->fix, b->o->tests,
				b->o->series, b->o->commits ? "commits" : "releases",
				b->lab.bug.text, b->lab.kreq.variant };
	EVP_MD_CTX *ctx = digest_new();
	char hex[17], line[512], *dir = xstrfmt("%s/bisect", b->lab.cache);

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		digest_str(ctx, parts[i]);
	digest_file(ctx, b->lab.repro.binary);        /* the reproducer decides too */
	digest_hex(ctx, hex, 8);
	mkdir(dir, 0755);
	b->log_path = xstrfmt("%s/%s.jsonl", dir, hex);
	free(dir);
	if (b->o->resume && (b->log = fopen(b->log_path, "r"))) {
		while (fgets(line, sizeof(line), b->log)) {
			char key[80];
			int v;
			if (sscanf(line, "{\"key\":\"%79[^\"]\",\"verdict\":%d", key, &v) == 2) {
				b->known = xrealloc(b->known, (b->nknown + 1) * sizeof(*b->known));
				b->known[b->nknown++] = xstrfmt("%s %d", key, v);
			}
		}
		fclose(b->log);
	}
	b->log = fopen(b->log_path, b->o->resume ? "a" : "w");
}

static int run(struct bb *b)
{
	uint32_t good, good_tag, bad, bad_tag, fixed = 0, fixed_tag = 0;
	int ret;

	if ((ret = resolve(b, b->o->good, &good, &good_tag)) ||
	    (ret = resolve(b, b->o->bad, &bad, &bad_tag)) ||
	    (b->o->fix && (ret = resolve(b, b->o->fix, &fixed, &fixed_tag))))
		return ret;
	b->lab_opts = b->o->lab;
	if (!b->lab_opts.kernel_tree)
		b->lab_opts.kernel_tree = git_repository_path(b->h->repo);
	b->lab_opts.quiet = true;
	if ((ret = lab_open(&b->lab, &b->lab_opts)))
		return ret;
	open_log(b);
	if (!b->o->json)
		printf("kernel tree: %s; each step boots %d time(s), the answer %d\n",
		       b->lab.tree.what, b->o->repeat, b->o->repeat > 3 ? b->o->repeat : 3);
	if ((ret = find(b, &b->reg, good, good_tag, bad, bad_tag)) || !b->o->fix)
		return ret;
	b->fix_mode = true;
	return find(b, &b->fix, b->reg.first_new, b->reg.first_new_tag, fixed, fixed_tag);
}

int bisect_boot(struct history *h, const struct bisect_opts *o)
{
	struct bb b;
	struct triage_view tv = { 0 };
	uint32_t *win = NULL;
	size_t nwin = 0;
	int ret;

	memset(&b, 0, sizeof(b));
	b.h = h;
	b.o = o;
	b.start = time(NULL);
	b.reg.commit = b.fix.commit = PV_NONE;
	proc_install_signals();
	ret = run(&b);
	if (!ret || (ret != EXIT_INTERRUPTED && ret != EXIT_NO_TOOL && b.reg.done)) {
		if (b.fix.done && !b.fix.ambiguous && b.fix.first_new_tag != PV_NONE &&
		    b.reg.first_new_tag != PV_NONE)
			win = window(&b, &nwin);
		triage_view(&b, &tv);
		if (o->json)
			print_json(&b, win, nwin, &tv);
		else
			print_text(&b, win, nwin, &tv);
		if (!ret && (b.reg.ambiguous || !b.reg.confirmed ||
			     (b.fix.done && (b.fix.ambiguous || !b.fix.confirmed))))
			ret = EXIT_NOT_CONFIRMED;
	}
	if (ret == EXIT_INTERRUPTED)
		error(ret, "interrupted: make and qemu stopped; rerun with --resume to continue");
	for (size_t i = 0; i < b.nsteps; i++) {
		free(b.steps[i].label);
		free(b.steps[i].kind);
		free(b.steps[i].why);
	}
	free(b.steps);
	for (size_t i = 0; i < b.nknown; i++)
		free(b.known[i]);
	free(b.known);
	free(b.reg.candidates);
	free(b.reg.confirm_why);
	free(b.fix.candidates);
	free(b.fix.confirm_why);
	free(tv.affected);
	free(win);
	if (b.log)
		fclose(b.log);
	free(b.log_path);
	if (b.lab.cache)
		lab_close(&b.lab);
	return ret;
}
