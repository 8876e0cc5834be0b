/*
 * Unit tests: where a missing name is defined, and the commit that
 * brought it (stable/definer.c), on a small history made here:
 *
 *   v1  include/linux/helper.h (struct inode { i_mode }), lib.c
 *   B   helper.h: static inline int helper_added_later(void), struct rlimit;
 *   C   helper.h: #define MACRO_ADDED_LATER, i_acl_later, a typedef, rlimit()
 *   D   lib.c calls helper_added_later (a use, not a definition)
 *   E   the fix (lib.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/engine/dag.h"
#include "patchver/stable/definer.h"

static git_repository *repo;

static git_oid blob(const char *text)
{
	git_oid id;
	git_blob_create_from_buffer(&id, repo, text, strlen(text));
	return id;
}

static git_oid tree_of(const char *helper, const char *lib)
{
	git_treebuilder *tb;
	git_oid linux_id, include_id, root, b;

	git_treebuilder_new(&tb, repo, NULL);
	b = blob(helper);
	git_treebuilder_insert(NULL, tb, "helper.h", &b, GIT_FILEMODE_BLOB);
	git_treebuilder_write(&linux_id, tb);
	git_treebuilder_clear(tb);
	git_treebuilder_insert(NULL, tb, "linux", &linux_id, GIT_FILEMODE_TREE);
	git_treebuilder_write(&include_id, tb);
	git_treebuilder_clear(tb);
	git_treebuilder_insert(NULL, tb, "include", &include_id, GIT_FILEMODE_TREE);
	b = blob(lib);
	git_treebuilder_insert(NULL, tb, "lib.c", &b, GIT_FILEMODE_BLOB);
	git_treebuilder_write(&root, tb);
	git_treebuilder_free(tb);
	return root;
}

static git_oid commit(const git_oid *parent, const char *msg, const char *helper, const char *lib,
		      int when)
{
	git_signature *sig;
	git_tree *tree;
	git_commit *p = NULL;
	git_oid tid = tree_of(helper, lib), id;

	git_signature_new(&sig, "T", "t@t", 1262304000 + when * 3600, 0);
	git_tree_lookup(&tree, repo, &tid);
	if (parent)
		git_commit_lookup(&p, repo, parent);
	git_commit_create_v(&id, repo, NULL, sig, sig, NULL, msg, tree, p ? 1 : 0, p);
	git_commit_free(p);
	git_tree_free(tree);
	git_signature_free(sig);
	return id;
}

static const char *const h1 = "struct inode {\n\tint i_mode;\n};\nint proto_only(void);\n";
static const char *const h2 = "struct inode {\n\tint i_mode;\n};\nint proto_only(void);\n"
			      "struct rlimit;\n"
			      "static inline int helper_added_later(void)\n{\n\treturn 1;\n}\n";
static const char *const h3 = "#define MACRO_ADDED_LATER 3\ntypedef int type_added_later_t;\n"
			      "struct inode {\n\tint i_mode;\n\tint i_acl_later;\n};\n"
			      "int proto_only(void);\n"
			      "struct rlimit;\n"
			      "static inline unsigned long rlimit(unsigned int limit)\n{\n\treturn limit;\n}\n"
			      "static inline int helper_added_later(void)\n{\n\treturn 1;\n}\n";
static const char *const l1 = "int base(void)\n{\n\treturn 0;\n}\n";
static const char *const l2 = "int base(void)\n{\n\treturn helper_added_later();\n}\n";
static const char *const l3 = "int base(void)\n{\n\treturn helper_added_later() + 1;\n}\n";

static void where(git_oid *tree_commit, enum definer_kind kind, const char *name,
		  const char *container, const char *want)
{
	struct definer_query q = { kind, name, container, NULL };
	git_commit *c;
	char *got;

	git_commit_lookup(&c, repo, tree_commit);
	got = definer_file(repo, git_commit_tree_id(c), &q);
	if (want)
		CHECK_STR(got, want);
	else
		CHECK(got == NULL);
	free(got);
	git_commit_free(c);
}

int main(void)
{
	char dir[] = "/tmp/test_definer.XXXXXX", cmd[64];
	git_oid v1, b, c, d, e, got;
	struct dag dag;
	const struct definer_query fn_helper = { DEFINER_FUNCTION, "helper_added_later", NULL, NULL };
	const struct definer_query fn_rlimit = { DEFINER_FUNCTION, "rlimit", NULL, NULL };
	const struct definer_query macro = { DEFINER_IDENTIFIER, "MACRO_ADDED_LATER", NULL, NULL };
	const struct definer_query member = { DEFINER_MEMBER, "i_acl_later", "struct inode", NULL };
	const struct definer_query header = { DEFINER_HEADER, "linux/helper.h", NULL, NULL };

	git_libgit2_init();
	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 1) < 0)
		return 1;
	v1 = commit(NULL, "v1", h1, l1, 0);
	b = commit(&v1, "add helper", h2, l1, 1);
	c = commit(&b, "add macro, member, type", h3, l1, 2);
	d = commit(&c, "use the helper", h3, l2, 3);
	e = commit(&d, "the fix", h3, l3, 4);

	where(&d, DEFINER_FUNCTION, "helper_added_later", NULL, "include/linux/helper.h");
	where(&d, DEFINER_IDENTIFIER, "MACRO_ADDED_LATER", NULL, "include/linux/helper.h");
	where(&d, DEFINER_TYPE, "type_added_later_t", NULL, "include/linux/helper.h");
	where(&d, DEFINER_MEMBER, "i_acl_later", "struct inode", "include/linux/helper.h");
	where(&d, DEFINER_HEADER, "linux/helper.h", NULL, "include/linux/helper.h");
	where(&d, DEFINER_FUNCTION, "base", NULL, "lib.c");
	/* a prototype, a call, another struct's member, a header that is not there: none */
	where(&d, DEFINER_FUNCTION, "proto_only", NULL, NULL);
	where(&d, DEFINER_MEMBER, "i_acl_later", "struct dentry", NULL);
	where(&d, DEFINER_HEADER, "linux/nothere.h", NULL, NULL);
	where(&v1, DEFINER_FUNCTION, "helper_added_later", NULL, NULL);
	{
		/* the failing file is looked at first, and a missing one is no answer */
		struct definer_query near = { DEFINER_FUNCTION, "base", NULL, "lib.c" };
		struct definer_query gone = { DEFINER_FUNCTION, "helper_added_later", NULL, "nope.c" };
		git_commit *cd;
		char *got_near, *got_gone;

		git_commit_lookup(&cd, repo, &d);
		got_near = definer_file(repo, git_commit_tree_id(cd), &near);
		got_gone = definer_file(repo, git_commit_tree_id(cd), &gone);
		CHECK_STR(got_near, "lib.c");
		CHECK_STR(got_gone, "include/linux/helper.h");
		free(got_near);
		free(got_gone);
		git_commit_free(cd);
	}

	/* git log -S over the defining file, v1..the fix's parent */
	CHECK(dag_init(&dag, repo) == 0);
	CHECK(definer_commit(&dag, &v1, &d, "include/linux/helper.h", &fn_helper, &got) == 0);
	CHECK(git_oid_equal(&got, &b));
	CHECK(definer_commit(&dag, &v1, &d, "include/linux/helper.h", &macro, &got) == 0);
	CHECK(git_oid_equal(&got, &c));
	CHECK(definer_commit(&dag, &v1, &d, "include/linux/helper.h", &member, &got) == 0);
	CHECK(git_oid_equal(&got, &c));
	/* the word came with B ("struct rlimit;"), the function with C: C */
	CHECK(definer_commit(&dag, &v1, &d, "include/linux/helper.h", &fn_rlimit, &got) == 0);
	CHECK(git_oid_equal(&got, &c));
	/* a header: the commit that created it */
	CHECK(definer_commit(&dag, &v1, &d, "include/linux/helper.h", &header, &got) == PV_ENOTFOUND);
	/* the use in lib.c is D's (no definition there: git log -S's word) */
	CHECK(definer_commit(&dag, &v1, &d, "lib.c", &fn_helper, &got) == 0);
	CHECK(git_oid_equal(&got, &d));
	/* there before the range: not found, and said */
	CHECK(definer_commit(&dag, &b, &e, "include/linux/helper.h", &fn_helper, &got) ==
	      PV_ENOTFOUND);
	CHECK(strstr(pv_error_last()->message, "brings helper_added_later into") != NULL);

	dag_free(&dag);
	git_repository_free(repo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	git_libgit2_shutdown();
	return check_done();
}
