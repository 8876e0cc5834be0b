#ifndef PATCHVER_STABLE_READINESS_NAMES_H
#define PATCHVER_STABLE_READINESS_NAMES_H

#include "patchver/stable/hunks.h"
#include "patchver/stable/readiness.h"
#include "patchver/stable/readiness_search.h"

/*
 * The names check of backport readiness, before any build: functions,
 * macros, struct members ("->m", ".m") and structs ("struct s") the fixed
 * code starts using that the release (with the prerequisites in) does not
 * know.  A name the release's copy of the file
 * already mentions is known; one the fix defines itself is its own.  The
 * rest is looked for where the fix's parent defines it: the fix's files
 * and the headers they include (a bounded look, not a tree scan: a name
 * defined deeper is not reported), and when the release's copy of that
 * file lacks the definition, the commit that brought it (definer.h) is
 * the likely build prerequisite.  Text, not a compiler.
 */

#define READY_NAMES_MAX 16          /* names looked up per fix */

/*
 * r->names from the fix's diff d, release being the release's files with
 * the prerequisites in (read as needed).  0 or a PV_E* code.
 */
int ready_names_check(struct readiness *r, struct ready_search *x, const struct diff_files *d,
		      struct apply_tree *release);

#endif
