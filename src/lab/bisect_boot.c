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
#include "patchver/lab/input.h"
#include "patchver/engine/contain.h"
#include "patchver/base/error.h"
#include "patchver/lab/lab.h"
#include "patchver/base/proc.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/triage.h"
#include "patchver/base/util.h"

struct bb {
	struct history *h;
	const struct bisect_opts *o;
	const struct bisect_events *ev;
	struct lab own, *lab;       /* its own, or --verify-boot's (bisect_boot_boundary) */
	struct lab_opts lab_opts;
	bool fix_mode;              /* "new" = passing */
	time_t start;
	struct bisect_boot_result res;
};

const char *bisect_verdict_name(int v, bool fix_phase)
{
	if (v < 0)
		return "flaky";
	if (v == BISECT_SKIP)
		return "skip";
	if (v == BISECT_NEW)
		return fix_phase ? "good (fixed)" : "bad";
	return fix_phase ? "bad (not fixed)" : "good";
}

/* Boots of the final answer: the steps' count, at least 3. */
static int confirm_boots(const struct bb *b)
{
	return b->o->repeat > 3 ? b->o->repeat : 3;
}

static const char *verdict_name(const struct bb *b, int v)
{
	return bisect_verdict_name(v, b->fix_mode);
}

static void step_done(const struct bb *b, const struct bisect_step *s)
{
	if (b->ev && b->ev->step)
		b->ev->step(b->ev->data, s, b->res.nsteps);
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

/* The verdict the journal keeps for key, or -2: none. */
static int recall(const struct bb *b, const char *key)
{
	const struct bisect_journal *j = b->o->journal;

	return j && j->recall ? j->recall(j->data, key) : -2;
}

static void keep(const struct bb *b, const struct bisect_step *s)
{
	const struct bisect_journal *j = b->o->journal;

	if (j && j->keep)
		j->keep(j->data, s);
}

/*
 * Build and boot a state `repeat` times; its verdict is the boots'
 * answer when they agree, "flaky" when they do not, "skip" when none can
 * tell.
 */
static int test_state(struct bb *b, const char *kind, char *label, const git_oid *commit,
		      struct kpatch **patches, size_t np, int repeat, int *verdict)
{
	struct bisect_step *s;
	int ret = 0, fails = 0, passes = 0, logged;

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
	if ((logged = recall(b, s->key)) > -2) {
		s->verdict = *verdict = logged;
		s->from_log = true;
		s->why = xstrdup("verdict of the resumed log");
		step_done(b, s);
		return 0;
	}
	for (int r = 0; r < repeat && !ret; r++) {
		struct candidate c = { 0 };
		char *why = NULL;
		int res;

		c.name = xstrfmt("bisect-%zu-%d", b->res.nsteps, r + 1);
		c.expect.how = &b->lab->bug;
		c.role = xstrdup(kind);
		c.commit = *commit;
		c.patches = xmalloc((np ? np : 1) * sizeof(*c.patches));
		memcpy(c.patches, patches, np * sizeof(*patches));
		c.npatches = np;
		if ((ret = lab_run(b->lab, &c, b->res.nsteps - 1, b->res.nsteps)) == 0) {
			res = test_result(b, &c, &why);
			if (r == 0) {
				s->built = !c.cached && !c.status;
				s->build_failed = c.status == PV_EBUILD;
				s->cached = c.cached;
				s->build_seconds = c.build_seconds;
				b->res.builds += s->built || s->build_failed;
			}
			if (c.log) {
				s->boots++;
				b->res.boots++;
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
	step_done(b, s);
	keep(b, s);
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

static void set_candidates(struct bisect_finding *f, const struct search *s, size_t lo, size_t hi)
{
	f->ncandidates = hi - lo + 1;
	f->candidates = xmalloc(f->ncandidates * sizeof(*f->candidates));
	for (size_t k = lo; k <= hi; k++)
		f->candidates[k - lo] = item_commit(s, k);
}

/* Stage 1: releases after old up to new (both tags). */
static int search_releases(struct bb *b, struct bisect_finding *f, uint32_t old, uint32_t new)
{
	struct search s = { b, "release", NULL, true };
	struct bisect_result r;
	size_t n;
	int ret;

	s.items = bisect_releases(&b->h->tags, old, new, b->o->series, &n);
	if (!n) {
		free(s.items);
		return pv_error_set(PV_EINVALID, "no release between %s and %s to bisect",
			     b->h->tags.v[old].shortname, b->h->tags.v[new].shortname);
	}
	if (b->ev && b->ev->releases)
		b->ev->releases(b->ev->data, n, b->h->tags.v[old].shortname,
				b->h->tags.v[new].shortname, b->fix_mode);
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

	if (b->ev && b->ev->commits)
		b->ev->commits(b->ev->data, n, merged);
}

/* Stage 2: the commits between the last old and the first new state. */
static int search_commits(struct bb *b, struct bisect_finding *f)
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

const char *bisect_state_name(const struct history *h, uint32_t tag, uint32_t commit,
			      char hex[13])
{
	if (tag != PV_NONE)
		return h->tags.v[tag].shortname;
	return git_oid_tostr(hex, 13, &h->dag.oids[commit]);
}

/* The reverse of a commit's change, to take it out of a later tree. */
static struct kpatch *revert_of(struct bb *b, uint32_t c)
{
	struct kpatch *p = xcalloc(1, sizeof(*p));
	git_commit *commit = NULL, *parent = NULL;
	git_tree *new = NULL, *old = NULL;
	git_repository *repo = b->lab->tree.repo;

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
static int confirm(struct bb *b, struct bisect_finding *f)
{
	int n = confirm_boots(b), v, ret;
	uint32_t at = f->commit != PV_NONE ? f->commit : f->first_new;
	struct kpatch *rev = f->commit != PV_NONE ? revert_of(b, f->commit) : NULL;
	char *hex = hex12(b, at), nbuf[13], obuf[13];
	const char *new_name = bisect_state_name(b->h, f->first_new_tag, f->first_new, nbuf);
	const char *old_name = bisect_state_name(b->h, f->last_old_tag, f->last_old, obuf);

	f->confirm_n = n;
	ret = test_state(b, "confirm", xstrfmt("%s (%dx)", f->commit != PV_NONE ? hex : new_name, n),
			 &b->h->dag.oids[at], NULL, 0, n, &v);
	if (ret)
		goto out;
	f->flaky = v < 0;
	f->confirm_new = v == BISECT_NEW ? n : 0;
	if (f->commit != PV_NONE && !rev) {
		f->confirm_why = xstrdup("cannot compute the revert");
		goto out;
	}
	if (f->commit != PV_NONE)
		ret = test_state(b, "confirm", xstrfmt("%s - %s (%dx)", new_name, hex, n),
				 &b->h->dag.oids[f->first_new], &rev, 1, n, &v);
	else
		ret = test_state(b, "confirm", xstrfmt("%s (%dx)", old_name, n),
				 &b->h->dag.oids[f->last_old], NULL, 0, n, &v);
	if (ret)
		goto out;
	f->flaky = f->flaky || v < 0;
	f->confirm_old = v == BISECT_OLD ? n : 0;
	f->confirmed = f->confirm_new == n && f->confirm_old == n;
	if (!f->confirmed) {
		const char *why = b->res.steps[b->res.nsteps - 1].why;
		f->confirm_why = xstrdup(why ? why : "the confirmation boots disagree");
	}
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
static int check_ends(struct bb *b, struct bisect_finding *f)
{
	char buf[13];
	int v, ret;

	if (!b->fix_mode) {
		if ((ret = test_state(b, "end",
				      xstrdup(bisect_state_name(b->h, f->last_old_tag, f->last_old, buf)),
				      &b->h->dag.oids[f->last_old], NULL, 0, b->o->repeat, &v)))
			return ret;
		if (v != BISECT_OLD)
			return pv_error_set_about(PV_EUNCONFIRMED, LAB_INPUT_GOOD,
						  "%s: the test does not pass there (%s)",
				     b->o->good, verdict_name(b, v));
	}
	if ((ret = test_state(b, "end",
			      xstrdup(bisect_state_name(b->h, f->first_new_tag, f->first_new, buf)),
			      &b->h->dag.oids[f->first_new], NULL, 0, b->o->repeat, &v)))
		return ret;
	if (v != BISECT_NEW)
		return pv_error_set_about(PV_EUNCONFIRMED, b->fix_mode ? LAB_INPUT_FIX : LAB_INPUT_BAD,
					  "%s: the test %s there (%s)", b->fix_mode ? b->o->fix : b->o->bad,
			     b->fix_mode ? "does not pass" : "does not fail", verdict_name(b, v));
	return 0;
}

/* Stage 1 (when both ends are releases), stage 2 (--commits), confirmation. */
static int find(struct bb *b, struct bisect_finding *f, uint32_t old, uint32_t old_tag,
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
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_ENDS_NOT_TAGS, "%s and %s are not "
					  "both release tags: bisect the commits between them",
					  b->o->good, b->o->bad);
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
		    tags_cmp_version(t, r, b->res.reg.first_new_tag) < 0 ||
		    tags_cmp_version(t, r, b->res.fix.first_new_tag) >= 0)
			continue;
		out[(*n)++] = r;
	}
	return out;
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

/* The triage of the fix the boots found: which mainline releases it says have the bug. */
static void triage_view(struct bb *b)
{
	struct bisect_boot_result *r = &b->res;
	struct contain c;
	struct triage t;

	if (r->fix.commit == PV_NONE)
		return;
	history_load_branches(b->h);
	contain_init(&c, b->h);
	if (triage_run(&t, b->h, &c, r->fix.commit, NULL, EVIDENCE_ALL) == 0) {
		r->have_triage = true;
		r->triage_affected = xmalloc((t.groups[0].naffected + 1) *
					     sizeof(*r->triage_affected));
		for (size_t i = 0; i < t.groups[0].naffected; i++)
			if (!kver_is_stable(&b->h->tags.v[t.groups[0].affected[i]].ver))
				r->triage_affected[r->ntriage_affected++] = t.groups[0].affected[i];
		for (size_t i = 0; i < t.ev.nr; i++)
			r->names_culprit = r->names_culprit || t.ev.v[i].commit == r->reg.commit;
		r->agree = same_set(r->window, r->nwindow, r->triage_affected,
				    r->ntriage_affected);
		triage_free(&t);
	}
	contain_free(&c);
}

/* The journal of this bisection: its question hashed. */
static void open_journal(struct bb *b)
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
	if (j && j->open)
		j->open(j->data, b->res.log_path, b->o->resume);
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
	if ((ret = lab_open(b->lab, &b->lab_opts)))
		return ret;
	open_journal(b);
	b->res.reproducer = b->lab->repro.source ? xstrdup(b->lab->repro.source) : NULL;
	b->res.bug = xstrdup(b->lab->bug.text);
	if (b->ev && b->ev->started)
		b->ev->started(b->ev->data, b->lab->tree.what, b->res.reproducer, b->o->repeat,
			       confirm_boots(b));
	if ((ret = find(b, &b->res.reg, good, good_tag, bad, bad_tag)) || !b->o->fix)
		return ret;
	b->fix_mode = true;
	return find(b, &b->res.fix, b->res.reg.first_new, b->res.reg.first_new_tag, fixed, fixed_tag);
}

/*
 * An end booted again, confirm_boots times: it must answer as the caller's
 * boot did.  False (and said in f) when it is flaky or answers otherwise.
 */
static int recheck_end(struct bb *b, struct bisect_finding *f, uint32_t tag, int want, bool *ok)
{
	int v, ret = test_state(b, "end", xstrdup(b->h->tags.v[tag].shortname),
				&b->h->dag.oids[b->h->tags.v[tag].commit], NULL, 0, confirm_boots(b), &v);
	const struct bisect_step *s = &b->res.steps[b->res.nsteps - 1];

	*ok = !ret && v == want;
	if (ret || *ok)
		return ret;
	/* both ways across its boots, the caller's first one included */
	f->flaky = true;
	f->confirm_why = v < 0 ? xstrfmt("%s is flaky: %d of %d boots show the bug; not bisected on",
					 b->h->tags.v[tag].shortname, s->bad_boots, s->boots) :
			 xstrfmt("%s booted again: %s, not as before; not bisected on",
				 b->h->tags.v[tag].shortname, verdict_name(b, v));
	return 0;
}

int bisect_boot_boundary(struct history *h, struct lab *l, const struct bisect_boundary *q,
			 const struct bisect_events *ev, struct bisect_boot_result *r)
{
	struct bisect_opts o = { .commits = true, .repeat = 1 };
	struct bisect_finding *f;
	struct bb b;
	bool ok = false;
	int ret;

	memset(&b, 0, sizeof(b));
	b.h = h;
	b.o = &o;
	b.ev = ev;
	b.lab = l;
	b.fix_mode = q->fix_phase;
	b.start = time(NULL);
	o.good = h->tags.v[q->old_tag].shortname;
	o.bad = h->tags.v[q->new_tag].shortname;
	f = &b.res.reg;
	f->commit = PV_NONE;
	f->last_old_tag = q->old_tag;
	f->last_old = h->tags.v[q->old_tag].commit;
	f->first_new_tag = q->new_tag;
	f->first_new = h->tags.v[q->new_tag].commit;
	ret = recheck_end(&b, f, q->old_tag, BISECT_OLD, &ok);
	if (!ret && ok)
		ret = recheck_end(&b, f, q->new_tag, BISECT_NEW, &ok);
	if (!ret && ok) {
		size_t n;
		free(bisect_releases(&h->tags, q->old_tag, q->new_tag, NULL, &n));
		/* adjacent releases: the commits between them at once */
		if (n > 1)
			ret = search_releases(&b, f, q->old_tag, q->new_tag);
		if (!ret && !f->ambiguous)
			ret = search_commits(&b, f);
		f->done = true;
		if (!ret && !f->ambiguous)
			ret = confirm(&b, f);
	}
	b.res.reported = !ret || ret == PV_EUNCONFIRMED;
	b.res.confirmed = f->done && !f->ambiguous && f->confirmed;
	b.res.seconds = (long)(time(NULL) - b.start);
	*r = b.res;
	return ret;
}

int bisect_boot(struct history *h, const struct bisect_opts *o, const struct bisect_events *ev,
		struct bisect_boot_result *r)
{
	struct bb b;
	struct bisect_boot_result *res = &b.res;
	int ret;

	memset(&b, 0, sizeof(b));
	b.lab = &b.own;
	b.h = h;
	b.o = o;
	b.ev = ev;
	b.start = time(NULL);
	res->reg.commit = res->fix.commit = PV_NONE;
	proc_install_signals();
	ret = run(&b);
	if (!ret || (ret != PV_EINTERRUPTED && ret != PV_ENOTOOL && res->reg.done)) {
		res->reported = true;
		if (res->fix.done && !res->fix.ambiguous && res->fix.first_new_tag != PV_NONE &&
		    res->reg.first_new_tag != PV_NONE) {
			res->have_window = true;
			res->window = window(&b, &res->nwindow);
		}
		triage_view(&b);
		res->confirmed = !res->reg.ambiguous && res->reg.confirmed &&
				 (!res->fix.done || (!res->fix.ambiguous && res->fix.confirmed));
	}
	res->seconds = (long)(time(NULL) - b.start);
	if (b.own.cache)
		lab_close(&b.own);
	*r = b.res;
	return ret;
}

static void finding_free(struct bisect_finding *f)
{
	free(f->candidates);
	free(f->confirm_why);
}

void bisect_boot_result_free(struct bisect_boot_result *r)
{
	for (size_t i = 0; i < r->nsteps; i++) {
		free(r->steps[i].label);
		free(r->steps[i].kind);
		free(r->steps[i].why);
	}
	free(r->steps);
	finding_free(&r->reg);
	finding_free(&r->fix);
	free(r->window);
	free(r->triage_affected);
	free(r->log_path);
	free(r->reproducer);
	free(r->bug);
	memset(r, 0, sizeof(*r));
}
