#ifndef PATCHVER_ENGINE_REPLACE_H
#define PATCHVER_ENGINE_REPLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front never calls libgit2 */

/*
 * The history git sees when it is not the one the objects spell out:
 * replace refs (refs/replace/<id> -> the object read in place of <id>)
 * and grafts (info/grafts: "<commit> <parent>..." lines that give a
 * commit other parents).  libgit2 1.5.1 honours neither, so patchver reads
 * them itself, as git 2.39 does:
 *  - replace refs unless GIT_NO_REPLACE_OBJECTS is set or
 *    core.useReplaceRefs is false; their namespace is GIT_REPLACE_REF_BASE
 *    (default refs/replace/); a ref whose name is not a full object id is
 *    ignored with a warning; a replacement of a replacement is followed, at
 *    most 5 deep;
 *  - the graft file is GIT_GRAFT_FILE, else info/grafts in the common git
 *    directory; read whatever GIT_NO_REPLACE_OBJECTS says; blank and '#'
 *    lines are skipped, a malformed line is ignored with a warning, and of
 *    two lines for one commit the first counts.
 * With either, git uses neither its commit-graph nor (so patchver) a
 * release index built over the plain history.
 */
struct replace_pair {
	git_oid from, to;
};

struct graft {
	git_oid commit;
	size_t first, nr;           /* its parents: parents[first .. first + nr) */
	size_t seq;                 /* the line's place among the grafts read */
};

struct replace_map {
	struct replace_pair *pairs;     /* sorted by from */
	size_t npairs;
	struct graft *grafts;           /* sorted by commit */
	size_t ngrafts;
	git_oid *parents;
	size_t nparents;
	char *graft_file;               /* the file read, if it existed */
	char **warnings;                /* what git would say on stderr, one line each */
	size_t nwarnings;
};

/*
 * Read the replace refs and the graft file of repo.  0, or PV_ECORRUPT
 * when the replace refs cannot be listed (the message is libgit2's).
 */
int replace_map_load(struct replace_map *m, git_repository *repo);
void replace_map_free(struct replace_map *m);

/* Does the map change anything: a replace ref or a graft? */
static inline bool replace_map_active(const struct replace_map *m)
{
	return m->npairs || m->ngrafts;
}

/*
 * The id whose object git reads for oid: oid itself, or its replacement
 * (followed through replacements of replacements).  NULL, with a libgit2
 * error, when the chain is longer than git allows (5).
 */
const git_oid *replace_object(const struct replace_map *m, const git_oid *oid);

/* commit's graft, or NULL; its parents are m->parents[g->first ..]. */
const struct graft *replace_graft(const struct replace_map *m, const git_oid *commit);

#endif
