#ifndef PATCHVER_STABLE_DEFINER_H
#define PATCHVER_STABLE_DEFINER_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

struct dag;

/*
 * What a backport is missing, found in history: the file of a tree that
 * defines a name (a function, a macro or enum value, a type, a struct's
 * member, a header), and the commit that brought the name into that file
 * (git log -S NAME -- FILE over a range: its count there went up from 0).
 * Text, not a compiler: a definition is a line of the file's own shape
 * ("static inline int helper(" at column 0 without ';', "#define NAME",
 * "typedef ... NAME;", a member inside "struct X {").
 */
enum definer_kind {
	DEFINER_FUNCTION,
	DEFINER_IDENTIFIER,         /* a macro, an enum value */
	DEFINER_TYPE,
	DEFINER_MEMBER,             /* of container ("struct inode") */
	DEFINER_HEADER,             /* name as included: "linux/x.h" */
};

struct definer_query {
	enum definer_kind kind;
	const char *name;
	const char *container;      /* DEFINER_MEMBER only */
	const char *near;           /* the file that failed, looked at first; NULL: none */
};

/* Does a file's text define q (a line of the definition's own shape)? */
bool definer_text_defines(const char *text, size_t len, const struct definer_query *q);

/*
 * The path in tree of the file defining q (caller frees); NULL: none.
 * Looked for in q->near, the kernel's include directories, any header,
 * q->near's directory, then any source file.
 */
char *definer_file(git_repository *repo, const git_oid *tree, const struct definer_query *q);

/*
 * The newest commit of old..new (new reachable, old not), merges aside as
 * git log -S leaves them, that brought q into path: the one whose change
 * makes path define it (a header: creates it), else the one that makes
 * its name appear there (none of it in its parent, as git log -S NAME
 * counts).  Path-limited over the DAG: only commits that change path are
 * read.  0 with *out set, PV_ENOTFOUND, or a PV_E* code.
 */
int definer_commit(struct dag *dag, const git_oid *old, const git_oid *new, const char *path,
		   const struct definer_query *q, git_oid *out);

#endif
