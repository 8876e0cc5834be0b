#ifndef PATCHVER_STABLE_PATCH_H
#define PATCHVER_STABLE_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

#include "patchver/engine/dag.h"

/*
 * A change as a triage sees it: message, author, and the diff in git's
 * format, whether it came from a commit or from a mail.  Mails come as
 * `git format-patch` output, mboxes, plain `diff -up` diffs, CRLF text,
 * with "[PATCH v2 3/7]" subjects and "-AT-" obfuscated addresses; each is
 * normalized so that its patch-id is the one git gives the same change.
 */
struct patch {
	char *subject;          /* without [PATCH ...] prefixes; NULL if unknown */
	char *author;           /* "Name <email>", NULL if unknown */
	char *message;          /* commit message (subject + body), "" if none */
	char *diff;             /* normalized git-format diff, "" if none */
	char **paths;           /* files the diff touches */
	size_t npaths;
	git_oid patchid;        /* git patch-id --stable */
	bool has_patchid;
};

struct patch_set {
	struct patch *v;
	size_t nr;
};

#define PATCH_INPUT_MAX (64u << 20)   /* larger inputs are refused */

/*
 * Read a mail, mbox or diff from path ("-" = stdin) and parse every message
 * in it.  Returns 0 or PV_EINPUT (message recorded, naming path).
 */
int patch_read_file(struct patch_set *set, const char *path);

/* Parse text (any size; CRLF allowed) into messages. */
int patch_parse(struct patch_set *set, const char *text, size_t len);

/* The patch of commit c against its first parent (root: against nothing). */
int patch_from_commit(struct patch *p, git_repository *repo, const git_oid *commit);

/* Just the patch-id of commit c against its first parent; false if none. */
bool patch_id_of_commit(git_repository *repo, const git_oid *commit, git_oid *out);

/* Does commit c (of dag) have p's patch-id?  (Its file list is compared first.) */
bool patch_same_id(git_repository *repo, const struct dag *dag, uint32_t commit,
		   const struct patch *p);

void patch_free(struct patch *p);
void patch_set_free(struct patch_set *set);

/* Subject of a message: its first paragraph joined, prefixes dropped. */
char *patch_clean_subject(const char *subject);

#endif
