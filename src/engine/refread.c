/*
 * Tag refs read from the repository's files: packed-refs, then the loose
 * refs below refs/tags, which hide packed ones of the same name.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/refread.h"

static int decline(struct refread *r, const char *why)
{
	if (!r->why)
		r->why = why;
	return -1;
}

/* Add a name already kept (in r->text or r->strings). */
static void add_kept(struct refread_list *l, char *name, const unsigned char *oid)
{
	l->v = xgrow(l->v, &l->alloc, l->nr + 1, sizeof(*l->v));
	l->v[l->nr].name = name;
	memcpy(l->v[l->nr].oid, oid, sizeof(l->v[l->nr].oid));
	l->v[l->nr].loose = false;
	l->nr++;
}

/* Add a copy of name, kept until refread_free(). */
static void add_ref(struct refread *r, struct refread_list *l, const char *name, size_t len,
		    const unsigned char *oid)
{
	r->strings = xgrow(r->strings, &r->astrings, r->nstrings + 1, sizeof(*r->strings));
	r->strings[r->nstrings] = xstrndup(name, len);
	add_kept(l, r->strings[r->nstrings++], oid);
}

static void free_list(struct refread_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_ref(const void *a, const void *b)
{
	return strcmp(((const struct refread_ref *)a)->name, ((const struct refread_ref *)b)->name);
}

const struct refread_ref *refread_find(const struct refread_list *l, const char *name)
{
	struct refread_ref key = { (char *)name, { 0 }, false };

	return l->nr ? bsearch(&key, l->v, l->nr, sizeof(*l->v), cmp_ref) : NULL;
}

/*
 * A ref name git and libgit2 surely read alike: plain characters, no
 * empty, dot-led or ".lock" component, no "..".  Anything else declines.
 */
static bool plain_name(const char *name, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		unsigned char c = i < len ? (unsigned char)name[i] : '/';

		if (c == '/') {
			if (i == start || name[start] == '.' ||
			    (i - start >= 5 && !memcmp(name + i - 5, ".lock", 5)))
				return false;
			start = i + 1;
		} else if (c <= ' ' || c >= 0x7f || strchr("~^:?*[\\", c) ||
			   (c == '.' && i + 1 < len && name[i + 1] == '.') ||
			   (c == '@' && i + 1 < len && name[i + 1] == '{')) {
			return false;
		}
	}
	return true;
}

/* One step of the tag lines' digest: a multiply and a shift, invertible. */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static bool tag_line(const char *line, size_t len)
{
	return len > 51 && !memcmp(line + 40, " refs/tags/", 11);
}

/* The end of the line at p: a peel line's without a search. */
static const char *line_end(const char *p, const char *end)
{
	const char *eol;

	if (end - p >= 42 && p[0] == '^' && p[41] == '\n')
		return p + 41;
	eol = end - p > 41 ? memchr(p + 41, '\n', (size_t)(end - p - 41)) : memchr(p, '\n', (size_t)(end - p));
	return eol ? eol : end;
}

/* Fold tag line [line, line + len) into the digest h. */
static uint64_t digest_line(uint64_t h, const char *line, size_t len)
{
	uint64_t w;
	size_t i;

	h = mix(h, len);
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, line + i, 8);
		h = mix(h, w);
	}
	w = 0;
	memcpy(&w, line + i, len - i);
	return mix(h, w);
}

/*
 * The lines of packed-refs: "<hex> <refname>"; "^<hex>" peel lines and "#"
 * headers skipped.  The names stay in text, each line NUL-ended in place:
 * 6,700 tags cost no allocation each; the sort only if git left them
 * unsorted.
 */
static int parse_packed(struct refread *r, char *text, size_t size)
{
	char *line, *end = text + size, *eol;
	bool sorted = true;

	for (line = text; line < end; line = eol + 1) {
		unsigned char oid[20];
		char *name = line + 41;
		size_t len;

		/* the text ends with a NUL: a last line without its newline ends there */
		if (!(eol = memchr(line, '\n', (size_t)(end - line))))
			eol = end;
		*eol = '\0';
		len = (size_t)(eol - line);
		if (len && (line[0] == '#' || line[0] == '^'))
			continue;
		if (len < 42 || line[40] != ' ' || hex_to_id(line, 40, oid) < 0 ||
		    !plain_name(name, len - 41))
			return decline(r, "an unusual packed-refs line");
		if (r->packed.nr && strcmp(r->packed.v[r->packed.nr - 1].name, name) >= 0)
			sorted = false;
		add_kept(&r->packed, name, oid);
		if (!strncmp(name, "refs/tags/", 10))
			add_kept(&r->tags, name, oid);
	}
	if (!sorted) {
		qsort(r->packed.v, r->packed.nr, sizeof(*r->packed.v), cmp_ref);
		if (r->tags.nr)
			qsort(r->tags.v, r->tags.nr, sizeof(*r->tags.v), cmp_ref);
	}
	return 0;
}

/*
 * packed-refs, mapped in one go and copied to r->text, where the names
 * live.  When its tag lines are the ones the caller knows (their digest),
 * only the other lines are copied and parsed.
 */
static int read_packed(struct refread *r, uint64_t known)
{
	char *path = xstrfmt("%s/packed-refs", r->gitdir);
	size_t size = 0, kept = 0;
	const char *map = file_map(path, &size);
	uint64_t h = 0x50565245464c4e53ull;
	int ret;

	free(path);
	/*
	 * One pass: the digest of the tag lines (the tag list depends on
	 * nothing else) and a copy of the other refs' lines, peel lines
	 * dropped.  When the digest is the caller's, those are all to parse.
	 */
	r->text = xmalloc(size + 2);    /* a last line gets its newline */
	for (const char *line = map, *end = map + size, *eol; map && line < end; line = eol + 1) {
		size_t len;

		eol = line_end(line, end);
		len = (size_t)(eol - line);
		if (tag_line(line, len)) {
			h = digest_line(h, line, len);
		} else if (*line != '^') {
			memcpy(r->text + kept, line, len);
			kept += len;
			r->text[kept++] = '\n';
		}
	}
	r->tag_digest = h ? h : 1;
	r->tags_known = map && known && r->tag_digest == known;
	if (map && !r->tags_known) {
		memcpy(r->text, map, size);
		kept = size;
	}
	r->text[kept] = '\0';
	ret = parse_packed(r, r->text, kept);
	file_unmap(map, size);
	return ret;
}

/* A loose ref file: its id, or decline (symbolic, unreadable, odd). */
static int read_loose(struct refread *r, const char *path, unsigned char *oid)
{
	char buf[42];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	if (n < 40 || (n > 40 && buf[40] != '\n') || hex_to_id(buf, 40, oid) < 0)
		return decline(r, "a symbolic or unusual loose ref");
	return 0;
}

/* Every loose ref below dir (relative to the git directory) into loose. */
static int read_loose_tags(struct refread *r, const char *dir, struct refread_list *loose)
{
	char *path = xstrfmt("%s/%s", r->gitdir, dir);
	DIR *d = opendir(path);
	struct dirent *e;
	int ret = 0;

	free(path);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		unsigned char oid[20];
		char *sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = xstrfmt("%s/%s", dir, e->d_name);
		path = xstrfmt("%s/%s", r->gitdir, sub);
		if (!plain_name(sub, strlen(sub)))
			ret = decline(r, "a hidden, locked or oddly named file among the tags");
		else if (path_is_dir(path))
			ret = read_loose_tags(r, sub, loose);
		else if ((ret = read_loose(r, path, oid)) == 0) {
			add_ref(r, loose, sub, strlen(sub), oid);
			loose->v[loose->nr - 1].loose = true;
		}
		free(path);
		free(sub);
	}
	closedir(d);
	return ret;
}

/*
 * r->tags in name order: the loose ones, and the packed ones no loose ref
 * hides (with no loose tag, as packed-refs has them: already in order).
 */
static void settle_tags(struct refread *r, struct refread_list *loose)
{
	if (!loose->nr)
		return;
	qsort(loose->v, loose->nr, sizeof(*loose->v), cmp_ref);
	for (size_t i = 0; i < r->tags.nr; i++) {
		struct refread_ref *p = &r->tags.v[i];

		if (!refread_find(loose, p->name))
			add_kept(loose, p->name, p->oid);
	}
	free(r->tags.v);
	r->tags = *loose;
	memset(loose, 0, sizeof(*loose));
	qsort(r->tags.v, r->tags.nr, sizeof(*r->tags.v), cmp_ref);
}

int refread_tags_known(struct refread *r, const char *gitdir, uint64_t digest,
		       bool (*has_tag)(const void *ctx, const char *refname), const void *ctx)
{
	struct refread_list loose = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	r->gitdir = xstrdup(gitdir);
	r->has_tag = has_tag;
	r->has_tag_ctx = ctx;
	if (getenv("GIT_NAMESPACE"))
		return decline(r, "GIT_NAMESPACE");
	if (!(ret = read_packed(r, has_tag ? digest : 0)) &&
	    !(ret = read_loose_tags(r, "refs/tags", &loose))) {
		if (r->tags_known) {
			/* the loose ones alone: the caller holds the rest */
			if (loose.nr)
				qsort(loose.v, loose.nr, sizeof(*loose.v), cmp_ref);
			r->tags = loose;
			memset(&loose, 0, sizeof(loose));
		} else {
			settle_tags(r, &loose);
		}
	}
	free_list(&loose);
	return ret;
}

int refread_tags(struct refread *r, const char *gitdir)
{
	return refread_tags_known(r, gitdir, 0, NULL, NULL);
}

/* Is refname packed (or, for a tag the caller knows, packed or loose)? */
static bool is_packed(const struct refread *r, const char *refname)
{
	if (r->tags_known && !strncmp(refname, "refs/tags/", 10))
		return r->has_tag(r->has_tag_ctx, refname);
	return refread_find(&r->packed, refname) != NULL;
}

/* The names in dir, sorted, into l (ids unused). */
static void list_dir(struct refread *r, const char *dir, struct refread_list *l)
{
	static const unsigned char none[20];
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		add_ref(r, l, e->d_name, strlen(e->d_name), none);
	if (d)
		closedir(d);
	if (l->nr)
		qsort(l->v, l->nr, sizeof(*l->v), cmp_ref);
}

/* Could a file dir/name exist?  Its first component must be in dir's listing. */
static bool may_exist(const struct refread_list *listing, const char *name)
{
	size_t k = strcspn(name, "/"), lo = 0, hi = listing->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *v = listing->v[mid].name;
		int c = strncmp(v, name, k);

		if (!c && v[k])
			c = 1;              /* v is longer: it sorts after */
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Is gitdir/prefix/name a file?  Asked only where a listing says it may be. */
static bool file_in(const char *gitdir, const char *prefix, const char *name)
{
	char *path = xstrfmt("%s/%s%s", gitdir, prefix, name);
	bool yes = path_is_file(path);

	free(path);
	return yes;
}

/*
 * Two directory listings rule out the files for most tags: a stat for
 * each would cost more than the rest of a quick answer.  No allocation
 * but the answer for the common name (6,700 tags at every quick query).
 */
const char *refread_short_of(struct refread *r, const char *refname)
{
	const char *name = refname + strlen("refs/tags/");
	size_t n = strlen(name);
	char buf[256], *ref = n + 6 <= sizeof(buf) ? buf : xmalloc(n + 6);
	bool ambiguous;

	if (!r->listed) {
		char *refs = xstrfmt("%s/refs", r->gitdir);
		list_dir(r, r->gitdir, &r->top_files);
		list_dir(r, refs, &r->top_refs);
		free(refs);
		r->listed = true;
	}
	memcpy(ref, "refs/", 5);
	memcpy(ref + 5, name, n + 1);
	ambiguous = is_packed(r, ref) ||
		    (may_exist(&r->top_refs, name) && file_in(r->gitdir, "refs/", name)) ||
		    (may_exist(&r->top_files, name) && file_in(r->gitdir, "", name));
	if (ref != buf)
		free(ref);
	return ambiguous ? refname + strlen("refs/") : name;
}

char *refread_short_name(struct refread *r, const char *refname)
{
	return xstrdup(refread_short_of(r, refname));
}

bool refread_exists(struct refread *r, const char *refname)
{
	char *path = xstrfmt("%s/%s", r->gitdir, refname);
	bool yes = is_packed(r, refname) || path_is_file(path);

	free(path);
	return yes;
}

void refread_free(struct refread *r)
{
	free_list(&r->packed);
	free_list(&r->tags);
	free_list(&r->top_files);
	free_list(&r->top_refs);
	for (size_t i = 0; i < r->nstrings; i++)
		free(r->strings[i]);
	free(r->strings);
	free(r->text);
	free(r->gitdir);
	memset(r, 0, sizeof(*r));
}

/* A loose ref below refs/replace (or GIT_REPLACE_REF_BASE moving them)? */
static bool loose_replace_refs(const char *gitdir)
{
	char *loose = xstrfmt("%s/refs/replace", gitdir);
	bool yes = getenv("GIT_REPLACE_REF_BASE") != NULL;
	DIR *d;
	struct dirent *e;

	for (d = yes ? NULL : opendir(loose); d && !yes && (e = readdir(d));)
		yes = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	free(loose);
	return yes;
}

/* A packed ref below refs/replace/, in l (sorted by name)? */
static bool packed_replace_refs(const struct refread_list *l)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(l->v[mid].name, "refs/replace/") < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nr && !strncmp(l->v[lo].name, "refs/replace/", 13);
}

bool refread_replace_refs_exist(const char *gitdir)
{
	char *packed = xstrfmt("%s/packed-refs", gitdir);
	bool yes = loose_replace_refs(gitdir);
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	/* packed-refs: "<hex> <refname>" lines */
	for (f = yes ? NULL : fopen(packed, "r"); f && !yes && getline(&line, &cap, f) > 0;)
		yes = strlen(line) > 41 + 13 && !strncmp(line + 41, "refs/replace/", 13);
	if (f)
		fclose(f);
	free(line);
	free(packed);
	return yes;
}

/*
 * Replace refs that git reads (unless GIT_NO_REPLACE_OBJECTS), or a graft
 * file (GIT_GRAFT_FILE or info/grafts).  Cautious: core.useReplaceRefs is
 * not read here.
 */
bool refread_history_replaced(struct refread *r)
{
	const char *graft_env = getenv("GIT_GRAFT_FILE");
	char *grafts = xstrfmt("%s/info/grafts", r->gitdir);
	bool yes = (graft_env && *graft_env) || path_is_file(grafts);

	free(grafts);
	if (yes || getenv("GIT_NO_REPLACE_OBJECTS"))
		return yes;
	/* packed-refs was read whole by refread_tags: not read again */
	return loose_replace_refs(r->gitdir) || packed_replace_refs(&r->packed);
}
