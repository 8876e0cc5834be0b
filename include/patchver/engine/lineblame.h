#ifndef PATCHVER_ENGINE_LINEBLAME_H
#define PATCHVER_ENGINE_LINEBLAME_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>

#include "patchver/engine/dag.h"

/*
 * git blame's answer for chosen lines of one file, computed on the DAG.
 *
 * As builtin/blame.c without -M/-C: the lines asked for are followed down
 * the file's history, newest commit first; a commit passes all of them to
 * the first parent holding the same blob, else each parent in turn takes
 * the lines its diff (libgit2's, no context, indent heuristic) leaves
 * unchanged, and the lines left are the commit's.  A parent without the
 * path gets the lines when a rename detection (git's 50%) finds the file
 * there under another name.  Only the lines asked for are followed, and a
 * commit's path is looked up through trees cached by id, so the cost is
 * the commits between the lines and their origins, not the file's whole
 * history: libgit2's git_blame_file searched for renames at every step
 * and took 40 s of CPU on fs/namei.c where git takes 0.2 s.
 */

/*
 * Blame lines[0..n) (1-based, any order, repeats allowed) of path at
 * commit base: out[i] gets the commit that last changed lines[i], or
 * PV_NONE for a line beyond the end of the file.  0, or PV_ECORRUPT (a
 * missing object; the message is libgit2's).
 */
int lineblame(git_repository *repo, struct dag *dag, uint32_t base,
	      const char *path, const size_t *lines, size_t n, uint32_t *out);

#endif
