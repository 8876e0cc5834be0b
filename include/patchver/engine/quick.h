#ifndef PATCHVER_QUICK_H
#define PATCHVER_QUICK_H

#include <stddef.h>

#include "patchver/base/util.h"

/*
 * Answers straight from a fresh release index, before libgit2 is started
 * (starting it costs more than the whole answer): --describe, --name-rev
 * and --first-release of full commit ids.  The repository's refs are read
 * from its files, the index is checked block by block as it is read, and
 * nothing else is opened.
 *
 * Whatever it is not sure of makes it decline, and the normal path then
 * answers: another rev syntax, a rev the index lacks, tags that differ
 * from the index's, a damaged block, a name git's date cutoff could
 * change, a repository layout or environment it does not handle
 * (GIT_* variables, worktrees, .git files, shallow clones).
 */
enum quick_mode {
	QUICK_DESCRIBE,
	QUICK_NAME_REV,
	QUICK_FIRST_RELEASE,
};

/*
 * Answer revs in the repository at dir (NULL: the current directory).
 * 0: out holds the whole output; -1: declined, *why says why (nothing
 * printed, nothing changed).
 */
int quick_answer(const char *dir, enum quick_mode mode, const char *release_glob,
		 const char **revs, size_t nrevs, struct sbuf *out, const char **why);

#endif
