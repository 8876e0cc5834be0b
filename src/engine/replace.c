/*
 * Replace refs and grafts: the history git sees, read as git 2.39's
 * replace-object.c and commit.c read it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/reffiles.h"
#include "patchver/engine/replace.h"

/* git's MAXREPLACEDEPTH: a longer chain is "replace depth too high" */
#define REPLACE_DEPTH 5

static void warn(struct replace_map *m, char *line)
{
	m->warnings = xrealloc(m->warnings, (m->nwarnings + 1) * sizeof(*m->warnings));
	m->warnings[m->nwarnings++] = line;
}

static int cmp_pair(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct replace_pair *)a)->from,
			   &((const struct replace_pair *)b)->from);
}

static int cmp_graft(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct graft *)a)->commit, &((const struct graft *)b)->commit);
}

/* Does git read replace refs here (GIT_NO_REPLACE_OBJECTS, core.useReplaceRefs)? */
static bool replace_refs_enabled(git_repository *repo)
{
	git_config *cfg = NULL;
	int use = 1;

	if (getenv("GIT_NO_REPLACE_OBJECTS"))
		return false;
	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&use, cfg, "core.useReplaceRefs") < 0)
			use = 1;
		git_config_free(cfg);
	}
	git_error_clear();
	return use != 0;
}

static int read_replace_refs(struct replace_map *m, git_repository *repo)
{
	const char *env = getenv("GIT_REPLACE_REF_BASE");
	const char *base = env && *env ? env : "refs/replace/";
	char *glob = xstrfmt("%s*", base);
	git_reference_iterator *it = NULL;
	git_reference *ref;
	size_t alloc = 0;
	int err;

	if ((err = git_reference_iterator_glob_new(&it, repo, glob)) < 0)
		goto out;
	while ((err = git_reference_next(&ref, it)) == 0) {
		const char *name = git_reference_name(ref), *hex = name + strlen(base);
		git_reference *resolved = NULL;
		git_oid from;

		if (strncmp(name, base, strlen(base)) || strlen(hex) != GIT_OID_HEXSZ ||
		    git_oid_fromstr(&from, hex) < 0) {
			warn(m, xstrfmt("bad replace ref name: %s (ignored)", hex));
		} else if (git_reference_resolve(&resolved, ref) == 0) {
			m->pairs = xgrow(m->pairs, &alloc, m->npairs + 1, sizeof(*m->pairs));
			m->pairs[m->npairs].from = from;
			git_oid_cpy(&m->pairs[m->npairs++].to, git_reference_target(resolved));
		}
		git_reference_free(resolved);
		git_reference_free(ref);
	}
	if (err == GIT_ITEROVER)
		err = 0;
	if (m->npairs)
		qsort(m->pairs, m->npairs, sizeof(*m->pairs), cmp_pair);
out:
	git_reference_iterator_free(it);
	free(glob);
	return err;
}

/*
 * One graft line as git's read_graft_line() takes it: trailing white space
 * dropped, blank and '#' lines skipped, then an id and any number of
 * parent ids, each after one white-space character.  0 (added or
 * skipped), -1 malformed.
 */
static int parse_graft(struct replace_map *m, char *line, size_t *galloc, size_t *palloc)
{
	size_t len = strlen(line);
	const char *p = line;
	struct graft g;

	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return 0;
	if (len < GIT_OID_HEXSZ || git_oid_fromstrn(&g.commit, p, GIT_OID_HEXSZ) < 0)
		return -1;
	g.first = m->nparents;
	g.nr = 0;
	g.seq = m->ngrafts;
	for (p += GIT_OID_HEXSZ; *p; p += 1 + GIT_OID_HEXSZ) {
		git_oid parent;

		if (!isspace((unsigned char)*p) || strlen(p + 1) < GIT_OID_HEXSZ ||
		    git_oid_fromstrn(&parent, p + 1, GIT_OID_HEXSZ) < 0 ||
		    (p[1 + GIT_OID_HEXSZ] && !isspace((unsigned char)p[1 + GIT_OID_HEXSZ]))) {
			m->nparents = g.first;
			return -1;
		}
		m->parents = xgrow(m->parents, palloc, m->nparents + 1, sizeof(*m->parents));
		m->parents[m->nparents++] = parent;
		g.nr++;
	}
	m->grafts = xgrow(m->grafts, galloc, m->ngrafts + 1, sizeof(*m->grafts));
	m->grafts[m->ngrafts++] = g;
	return 0;
}

/* By commit, and for one commit in the order read. */
static int cmp_graft_read(const void *a, const void *b)
{
	const struct graft *x = a, *y = b;
	int c = git_oid_cmp(&x->commit, &y->commit);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Of two grafts for one commit the first read counts, as in git. */
static void drop_duplicate_grafts(struct replace_map *m)
{
	size_t keep = 0;

	if (m->ngrafts)
		qsort(m->grafts, m->ngrafts, sizeof(*m->grafts), cmp_graft_read);
	for (size_t i = 0; i < m->ngrafts; i++) {
		if (keep && !git_oid_cmp(&m->grafts[keep - 1].commit, &m->grafts[i].commit)) {
			char hex[GIT_OID_HEXSZ + 1];
			git_oid_tostr(hex, sizeof(hex), &m->grafts[i].commit);
			warn(m, xstrfmt("duplicate graft data: %s (the first one counts)", hex));
			continue;
		}
		m->grafts[keep++] = m->grafts[i];
	}
	m->ngrafts = keep;
}

static void read_grafts(struct replace_map *m, git_repository *repo)
{
	const char *env = getenv("GIT_GRAFT_FILE");
	char *path = env && *env ? xstrdup(env) :
		     xstrfmt("%sinfo/grafts", git_repository_commondir(repo));
	size_t cap = 0, galloc = 0, palloc = 0;
	char *line = NULL;
	FILE *f = fopen(path, "r");

	if (!f) {
		free(path);
		return;
	}
	m->graft_file = path;
	while (getline(&line, &cap, f) >= 0)
		if (parse_graft(m, line, &galloc, &palloc) < 0)
			warn(m, xstrfmt("bad graft data: %s (ignored)", line));
	free(line);
	fclose(f);
	drop_duplicate_grafts(m);
}

int replace_map_load(struct replace_map *m, git_repository *repo)
{
	memset(m, 0, sizeof(*m));
	read_grafts(m, repo);
	if (reffiles_replace_refs_exist(git_repository_commondir(repo)) &&
	    replace_refs_enabled(repo) &&
	    read_replace_refs(m, repo) < 0)
		return pv_error_set(PV_ECORRUPT, "%s", git_errmsg());
	return 0;
}

void replace_map_free(struct replace_map *m)
{
	for (size_t i = 0; i < m->nwarnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	free(m->pairs);
	free(m->grafts);
	free(m->parents);
	free(m->graft_file);
	memset(m, 0, sizeof(*m));
}

const git_oid *replace_object(const struct replace_map *m, const git_oid *oid)
{
	const git_oid *cur = oid;

	for (int depth = 0; m->npairs; depth++) {
		struct replace_pair key = { .from = *cur };
		const struct replace_pair *p = bsearch(&key, m->pairs, m->npairs,
						       sizeof(*m->pairs), cmp_pair);
		char hex[GIT_OID_HEXSZ + 1];

		if (!p)
			break;
		if (depth == REPLACE_DEPTH) {
			char *msg = xstrfmt("replace depth too high for object %s",
					    git_oid_tostr(hex, sizeof(hex), oid));
			git_error_set_str(GIT_ERROR_OBJECT, msg);
			free(msg);
			return NULL;
		}
		cur = &p->to;
	}
	return cur;
}

const struct graft *replace_graft(const struct replace_map *m, const git_oid *commit)
{
	struct graft key = { .commit = *commit };

	if (!m->ngrafts)
		return NULL;
	return bsearch(&key, m->grafts, m->ngrafts, sizeof(*m->grafts), cmp_graft);
}
