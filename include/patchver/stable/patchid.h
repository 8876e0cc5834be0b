#ifndef PATCHVER_STABLE_PATCHID_H
#define PATCHVER_STABLE_PATCHID_H

#include <stdbool.h>
#include <git2.h>

/*
 * git patch-id --stable, computed from diff text exactly as git 2.39's
 * builtin/patch-id.c does: per file, a SHA-1 of the diff lines with white
 * space removed and hunk headers skipped, the files' hashes added up as
 * 160-bit numbers.  (libgit2's git_diff_patchid hashes its own rendering,
 * which differs from git's for diffs without "index" lines.)
 */
bool patchid_of_text(const char *diff, git_oid *out);

#endif
