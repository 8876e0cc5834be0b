/*
 * Unit tests: rev resolution (revs.h) on a fixture history, against
 * libgit2's own revparse, and its failures as PV_E* codes with their
 * messages (error.h): nothing printed, no exit code chosen.
 *
 *   test_revs REPO
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "check.h"
#include "fixture.h"
#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/engine/revs.h"

/* spec resolves as libgit2 peels it to a commit, and rev.commit is that commit. */
static void check_same_as_libgit2(struct history *h, const char *spec)
{
	git_object *obj = NULL, *commit = NULL;
	struct rev rev;
	int ret = rev_resolve(&rev, h->repo, &h->dag, spec);

	if (git_revparse_single(&obj, h->repo, spec) < 0 ||
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
		CHECK(!"libgit2 resolves the spec");
		goto out;
	}
	CHECK(ret == 0);
	if (ret == 0) {
		CHECK(git_oid_equal(&rev.oid, git_object_id(commit)));
		CHECK(git_oid_equal(&rev.object, git_object_id(obj)));
		CHECK(rev.commit != PV_NONE && git_oid_equal(&h->dag.oids[rev.commit], &rev.oid));
	}
out:
	if (ret || !obj)
		fprintf(stderr, "  spec: %s\n", spec);
	git_object_free(commit);
	git_object_free(obj);
}

/* spec fails with code, its message recorded, containing want. */
static void check_fails(struct history *h, const char *spec, int code, const char *want)
{
	struct rev rev;
	int ret;

	/* a message left from before must not pass for this call's */
	pv_error_set(PV_EINTERNAL, "no message from rev_resolve");
	ret = rev_resolve(&rev, h->repo, &h->dag, spec);
	CHECK(ret == code);
	CHECK(pv_error_last()->code == code);
	CHECK(strstr(pv_error_last()->message, want) != NULL);
	if (ret != code || !strstr(pv_error_last()->message, want))
		fprintf(stderr, "  spec '%s': %d \"%s\"\n", spec, ret, pv_error_last()->message);
}

int main(int argc, char **argv)
{
	struct history h;
	char spec[128], hex[GIT_OID_HEXSZ + 1];
	size_t ntags = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: test_revs REPO\n");
		return 2;
	}
	gitstart_init();
	if (fixture_open(&h, argv[1], false) < 0)
		return 2;
	/* every tag that peels to a commit, and steps from it, by name and by id */
	for (size_t i = 0; i < h.tags.nr; i++) {
		const struct tag *t = &h.tags.v[i];
		unsigned np;

		if (t->commit == PV_NONE)
			continue;
		ntags++;
		check_same_as_libgit2(&h, t->shortname);
		git_oid_tostr(hex, sizeof(hex), &h.dag.oids[t->commit]);
		check_same_as_libgit2(&h, hex);
		snprintf(spec, sizeof(spec), "%.12s~2", hex);
		if (dag_parse(&h.dag, t->commit) == 0 && dag_parents(&h.dag, t->commit, &np) && np) {
			snprintf(spec, sizeof(spec), "%s~1", t->shortname);
			check_same_as_libgit2(&h, spec);
			snprintf(spec, sizeof(spec), "%s^%u", t->shortname, np);
			check_same_as_libgit2(&h, spec);
		}
	}
	CHECK(ntags > 5);

	/* the failures: each a code and its words, nothing printed */
	check_fails(&h, "no-such-rev", PV_ENOTFOUND, "unknown revision 'no-such-rev'");
	check_fails(&h, "", PV_ENOTFOUND, "empty revision");
	check_fails(&h, "0000000000000000000000000000000000000001", PV_ENOTFOUND, "unknown revision");
	check_fails(&h, "abc", PV_EAMBIGUOUS, "ambiguous argument 'abc'");
	for (size_t i = 0; i < h.tags.nr; i++) {
		const struct tag *t = &h.tags.v[i];
		git_object *obj = NULL;

		/* a tag of a tree or a blob: names no commit */
		if (t->commit != PV_NONE || git_revparse_single(&obj, h.repo, t->shortname) < 0)
			continue;
		git_object_free(obj);
		check_fails(&h, t->shortname, PV_ENOTCOMMIT, "not a commit");
	}
	snprintf(spec, sizeof(spec), "%s^{tree}", h.tags.v[h.tags.releases[0]].shortname);
	check_fails(&h, spec, PV_ENOTCOMMIT, "names a tree, not a commit");

	history_close(&h);
	gitstart_shutdown();
	return check_done();
}
