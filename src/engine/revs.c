/*
 * Rev resolution with git log's preference for commits.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/revsyntax.h"

struct prefix_scan {
	const char *prefix;
	size_t len;
	git_odb *odb;
	git_oid found[2];
	size_t nfound;
};

static int scan_cb(const git_oid *id, void *payload)
{
	struct prefix_scan *s = payload;
	char hex[GIT_OID_HEXSZ + 1];
	git_object_t type;
	size_t size;

	git_oid_tostr(hex, sizeof(hex), id);
	if (strncmp(hex, s->prefix, s->len))
		return 0;
	if (git_odb_read_header(&size, &type, s->odb, id) < 0 ||
	    type != GIT_OBJECT_COMMIT)
		return 0;
	for (size_t i = 0; i < s->nfound && i < 2; i++)
		if (git_oid_equal(&s->found[i], id))
			return 0;   /* the same object in two packs */
	if (s->nfound < 2)
		git_oid_cpy(&s->found[s->nfound], id);
	s->nfound++;
	return 0;
}

/*
 * The commit(s) whose id starts with prefix: first among the commits
 * already in the DAG (reachable from tags), else a scan of the whole
 * object database (slow, but only for short shas of unreachable commits).
 */
static size_t commits_with_prefix(struct dag *dag, const char *prefix,
				  git_oid out[2])
{
	uint32_t idx[2];
	size_t n = dag_find_prefix(dag, prefix, idx, 2);
	struct prefix_scan s = { prefix, strlen(prefix), dag->odb, {{{0}}}, 0 };

	if (n) {
		for (size_t i = 0; i < n && i < 2; i++)
			git_oid_cpy(&out[i], &dag->oids[idx[i]]);
		if (n > 1)
			return n;
	}
	/* an unreachable commit may share the prefix: scan to be sure */
	git_odb_foreach(dag->odb, scan_cb, &s);
	if (s.nfound > n) {
		memcpy(out, s.found, sizeof(s.found));
		return s.nfound;
	}
	return n;
}

/* Replace an ambiguous leading short sha by the commit it must mean. */
static int disambiguate(char **fixed, struct dag *dag, const char *spec)
{
	size_t len = 0;
	char prefix[GIT_OID_HEXSZ + 1], hex[GIT_OID_HEXSZ + 1];
	git_oid found[2];
	size_t n;

	while (isxdigit((unsigned char)spec[len]) && len < GIT_OID_HEXSZ)
		len++;
	if (len < GIT_OID_MINPREFIXLEN || isxdigit((unsigned char)spec[len]))
		return pv_error_set(PV_EAMBIGUOUS, "ambiguous argument '%s'", spec);
	for (size_t i = 0; i < len; i++)
		prefix[i] = (char)tolower((unsigned char)spec[i]);
	prefix[len] = '\0';
	n = commits_with_prefix(dag, prefix, found);
	if (n == 0)
		return pv_error_set(PV_EAMBIGUOUS,
			     "short sha '%s' is ambiguous and names no commit", spec);
	if (n > 1) {
		char a[13], b[13];
		git_oid_tostr(a, sizeof(a), &found[0]);
		git_oid_tostr(b, sizeof(b), &found[1]);
		return pv_error_set(PV_EAMBIGUOUS,
			     "short sha '%s' is ambiguous: commits %s, %s%s", spec,
			     a, b, n > 2 ? ", ..." : "");
	}
	git_oid_tostr(hex, sizeof(hex), &found[0]);
	*fixed = xmalloc(strlen(spec) + GIT_OID_HEXSZ + 1);
	sprintf(*fixed, "%s%s", hex, spec + len);
	return 0;
}

static int describe_failure(int err, const char *spec)
{
	if (err == GIT_EAMBIGUOUS)
		return pv_error_set(PV_EAMBIGUOUS, "ambiguous argument '%s'", spec);
	if (err == GIT_ENOTFOUND || err == GIT_EINVALIDSPEC || err == GIT_EPEEL)
		return pv_error_set(PV_ENOTFOUND, "unknown revision '%s'", spec);
	return pv_error_set(PV_ENOTFOUND, "cannot resolve '%s': %s", spec, git_errmsg());
}

/* One "~N" or "^N" step from commit *c: 0, or PV_EDECLINED when there is no such parent. */
static int step(struct dag *dag, const char **p, uint32_t *c)
{
	unsigned long n;
	char kind = rev_step(p, &n);
	unsigned np;
	const uint32_t *par;

	if (!n)
		return 0;
	do {
		if (dag_parse(dag, *c) < 0)
			return PV_EDECLINED;
		par = dag_parents(dag, *c, &np);
		if (kind == '^' ? n > np : !np)
			return PV_EDECLINED;
		*c = par[kind == '^' ? n - 1 : 0];
	} while (kind == '~' && --n);
	return 0;
}

/*
 * spec as a base and "~N"/"^N" steps, the steps walked on the DAG:
 * libgit2 would read and hash-check every commit on the way (2 ms for
 * "~20").  Anything unusual (another syntax, a missing parent, an
 * ambiguous base) returns PV_EDECLINED, and libgit2 resolves the whole spec.
 */
static int resolve_steps(struct rev *out, git_repository *repo, struct dag *dag,
			 const char *spec)
{
	size_t at = rev_steps_at(spec);
	char *base = at ? xstrndup(spec, at) : NULL;
	git_object *obj = NULL, *peeled = NULL;
	const char *p = spec + at;
	uint32_t c = PV_NONE;
	int ret = PV_EDECLINED;

	if (!base || git_revparse_single(&obj, repo, base) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
		goto out;
	c = dag_intern(dag, git_object_id(peeled));
	while (*p)
		if (step(dag, &p, &c) < 0)
			goto out;
	if ((dag->lazy ? dag_parse(dag, c) : dag_load(dag, c)) < 0)
		goto out;
	git_oid_cpy(&out->object, &dag->oids[c]);
	git_oid_cpy(&out->oid, &dag->oids[c]);
	out->type = GIT_OBJECT_COMMIT;
	out->commit = c;
	ret = 0;
out:
	if (ret)
		git_error_clear();
	git_object_free(peeled);
	git_object_free(obj);
	free(base);
	return ret;
}

int rev_resolve(struct rev *out, git_repository *repo, struct dag *dag,
		const char *spec)
{
	git_object *obj = NULL, *peeled = NULL;
	char *fixed = NULL;
	int err, ret = 0;

	memset(out, 0, sizeof(*out));
	out->spec = spec;
	out->commit = PV_NONE;
	if (!*spec)
		return pv_error_set(PV_ENOTFOUND, "empty revision");
	if (resolve_steps(out, repo, dag, spec) == 0)
		return 0;
	/*
	 * libgit2 would walk the steps over the parents the objects spell:
	 * where replace refs or grafts change them, a step the DAG could not
	 * take does not exist in the history git sees.
	 */
	if (replace_map_active(&dag->replaced) && rev_steps_at(spec))
		return describe_failure(GIT_ENOTFOUND, spec);
	err = git_revparse_single(&obj, repo, spec);
	if (err == GIT_EAMBIGUOUS) {
		if ((ret = disambiguate(&fixed, dag, spec)))
			goto out;
		err = git_revparse_single(&obj, repo, fixed);
	}
	if (err < 0) {
		ret = describe_failure(err, spec);
		goto out;
	}
	git_oid_cpy(&out->object, git_object_id(obj));
	out->type = git_object_type(obj);
	err = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	if (err < 0 && err != GIT_EINVALIDSPEC && err != GIT_EPEEL) {
		ret = pv_error_set(PV_ECORRUPT, "cannot read what '%s' points to: %s", spec,
			    git_errmsg());
		goto out;
	}
	if (err < 0) {
		ret = pv_error_set(PV_ENOTCOMMIT, "'%s' names a %s, not a commit", spec,
			    git_object_type2string(out->type == GIT_OBJECT_TAG ?
				GIT_OBJECT_TAG : out->type));
		goto out;
	}
	git_oid_cpy(&out->oid, git_object_id(peeled));
	out->commit = dag_intern(dag, &out->oid);
	if ((dag->lazy ? dag_parse(dag, out->commit) : dag_load(dag, out->commit)) < 0)
		ret = pv_error_wrap(PV_ECORRUPT, "history of '%s' is broken: ", spec);
out:
	git_object_free(peeled);
	git_object_free(obj);
	free(fixed);
	return ret;
}

size_t rev_find_hex_all(struct dag *dag, const char *hex, uint32_t *out, size_t max)
{
	uint32_t i;
	git_oid oid;
	char lower[GIT_OID_HEXSZ + 1];
	size_t len = strlen(hex);

	if (len < 7 || len > GIT_OID_HEXSZ)
		return 0;
	for (size_t k = 0; k <= len; k++)
		lower[k] = (char)tolower((unsigned char)hex[k]);
	if (len < GIT_OID_HEXSZ || git_oid_fromstr(&oid, lower) < 0)
		return dag_find_prefix(dag, lower, out, max);
	i = dag_find(dag, &oid);
	if (i == PV_NONE || !dag->loaded[i]) {
		if (!git_odb_exists(dag->odb, &oid))
			return 0;
		i = dag_intern(dag, &oid);
		if ((dag->lazy ? dag_parse(dag, i) : dag_load(dag, i)) < 0) {
			git_error_clear();
			return 0;
		}
	}
	if (max)
		out[0] = i;
	return 1;
}

uint32_t rev_find_hex(struct dag *dag, const char *hex)
{
	uint32_t idx[2];

	return rev_find_hex_all(dag, hex, idx, 2) == 1 ? idx[0] : PV_NONE;
}
