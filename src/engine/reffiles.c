/*
 * Tag refs read from the repository's files: packed-refs, then the loose
 * refs below refs/tags, which hide packed ones of the same name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/oid.h"
#include "patchver/engine/reffiles.h"

/* Something these readers do not handle: libgit2's refs code must read them. */
static int decline(const char *why)
{
	return pv_error_set(PV_EDECLINED, "%s", why);
}

/* Add a name already kept (in r->text or r->strings). */
static void add_kept(struct reffiles_list *l, char *name, const unsigned char *oid)
{
	l->v = xgrow(l->v, &l->alloc, l->nr + 1, sizeof(*l->v));
	l->v[l->nr].name = name;
	memcpy(l->v[l->nr].oid, oid, sizeof(l->v[l->nr].oid));
	l->v[l->nr].loose = false;
	l->nr++;
}

/* Add a copy of name, kept until reffiles_free(). */
static void add_ref(struct reffiles *r, struct reffiles_list *l, const char *name, size_t len,
		    const unsigned char *oid)
{
	r->strings = xgrow(r->strings, &r->astrings, r->nstrings + 1, sizeof(*r->strings));
	r->strings[r->nstrings] = xstrndup(name, len);
	add_kept(l, r->strings[r->nstrings++], oid);
}

static void free_list(struct reffiles_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_ref(const void *a, const void *b)
{
	return strcmp(((const struct reffiles_ref *)a)->name, ((const struct reffiles_ref *)b)->name);
}

const struct reffiles_ref *reffiles_find(const struct reffiles_list *l, const char *name)
{
	struct reffiles_ref key = { (char *)name, { 0 }, false };

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

/* One step of a digest: a multiply and a shift, invertible. */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* A digest taken as the bytes come: four lanes of eight bytes. */
struct digest {
	uint64_t lane[4], len;
	char part[32];              /* what is left of a 32-byte step */
	size_t npart;
};

static void digest_init(struct digest *d)
{
	memset(d, 0, sizeof(*d));
	d->lane[0] = 0x50565245464c4e53ull;
}

static void digest_step(struct digest *d, const char *p)
{
	uint64_t w;

	for (int k = 0; k < 4; k++) {
		memcpy(&w, p + 8 * k, 8);
		d->lane[k] = mix(d->lane[k], w);
	}
}

static void digest_add(struct digest *d, const char *p, size_t n)
{
	d->len += n;
	if (d->npart) {
		size_t take = n < 32 - d->npart ? n : 32 - d->npart;
		memcpy(d->part + d->npart, p, take);
		d->npart += take;
		p += take;
		n -= take;
		if (d->npart < 32)
			return;
		digest_step(d, d->part);
		d->npart = 0;
	}
	for (; n >= 32; p += 32, n -= 32)
		digest_step(d, p);
	memcpy(d->part, p, n);
	d->npart = n;
}

static uint64_t digest_end(struct digest *d)
{
	uint64_t w;

	memset(d->part + d->npart, 0, 32 - d->npart);
	digest_step(d, d->part);
	w = mix(mix(mix(mix(d->len, d->lane[0]), d->lane[1]), d->lane[2]), d->lane[3]);
	return w ? w : 1;
}

/*
 * Where the tag lines start: git writes packed-refs sorted, so they make
 * one block (their peel lines among them), which ends the file unless a
 * ref sorts after refs/tags (the parse checks that).  The offset of the
 * first tag line in [text, text + len), or false.
 */
static bool tag_start(const char *text, size_t len, size_t from, size_t *start)
{
	const char *p = len > from ? memmem(text + from, len - from, " refs/tags/", 11) : NULL;

	if (!p || p - text < 40 || (p - text > 40 && p[-41] != '\n'))
		return false;
	*start = (size_t)(p - 40 - text);
	return true;
}

/*
 * The lines of packed-refs: "<hex> <refname>"; "^<hex>" peel lines and "#"
 * headers skipped.  The names stay in text, each line NUL-ended in place:
 * 6,700 tags cost no allocation each; the sort only if git left them
 * unsorted.
 */
static int parse_packed(struct reffiles *r, char *text, size_t size)
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
		if (len < 42 || line[40] != ' ' || oid_from_hex(line, 40, oid) < 0 ||
		    !plain_name(name, len - 41))
			return decline("an unusual packed-refs line");
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

/* read(2) until n bytes or the end: the count, or -1. */
static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/*
 * Do packed-refs' tag lines still have the digest known?  The file streams
 * through one small buffer: on virtual machines the first touch of each
 * page costs microseconds, and 6,700 tags fill 170 pages.  The lines before
 * the tags (the other refs) are kept in *head.
 */
static bool tags_unchanged(const char *path, uint64_t known, struct sbuf *head, size_t *start)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[32 << 10];
	struct digest d;
	bool found = false;
	ssize_t n = 0;

	if (fd < 0)
		return false;
	while (!found && (n = read_full(fd, buf, sizeof(buf))) > 0) {
		size_t from = head->len > 50 ? head->len - 50 : 0;
		sbuf_add(head, buf, (size_t)n);
		found = tag_start(head->buf, head->len, from, start);
	}
	if (found) {
		digest_init(&d);
		digest_add(&d, head->buf + *start, head->len - *start);
		while ((n = read_full(fd, buf, sizeof(buf))) > 0)
			digest_add(&d, buf, (size_t)n);
	}
	close(fd);
	return found && n == 0 && digest_end(&d) == known;
}

/*
 * packed-refs, into r->text, where the names live.  When its tag lines
 * still have the digest known, only the lines before them are kept and
 * parsed; else all of it, and r->tag_digest is that of the tag lines' block
 * (0 when they make none: other refs among or after them).
 */
static int read_packed(struct reffiles *r, uint64_t known)
{
	char *path = xstrfmt("%s/packed-refs", r->gitdir);
	struct sbuf head = SBUF_INIT;
	size_t size = 0, start = 0;
	bool block;
	int ret;

	if (known && tags_unchanged(path, known, &head, &start)) {
		free(path);
		r->tags_known = true;
		r->tag_digest = known;
		head.buf[start] = '\0';
		r->text = head.buf;     /* now r's */
		return parse_packed(r, r->text, start);
	}
	sbuf_free(&head);
	r->text = file_read(path, &size);
	free(path);
	if (!r->text)
		return 0;
	block = tag_start(r->text, size, 0, &start);
	if (block) {
		struct digest d;
		digest_init(&d);
		digest_add(&d, r->text + start, size - start);
		r->tag_digest = digest_end(&d);
	}
	if ((ret = parse_packed(r, r->text, size)) || !block)
		return ret;
	/* other refs among or after the tags: no block, no digest to trust */
	for (size_t i = 0; i < r->packed.nr; i++)
		if (r->packed.v[i].name >= r->text + start &&
		    strncmp(r->packed.v[i].name, "refs/tags/", 10))
			r->tag_digest = 0;
	return 0;
}

/* A loose ref file: its id, or decline (symbolic, unreadable, odd). */
static int read_loose(struct reffiles *r, const char *path, unsigned char *oid)
{
	char buf[42];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	if (n < 40 || (n > 40 && buf[40] != '\n') || oid_from_hex(buf, 40, oid) < 0)
		return decline("a symbolic or unusual loose ref");
	return 0;
}

/* Every loose ref below dir (relative to the git directory) into loose. */
static int read_loose_tags(struct reffiles *r, const char *dir, struct reffiles_list *loose)
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
			ret = decline("a hidden, locked or oddly named file among the tags");
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
static void settle_tags(struct reffiles *r, struct reffiles_list *loose)
{
	if (!loose->nr)
		return;
	qsort(loose->v, loose->nr, sizeof(*loose->v), cmp_ref);
	for (size_t i = 0; i < r->tags.nr; i++) {
		struct reffiles_ref *p = &r->tags.v[i];

		if (!reffiles_find(loose, p->name))
			add_kept(loose, p->name, p->oid);
	}
	free(r->tags.v);
	r->tags = *loose;
	memset(loose, 0, sizeof(*loose));
	qsort(r->tags.v, r->tags.nr, sizeof(*r->tags.v), cmp_ref);
}

int reffiles_tags_known(struct reffiles *r, const char *gitdir, uint64_t digest,
		       bool (*has_tag)(const void *ctx, const char *refname), const void *ctx)
{
	struct reffiles_list loose = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	r->gitdir = xstrdup(gitdir);
	r->has_tag = has_tag;
	r->has_tag_ctx = ctx;
	if (getenv("GIT_NAMESPACE"))
		return decline("GIT_NAMESPACE");
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

int reffiles_tags(struct reffiles *r, const char *gitdir)
{
	return reffiles_tags_known(r, gitdir, 0, NULL, NULL);
}

/* Is refname packed (or, for a tag the caller knows, packed or loose)? */
static bool is_packed(const struct reffiles *r, const char *refname)
{
	if (r->tags_known && !strncmp(refname, "refs/tags/", 10))
		return r->has_tag(r->has_tag_ctx, refname);
	return reffiles_find(&r->packed, refname) != NULL;
}

/* The names in dir, sorted, into l (ids unused). */
static void list_dir(struct reffiles *r, const char *dir, struct reffiles_list *l)
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

/* What gitdir and gitdir/refs hold, listed once. */
static void list_top(struct reffiles *r)
{
	if (!r->listed) {
		char *refs = xstrfmt("%s/refs", r->gitdir);
		list_dir(r, r->gitdir, &r->top_files);
		list_dir(r, refs, &r->top_refs);
		free(refs);
		r->listed = true;
	}
}

/* Is gitdir/prefix/name a file?  Asked only where a listing says it may be. */
static bool file_in(const char *gitdir, const char *prefix, const char *name)
{
	char *path = xstrfmt("%s/%s%s", gitdir, prefix, name);
	bool yes = path_is_file(path);

	free(path);
	return yes;
}

/* The first of names[0..n) (sorted) not before key. */
static size_t lower_bound(const char *const *names, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(names[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The tag named refs/tags/<name>, or n. */
static size_t tag_named(const char *const *names, size_t n, const char *name)
{
	char *key = xstrfmt("refs/tags/%s", name);
	size_t i = lower_bound(names, n, key);

	if (i < n && strcmp(names[i], key))
		i = n;
	free(key);
	return i;
}

/*
 * The tags whose name's first component is entry (a file or directory of
 * gitdir/prefix): ambiguous where gitdir/prefix/<name> is a file.
 */
static void mark_files(struct reffiles *r, const char *const *names, size_t n,
		       const char *prefix, const char *entry, bool *ambiguous)
{
	char *lo = xstrfmt("refs/tags/%s/", entry), *hi = xstrdup(lo);
	size_t i = tag_named(names, n, entry), end;

	hi[strlen(hi) - 1] = '/' + 1;
	if (i < n && file_in(r->gitdir, prefix, names[i] + 10))
		ambiguous[i] = true;
	for (i = lower_bound(names, n, lo), end = lower_bound(names, n, hi); i < end; i++)
		if (file_in(r->gitdir, prefix, names[i] + 10))
			ambiguous[i] = true;
	free(lo);
	free(hi);
}

void reffiles_short_names(struct reffiles *r, const char **names, size_t n)
{
	bool *ambiguous = xcalloc(n + 1, sizeof(*ambiguous));
	size_t i, end;

	list_top(r);
	for (i = 0; i < r->top_refs.nr; i++)
		mark_files(r, names, n, "refs/", r->top_refs.v[i].name, ambiguous);
	for (i = 0; i < r->top_files.nr; i++)
		mark_files(r, names, n, "", r->top_files.v[i].name, ambiguous);
	/* a packed refs/<name> outside refs/tags */
	for (i = 0; i < r->packed.nr; i++) {
		const char *p = r->packed.v[i].name;
		size_t t;

		if (!strncmp(p, "refs/", 5) && strncmp(p, "refs/tags/", 10) &&
		    (t = tag_named(names, n, p + 5)) < n)
			ambiguous[t] = true;
	}
	/* and inside: the tag tags/<x> beside a tag <x> */
	for (i = lower_bound(names, n, "refs/tags/tags/"), end = lower_bound(names, n, "refs/tags/tags0");
	     i < end; i++) {
		char *ref = xstrfmt("refs/%s", names[i] + 10);
		ambiguous[i] = ambiguous[i] || is_packed(r, ref);
		free(ref);
	}
	for (i = 0; i < n; i++)
		names[i] += ambiguous[i] ? 5 : 10;
	free(ambiguous);
}

const char *reffiles_short_of(struct reffiles *r, const char *refname)
{
	const char *name = refname;

	reffiles_short_names(r, &name, 1);
	return name;
}

bool reffiles_exists(struct reffiles *r, const char *refname)
{
	char *path = xstrfmt("%s/%s", r->gitdir, refname);
	bool yes = is_packed(r, refname) || path_is_file(path);

	free(path);
	return yes;
}

void reffiles_free(struct reffiles *r)
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
static bool packed_replace_refs(const struct reffiles_list *l)
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

bool reffiles_replace_refs_exist(const char *gitdir)
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
bool reffiles_history_replaced(struct reffiles *r)
{
	const char *graft_env = getenv("GIT_GRAFT_FILE");
	char *grafts = xstrfmt("%s/info/grafts", r->gitdir);
	bool yes = (graft_env && *graft_env) || path_is_file(grafts);

	free(grafts);
	if (yes || getenv("GIT_NO_REPLACE_OBJECTS"))
		return yes;
	/* packed-refs was read whole by reffiles_tags: not read again */
	return loose_replace_refs(r->gitdir) || packed_replace_refs(&r->packed);
}
