/*
 * Mainline's reverts (reverts.h): the commits that take others back out.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <unistd.h>
#include <git2.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/kver.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/upstream.h"
#include "patchver/stable/reverts.h"

/*
 * Words that may stand between "revert" and the id.  Not "part of": a
 * partial revert leaves the rest of the commit in (b3f2f6cd1ff9 "partially
 * reverts commit 4ec37de89d8c"), so it takes nothing out of "missing".
 */
static const char *const between[] = {
	"commit", "the", "changes", "change", "done", "made", "in", "by",
	"patch", "upstream", "mainline", "git", "cset", "changeset", "id", NULL,
};

/* "partially reverts", "partly revert": just before p */
static bool partial(const char *msg, const char *p)
{
	const char *w = p;

	while (w > msg && (w[-1] == ' ' || w[-1] == '\t' || w[-1] == '\n'))
		w--;
	return (w - msg >= 9 && !strncasecmp(w - 9, "partially", 9)) ||
	       (w - msg >= 6 && !strncasecmp(w - 6, "partly", 6));
}

static bool is_between(const char *w, size_t len)
{
	for (size_t i = 0; between[i]; i++)
		if (strlen(between[i]) == len && !strncasecmp(w, between[i], len))
			return true;
	return false;
}

/*
 * The id after a "revert", "reverts" or "reverting" of prose ("IB/iser:
 * Revert commit bba7ebb", "This patch reverts changes done in commit X").
 * "reverted" is not one: "X was reverted by Y" names the revert, not
 * what this commit takes out.
 */
static bool prose_revert(const char *msg, char hex[41])
{
	for (const char *p = msg; (p = strcasestr(p, "revert")); p++) {
		const char *q = p + 6;
		if ((p > msg && isalnum((unsigned char)p[-1])) || partial(msg, p))
			continue;
		if (!strncasecmp(q, "ing", 3))
			q += 3;
		else if (tolower((unsigned char)*q) == 's')
			q++;
		if (isalnum((unsigned char)*q))
			continue;
		for (int words = 0; words < 6; words++) {
			size_t len;
			while (*q == ' ' || *q == '\t' || *q == '\n' || *q == ':')
				q++;
			len = strspn(q, "0123456789abcdefABCDEF");
			if (len >= 7 && len <= 40 && !isalnum((unsigned char)q[len])) {
				for (size_t i = 0; i < len; i++)
					hex[i] = (char)tolower((unsigned char)q[i]);
				hex[len] = '\0';
				return true;
			}
			len = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
			if (!len || !is_between(q, len))
				break;
			q += len;
		}
	}
	return false;
}

/* The commit hex names below the revert: an ambiguous id is the revert's ancestor. */
static uint32_t resolve(struct history *h, const char *hex, uint32_t revert)
{
	uint32_t cand[4], found = PV_NONE;
	size_t n = rev_find_hex_all(&h->dag, hex, cand, 4);
	bool *below;

	if (n == 1)
		return cand[0];
	if (n < 2 || n > 4)
		return PV_NONE;
	below = dag_ancestors(&h->dag, &revert, 1);
	for (size_t i = 0; i < n; i++)
		if (cand[i] != revert && below[cand[i]]) {
			if (found != PV_NONE) {
				found = PV_NONE;    /* still ambiguous: no guess */
				break;
			}
			found = cand[i];
		}
	free(below);
	return found;
}

/* Read commit's message as a revert: false if it is none. */
static bool read_revert(struct history *h, uint32_t commit, struct revert_record *rec)
{
	char hex[41] = "", *subject = NULL, *msg = history_message(h, commit);
	bool named = msg && upstream_revert(msg, hex, &subject);

	if (msg && !named && prose_revert(msg, hex))
		named = true;
	if (!named) {
		free(msg);
		return false;
	}
	rec->commit = commit;
	rec->target = *hex ? resolve(h, hex, commit) : PV_NONE;
	rec->target_subject = subject;
	/* an id this repository does not have, and no subject: nothing to match */
	rec->subject = rec->target == PV_NONE && !subject ? NULL : objstore_subject(msg);
	free(msg);
	return rec->subject != NULL;
}

/* The newest mainline release tag's commit, or PV_NONE. */
static uint32_t mainline_tip(const struct history *h)
{
	const struct tag_table *t = &h->tags;

	for (size_t i = t->nreleases; i-- > 0;) {
		const struct tag *tg = &t->v[t->releases[i]];
		if (!kver_is_stable(&tg->ver) && tg->commit != PV_NONE)
			return tg->commit;
	}
	return PV_NONE;
}

/* Does the raw commit object say "revert" anywhere?  (Most do not: not read further.) */
static bool may_revert(git_odb *odb, const git_oid *oid)
{
	git_odb_object *obj = NULL;
	bool yes = true;

	if (git_odb_read(&obj, odb, oid) == 0) {
		yes = memmem(git_odb_object_data(obj), git_odb_object_size(obj), "evert", 5) != NULL;
		git_odb_object_free(obj);
	}
	return yes;
}

/* The records only: r keeps its history and tip (a cache that cannot be used is read anew). */
static void drop_records(struct reverts *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		free(r->v[i].target_subject);
		free(r->v[i].subject);
	}
	free(r->v);
	r->v = NULL;
	r->nr = 0;
}

/* Read the reverts among the commits of in and not of out (either may be NULL: all, none). */
static int scan_mask(struct reverts *r, struct history *h, const bool *in, const bool *out,
		     uint32_t nr)
{
	git_odb *odb = NULL;

	if (git_repository_odb(&odb, h->repo) < 0)
		return pv_error_set(PV_ECORRUPT, "cannot open the object database: %s",
				    git_errmsg());
	for (uint32_t c = 0; c < nr; c++) {
		uint32_t np;
		struct revert_record rec;
		if ((in && !in[c]) || (out && out[c]))
			continue;
		dag_parents(&h->dag, c, &np);
		if (np > 1)
			continue;
		r->read++;
		if (!may_revert(odb, &h->dag.oids[c]) || !read_revert(h, c, &rec))
			continue;
		r->v = xrealloc(r->v, (r->nr + 1) * sizeof(*r->v));
		r->v[r->nr++] = rec;
	}
	git_odb_free(odb);
	return 0;
}

/* The ancestors of up, not of the commits of below (NULL: none), read. */
static int scan_between(struct reverts *r, struct history *h, const uint32_t *up, size_t nup,
			const uint32_t *below, size_t nbelow)
{
	bool *in = dag_ancestors(&h->dag, up, nup);
	bool *out = nbelow ? dag_ancestors(&h->dag, below, nbelow) : NULL;
	uint32_t nr = h->dag.nr;   /* resolving an id may load more: the masks cover these */
	int ret = scan_mask(r, h, in, out, nr);

	free(in);
	free(out);
	return ret;
}

/*
 * The cache: every revert below the newest mainline release, beside the
 * release index (reading the messages of a whole history takes seconds;
 * a triage asks in milliseconds).  A file for an older tip is extended
 * by what is new.  Text: a header with the tip, then per revert
 * "<sha> <target sha or -> <len> <len>" and the two subjects.  The format
 * number changes with the reading's rules: a file read by other rules is
 * read again (another patchver may share the cache).
 */
#define REVERTS_FORMAT "2"
static char *cache_path(const struct history *h)
{
	size_t n = h->ix_path ? strlen(h->ix_path) : 0;

	if (n < 4 || strcmp(h->ix_path + n - 4, ".idx"))
		return NULL;
	return xstrfmt("%.*s.reverts", (int)(n - 4), h->ix_path);
}

static bool read_record(FILE *f, struct history *h, struct revert_record *rec)
{
	char rhex[41], thex[41];
	size_t ls, lt;
	git_oid oid;

	memset(rec, 0, sizeof(*rec));
	if (fscanf(f, "%40s %40s %zu %zu", rhex, thex, &ls, &lt) != 4 || fgetc(f) != '\n' ||
	    ls > 4096 || lt > 4096 || git_oid_fromstr(&oid, rhex) < 0 ||
	    (rec->commit = dag_find(&h->dag, &oid)) == PV_NONE)
		return false;
	rec->target = PV_NONE;
	/* a target off the tags' history (a branch's) is known by its id alone */
	if (strcmp(thex, "-") && (git_oid_fromstr(&oid, thex) < 0 ||
				  (rec->target = dag_intern(&h->dag, &oid)) == PV_NONE))
		return false;
	rec->subject = xmalloc(ls + 1);
	rec->target_subject = lt ? xmalloc(lt + 1) : NULL;
	if (fread(rec->subject, 1, ls, f) != ls ||
	    (lt && fread(rec->target_subject, 1, lt, f) != lt) || fgetc(f) != '\n') {
		free(rec->subject);
		free(rec->target_subject);
		return false;
	}
	rec->subject[ls] = '\0';
	if (lt)
		rec->target_subject[lt] = '\0';
	return true;
}

/* The cached reverts and the tip they were read to: PV_NONE if none are usable. */
static uint32_t cache_read(struct reverts *r, struct history *h, const char *path)
{
	FILE *f = fopen(path, "r");
	char hex[41];
	git_oid oid;
	size_t n;
	uint32_t tip = PV_NONE;

	if (!f)
		return PV_NONE;
	if (fscanf(f, "patchver-reverts " REVERTS_FORMAT " %40s %zu", hex, &n) == 2 && fgetc(f) == '\n' &&
	    git_oid_fromstr(&oid, hex) == 0 && (tip = dag_find(&h->dag, &oid)) != PV_NONE) {
		for (size_t i = 0; i < n && tip != PV_NONE; i++) {
			struct revert_record rec;
			if (!read_record(f, h, &rec)) {
				tip = PV_NONE;   /* damaged, or another history's: read again */
				break;
			}
			r->v = xrealloc(r->v, (r->nr + 1) * sizeof(*r->v));
			r->v[r->nr++] = rec;
		}
	}
	fclose(f);
	if (tip == PV_NONE)
		drop_records(r);
	return tip;
}

/* Best effort: a cache that cannot be written is read again next time. */
static void cache_write(const struct reverts *r, const struct history *h, const char *path)
{
	char *tmp = xstrfmt("%s.%ld.tmp", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	char hex[GIT_OID_HEXSZ + 1];
	bool ok = f != NULL;

	if (ok)
		fprintf(f, "patchver-reverts " REVERTS_FORMAT " %s %zu\n",
			git_oid_tostr(hex, sizeof(hex), &h->dag.oids[r->tip]), r->nr);
	for (size_t i = 0; ok && i < r->nr; i++) {
		const struct revert_record *x = &r->v[i];
		size_t lt = x->target_subject ? strlen(x->target_subject) : 0;
		fprintf(f, "%s ", git_oid_tostr(hex, sizeof(hex), &h->dag.oids[x->commit]));
		fprintf(f, "%s %zu %zu\n%s%s\n", x->target == PV_NONE ? "-" :
			git_oid_tostr(hex, sizeof(hex), &h->dag.oids[x->target]),
			strlen(x->subject), lt, x->subject, lt ? x->target_subject : "");
	}
	if (f && (fclose(f) != 0 || !ok || rename(tmp, path) != 0))
		ok = false;
	if (!ok)
		unlink(tmp);
	free(tmp);
}

/* Every revert below the mainline tip r->tip, from the cache, extended or read anew. */
static int tip_reverts(struct reverts *r, struct history *h)
{
	char *path = cache_path(h);
	uint32_t old = path ? cache_read(r, h, path) : PV_NONE;
	bool *in_tip, *in_old = NULL;
	uint32_t nr;
	int ret;

	if (old == r->tip) {
		free(path);
		return 0;
	}
	in_tip = dag_ancestors(&h->dag, &r->tip, 1);
	nr = h->dag.nr;     /* resolving an id may load more: the masks cover these */
	/* a cache of an older tip: only what came since is read */
	if (old != PV_NONE && in_tip[old])
		in_old = dag_ancestors(&h->dag, &old, 1);
	else
		drop_records(r);
	ret = scan_mask(r, h, in_tip, in_old, nr);
	if (!ret && path)
		cache_write(r, h, path);
	free(in_old);
	free(in_tip);
	free(path);
	return ret;
}

int reverts_scan(struct reverts *r, struct history *h, const uint32_t *below, size_t n,
		 const uint32_t *also, size_t nalso)
{
	uint32_t tip = mainline_tip(h);
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->h = h;
	r->tip = tip;
	if (tip != PV_NONE && h->ix_path) {
		ret = tip_reverts(r, h);
		/* a range's end past the tip: read there too */
		if (!ret && nalso)
			ret = scan_between(r, h, also, nalso, &tip, 1);
	} else if (tip != PV_NONE || nalso) {
		/* no cache beside an index: only what is above below */
		uint32_t *up = xmalloc((nalso + 1) * sizeof(*up));
		size_t nup = 0;
		if (tip != PV_NONE)
			up[nup++] = tip;
		for (size_t i = 0; i < nalso; i++)
			up[nup++] = also[i];
		ret = scan_between(r, h, up, nup, below, n);
		free(up);
	}
	return ret;
}

/* Does x revert commit?  By subject, only a revert no older than it does. */
static bool names(const struct history *h, const struct revert_record *x, uint32_t commit,
		  const char *subject)
{
	if (x->commit == commit)
		return false;
	if (x->target != PV_NONE)
		return x->target == commit;
	return subject && x->target_subject && !strcmp(x->target_subject, subject) &&
	       h->dag.dates[x->commit] >= h->dag.dates[commit];
}

/* depth: a chain of reverts of reverts is short; a loop of same subjects is cut */
static uint32_t standing(const struct reverts *r, uint32_t commit, const char *subject,
			 int depth)
{
	if (depth > 8)
		return PV_NONE;
	for (size_t i = 0; i < r->nr; i++)
		if (names(r->h, &r->v[i], commit, subject) &&
		    standing(r, r->v[i].commit, r->v[i].subject, depth + 1) == PV_NONE)
			return r->v[i].commit;
	return PV_NONE;
}

uint32_t reverts_standing(const struct reverts *r, uint32_t commit, const char *subject)
{
	return standing(r, commit, subject, 0);
}

void reverts_free(struct reverts *r)
{
	drop_records(r);
	memset(r, 0, sizeof(*r));
}
