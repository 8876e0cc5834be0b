/*
 * The release index file: layout, validation, mapping and writing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/base/cachedir.h"
#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/relindex.h"

#define MAGIC "PVRELIX\n"
#define ENDIAN_MARK 0x01020304u
#define BLOCK_SHIFT 12              /* the body is checked in 4 KiB blocks */
#define BLOCK (1u << BLOCK_SHIFT)

enum section {
	S_IDENT, S_GLOB, S_OIDS, S_DATES, S_TREES, S_TOPMASK, S_PAR_OFF, S_PAR_NR, S_PARENTS, S_SLOTS,
	S_MIN_DESC, S_FIRST, S_NAMES, S_SEGS, S_TAGS, S_IVS, S_POOL, S_BACKPORTS, S_BPNOTES, S_BPREVERTS, S_NR
};

struct header {
	char magic[8];
	uint32_t version, endian;
	uint64_t size;
	uint64_t checksum;              /* of this header (the field zero) and the block sums */
	uint32_t nblocks;               /* sums of the body's blocks follow the header */
	uint32_t ncommits, ntags, nparents, nsegs, nslots, nivs, nbackports, nbpnotes, nbpreverts;
	int64_t build_msec;
	uint64_t tag_digest;            /* reffiles.h's, of the tags' packed-refs lines */
	struct { uint64_t off, len; } sect[S_NR];
};

/*
 * Fletcher-style sum over 64-bit words: any flipped byte changes it, and
 * it runs at memory speed, so every reader can afford to check it.
 */
static uint64_t checksum(const void *buf, size_t size)
{
	const unsigned char *p = buf;
	uint64_t a = 1, b = 0, w;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&w, p + i, 8);
		a += w;
		b += a;
	}
	for (; i < size; i++) {
		a += p[i];
		b += a;
	}
	return a ^ (b * 0x9e3779b97f4a7c15ull);
}

static size_t table_off(void)
{
	return (sizeof(struct header) + 7) & ~(size_t)7;
}

/* Where the body starts: after the header and one sum per block. */
static size_t body_off(uint32_t nblocks)
{
	return table_off() + (size_t)nblocks * 8;
}

static uint64_t header_checksum(const unsigned char *map, uint32_t nblocks)
{
	struct header h;

	memcpy(&h, map, sizeof(h));
	h.checksum = 0;
	return checksum(&h, sizeof(h)) ^ checksum(map + table_off(), (size_t)nblocks * 8) * 31;
}

static uint64_t block_sum(const unsigned char *map, size_t size, uint32_t nblocks, uint32_t k)
{
	size_t start = body_off(nblocks) + (size_t)k * BLOCK;
	size_t end = start + BLOCK < size ? start + BLOCK : size;

	return checksum(map + start, end - start);
}

bool relindex_check(struct relindex *ix, const void *p, size_t len)
{
	const unsigned char *map = ix->map;
	size_t base = body_off(ix->nblocks), off = (size_t)((const unsigned char *)p - map);
	uint64_t want;

	if (!ix->verified || !len)
		return true;            /* checked whole when opened */
	for (size_t k = (off - base) >> BLOCK_SHIFT; k <= (off + len - 1 - base) >> BLOCK_SHIFT; k++) {
		if (ix->verified[k])
			continue;
		memcpy(&want, map + table_off() + k * 8, 8);
		if (block_sum(map, ix->size, ix->nblocks, (uint32_t)k) != want)
			return false;
		ix->verified[k] = 1;
	}
	return true;
}

/* A section of n records of elem bytes, or NULL if the header lies. */
static const void *section(const struct header *h, const unsigned char *map,
			   enum section s, uint64_t n, size_t elem)
{
	uint64_t off = h->sect[s].off, len = h->sect[s].len;

	if (off % 8 || off < body_off(h->nblocks) || off > h->size || len > h->size - off ||
	    len != n * elem)
		return NULL;
	return map + off;
}

static const char *string_section(const struct header *h, const unsigned char *map,
				  enum section s)
{
	const char *str = section(h, map, s, h->sect[s].len, 1);

	if (!str || !h->sect[s].len || str[h->sect[s].len - 1])
		return NULL;
	return str;
}

/* Every index in range: a valid file can never make a reader stray. */
static bool check_tag_links(const struct relindex *ix, uint64_t pool_len)
{
	uint32_t n = ix->dag.nr;

	for (uint32_t t = 0; t < ix->ntags; t++) {
		const struct relindex_tag *tag = &ix->tags[t];
		if (tag->name_off >= pool_len || (tag->commit >= n && tag->commit != PV_NONE) ||
		    tag->iv_off > tag[1].iv_off)
			return false;
	}
	return ix->tags[ix->ntags].iv_off == ix->nivs;
}

/* The intervals in range (they are read only to answer containment). */
static bool check_ivs(const struct relindex *ix)
{
	for (uint32_t i = 0; i < ix->nivs; i++)
		if (ix->ivs[i].lo >= ix->ivs[i].hi || ix->ivs[i].hi > ix->dag.nr)
			return false;
	return true;
}

/* Map [p, p + len) of the file in one call, not a fault per 64 KiB (Linux 5.14). */
static void populate(const void *p, size_t len)
{
	uintptr_t page = 4096, start = (uintptr_t)p & ~(page - 1);

	if (len >= 16 * page)
		madvise((void *)start, (uintptr_t)p + len - start, 22 /* MADV_POPULATE_READ */);
}

bool relindex_ivs_ok(struct relindex *ix)
{
	if (!ix->ivs_checked) {
		populate(ix->ivs, (size_t)ix->nivs * sizeof(*ix->ivs));
		ix->ivs_checked = relindex_check(ix, ix->ivs, (size_t)ix->nivs * sizeof(*ix->ivs)) &&
				  check_ivs(ix);
	}
	return ix->ivs_checked;
}

/* Are backport record b's ids in range? */
static bool backport_in_range(const struct relindex *ix, const struct backport *b)
{
	uint32_t n = ix->dag.nr;

	return b->upstream < n && b->commit < n && b->tag < ix->ntags &&
	       (b->revert < n || b->revert == PV_NONE) &&
	       (b->revert_tag < ix->ntags || b->revert_tag == PV_NONE);
}

bool relindex_backport_ok(struct relindex *ix, const struct backport *b)
{
	return relindex_check(ix, b, sizeof(*b)) && backport_in_range(ix, b);
}

/*
 * The backport map's ids in range and its records in lookup order (a full
 * open; a lazy reader checks the records it reads: relindex_backport_ok).
 */
static bool check_backports(const struct relindex *ix)
{
	uint32_t n = ix->dag.nr;

	for (uint32_t i = 0; i < ix->nbackports; i++)
		if (!backport_in_range(ix, &ix->backports[i]) ||
		    (i && ix->backports[i - 1].upstream > ix->backports[i].upstream))
			return false;
	for (uint32_t i = 0; i < ix->nbpnotes; i++)
		if (ix->bpnotes[i].commit >= n || (i && ix->bpnotes[i - 1].commit > ix->bpnotes[i].commit) ||
		    memchr(ix->bpnotes[i].hex, '\0', sizeof(ix->bpnotes[i].hex)) == NULL)
			return false;
	for (uint32_t i = 0; i < ix->nbpreverts; i++)
		if (ix->bpreverts[i].commit >= n || ix->bpreverts[i].revert >= n ||
		    (i && ix->bpreverts[i - 1].commit >= ix->bpreverts[i].commit))
			return false;
	return true;
}

static bool check_links(const struct relindex *ix)
{
	uint32_t n = ix->dag.nr;

	for (uint32_t i = 0; i < n; i++) {
		if (ix->dag.par_off[i] > ix->dag.nparents || ix->dag.par_nr[i] > ix->dag.nparents - ix->dag.par_off[i] ||
		    ix->names[i].seg >= ix->nsegs || (ix->first[i] >= ix->ntags && ix->first[i] != PV_NONE))
			return false;
	}
	for (uint32_t i = 0; i < ix->dag.nparents; i++)
		if (ix->dag.parents[i] >= n)
			return false;
	for (uint32_t i = 0, used = 0; i < ix->dag.nslots; i++)
		if (ix->dag.slots[i] > n || (ix->dag.slots[i] && ++used > n))
			return false;   /* an empty slot must end every probe */
	for (uint32_t i = 1; i < ix->nsegs; i++)
		if (ix->segs[i].prev >= i || ix->segs[i].tip >= ix->ntags)
			return false;
	return true;
}


/* Point ix's arrays into map; false (and why) if anything is off. */
static bool parse(struct relindex *ix, const unsigned char *map, size_t size,
		  const char *ident, bool lazy, const char **why)
{
	struct header h;
	uint64_t n;

	if (size < table_off())
		return *why = "truncated", false;
	memcpy(&h, map, sizeof(h));
	if (memcmp(h.magic, MAGIC, 8))
		return *why = "not a patchver index", false;
	if (h.version != RELINDEX_VERSION || h.endian != ENDIAN_MARK)
		return *why = "another format version", false;
	if (h.size != size || size < body_off(h.nblocks) ||
	    h.nblocks != (size - body_off(h.nblocks) + BLOCK - 1) / BLOCK)
		return *why = "truncated", false;
	if (h.checksum != header_checksum(map, h.nblocks))
		return *why = "checksum mismatch (damaged)", false;
	ix->map = (void *)map;
	ix->size = size;
	ix->nblocks = h.nblocks;
	ix->verified = xcalloc(h.nblocks + 1, 1);
	n = h.ncommits;
	ix->dag.nr = h.ncommits;
	ix->ntags = h.ntags;
	ix->dag.nparents = h.nparents;
	ix->nsegs = h.nsegs;
	ix->dag.nslots = h.nslots;
	ix->nivs = h.nivs;
	ix->build_msec = h.build_msec;
	ix->tag_digest = h.tag_digest;
	ix->ident = string_section(&h, map, S_IDENT);
	ix->glob = string_section(&h, map, S_GLOB);
	ix->pool = string_section(&h, map, S_POOL);
	ix->dag.oids = section(&h, map, S_OIDS, n, sizeof(git_oid));
	ix->dag.dates = section(&h, map, S_DATES, n, sizeof(int64_t));
	ix->dag.trees = section(&h, map, S_TREES, n, sizeof(git_oid));
	ix->dag.topmask = section(&h, map, S_TOPMASK, n, sizeof(uint64_t));
	ix->dag.par_off = section(&h, map, S_PAR_OFF, n, sizeof(uint32_t));
	ix->dag.par_nr = section(&h, map, S_PAR_NR, n, sizeof(uint16_t));
	ix->dag.parents = section(&h, map, S_PARENTS, h.nparents, sizeof(uint32_t));
	ix->dag.slots = section(&h, map, S_SLOTS, h.nslots, sizeof(uint32_t));
	ix->min_desc = section(&h, map, S_MIN_DESC, n, sizeof(int64_t));
	ix->first = section(&h, map, S_FIRST, n, sizeof(uint32_t));
	ix->names = section(&h, map, S_NAMES, n, sizeof(struct relindex_name));
	ix->segs = section(&h, map, S_SEGS, h.nsegs, sizeof(struct name_seg));
	ix->tags = section(&h, map, S_TAGS, (uint64_t)h.ntags + 1, sizeof(struct relindex_tag));
	ix->ivs = section(&h, map, S_IVS, h.nivs, sizeof(struct relindex_iv));
	ix->backports = section(&h, map, S_BACKPORTS, h.nbackports, sizeof(struct backport));
	ix->bpnotes = section(&h, map, S_BPNOTES, h.nbpnotes, sizeof(struct backport_note));
	ix->bpreverts = section(&h, map, S_BPREVERTS, h.nbpreverts, sizeof(struct backport_revert));
	ix->nbpreverts = h.nbpreverts;
	ix->nbackports = h.nbackports;
	ix->nbpnotes = h.nbpnotes;
	if (!ix->ident || !ix->glob || !ix->pool || !ix->dag.oids || !ix->dag.dates || !ix->dag.trees || !ix->dag.topmask ||
	    !ix->dag.par_off ||
	    !ix->dag.par_nr || !ix->dag.parents || !ix->dag.slots || !ix->min_desc || !ix->first ||
	    !ix->names || !ix->segs || !ix->tags || !ix->ivs || !ix->backports || !ix->bpnotes || !ix->bpreverts ||
	    !h.nsegs ||
	    h.nslots <= n || h.nslots < 2 * n || (h.nslots & (h.nslots - 1)))
		return *why = "inconsistent header", false;
	/*
	 * The small sections at once; the rest as it is read (the tag
	 * intervals: at the first containment question), or all now.
	 */
	if (lazy) {
		populate(ix->tags, h.sect[S_TAGS].len);
		populate(ix->pool, h.sect[S_POOL].len);
	}
	if (!relindex_check(ix, ix->ident, h.sect[S_IDENT].len) ||
	    !relindex_check(ix, ix->glob, h.sect[S_GLOB].len) ||
	    !relindex_check(ix, ix->pool, h.sect[S_POOL].len) ||
	    !relindex_check(ix, ix->tags, h.sect[S_TAGS].len) ||
	    (!lazy && !relindex_check(ix, map + body_off(h.nblocks), size - body_off(h.nblocks))))
		return *why = "checksum mismatch (damaged)", false;
	if (!lazy) {
		free(ix->verified);
		ix->verified = NULL;    /* all checked */
	}
	if (strcmp(ix->ident, ident))
		return *why = "written for another repository", false;
	if (!check_tag_links(ix, h.sect[S_POOL].len) ||
	    (!lazy && (!check_ivs(ix) || !check_links(ix) || !check_backports(ix))))
		return *why = "inconsistent records", false;
	ix->ivs_checked = !lazy;
	return true;
}

/* An index that cannot serve: PV_ECORRUPT, "release index PATH: WHY". */
static int bad(const char *path, const char *why)
{
	return pv_error_set(PV_ECORRUPT, "release index %s: %s", path, why);
}

int relindex_open(struct relindex *ix, const char *path, const char *ident, bool lazy)
{
	const char *reason = NULL;
	struct stat st;
	void *map;
	int fd;

	memset(ix, 0, sizeof(*ix));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return pv_error_set(PV_ENOTFOUND, "no release index at %s", path);
	if (fd < 0)
		return pv_error_set(PV_ECORRUPT, "release index %s: unreadable: %s", path,
				    strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct header)) {
		close(fd);
		return bad(path, "truncated");
	}
	/*
	 * A full open checks every block, so every page is read: mapped in one
	 * go, not one fault per page (faults cost microseconds in a VM).  A
	 * lazy open reads a few blocks.
	 */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | (lazy ? 0 : MAP_POPULATE),
		   fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return pv_error_set(PV_ECORRUPT, "release index %s: cannot map: %s", path,
				    strerror(errno));
	ix->map = map;
	ix->size = (size_t)st.st_size;
	if (!parse(ix, map, (size_t)st.st_size, ident, lazy, &reason)) {
		relindex_close(ix);
		return bad(path, reason);
	}
	return 0;
}

void relindex_close(struct relindex *ix)
{
	if (ix->map && ix->size)
		munmap(ix->map, ix->size);
	free(ix->verified);
	memset(ix, 0, sizeof(*ix));
}

static uint64_t align8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

void relindex_from_data(struct relindex *ix, const struct relindex_data *d)
{
	struct { const void *p; uint64_t len; } src[S_NR] = {
		[S_IDENT] = { d->ident, strlen(d->ident) + 1 },
		[S_GLOB] = { d->glob, strlen(d->glob) + 1 },
		[S_OIDS] = { d->dag.oids, (uint64_t)d->dag.nr * sizeof(git_oid) },
		[S_DATES] = { d->dag.dates, (uint64_t)d->dag.nr * sizeof(int64_t) },
		[S_TREES] = { d->dag.trees, (uint64_t)d->dag.nr * sizeof(git_oid) },
		[S_TOPMASK] = { d->dag.topmask, (uint64_t)d->dag.nr * sizeof(uint64_t) },
		[S_PAR_OFF] = { d->dag.par_off, (uint64_t)d->dag.nr * sizeof(uint32_t) },
		[S_PAR_NR] = { d->dag.par_nr, (uint64_t)d->dag.nr * sizeof(uint16_t) },
		[S_PARENTS] = { d->dag.parents, (uint64_t)d->dag.nparents * sizeof(uint32_t) },
		[S_SLOTS] = { d->dag.slots, (uint64_t)d->dag.nslots * sizeof(uint32_t) },
		[S_MIN_DESC] = { d->min_desc, (uint64_t)d->dag.nr * sizeof(int64_t) },
		[S_FIRST] = { d->first, (uint64_t)d->dag.nr * sizeof(uint32_t) },
		[S_NAMES] = { d->names, (uint64_t)d->dag.nr * sizeof(struct relindex_name) },
		[S_SEGS] = { d->segs, (uint64_t)d->nsegs * sizeof(struct name_seg) },
		[S_TAGS] = { d->tags, ((uint64_t)d->ntags + 1) * sizeof(struct relindex_tag) },
		[S_IVS] = { d->ivs, (uint64_t)d->nivs * sizeof(struct relindex_iv) },
		[S_POOL] = { d->pool, d->pool_size },
		[S_BACKPORTS] = { d->backports, (uint64_t)d->nbackports * sizeof(struct backport) },
		[S_BPNOTES] = { d->bpnotes, (uint64_t)d->nbpnotes * sizeof(struct backport_note) },
		[S_BPREVERTS] = { d->bpreverts, (uint64_t)d->nbpreverts * sizeof(struct backport_revert) },
	};
	struct header h = { .version = RELINDEX_VERSION, .endian = ENDIAN_MARK };
	uint64_t off, body = 0;
	unsigned char *map;
	const char *why;

	memcpy(h.magic, MAGIC, 8);
	h.ncommits = d->dag.nr;
	h.ntags = d->ntags;
	h.nparents = d->dag.nparents;
	h.nsegs = d->nsegs;
	h.nslots = d->dag.nslots;
	h.nivs = d->nivs;
	h.nbackports = d->nbackports;
	h.nbpnotes = d->nbpnotes;
	h.nbpreverts = d->nbpreverts;
	h.build_msec = d->build_msec;
	h.tag_digest = d->tag_digest;
	for (int s = 0; s < S_NR; s++)
		body += align8(src[s].len);
	h.nblocks = (uint32_t)((body + BLOCK - 1) / BLOCK);
	off = body_off(h.nblocks);
	for (int s = 0; s < S_NR; s++) {
		h.sect[s].off = off;
		h.sect[s].len = src[s].len;
		off = align8(off + src[s].len);
	}
	h.size = off;
	map = mmap(NULL, (size_t)off, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die_out_of_memory((size_t)off);
	hint_huge(map, (size_t)off);
	for (int s = 0; s < S_NR; s++)
		if (src[s].len)
			memcpy(map + h.sect[s].off, src[s].p, (size_t)src[s].len);
	for (uint32_t k = 0; k < h.nblocks; k++) {
		uint64_t sum = block_sum(map, (size_t)off, h.nblocks, k);
		memcpy(map + table_off() + (size_t)k * 8, &sum, 8);
	}
	memcpy(map, &h, sizeof(h));
	h.checksum = header_checksum(map, h.nblocks);
	memcpy(map, &h, sizeof(h));
	memset(ix, 0, sizeof(*ix));
	/* its blocks were summed just above: parse as a reader would, minus the sums */
	if (!parse(ix, map, (size_t)off, d->ident, true, &why) ||
	    (!check_links(ix) && (why = "inconsistent records"))) {
		/* the writer's own arrays are wrong: a bug, never a user's input */
		pv_bug("release index image: %s", why);
	}
	free(ix->verified);
	ix->verified = NULL;
}

int relindex_restamp_tags(const struct relindex *ix, const bool *loose, uint64_t tag_digest,
			  const char *path)
{
	struct relindex_tag *tags = xmalloc(((size_t)ix->ntags + 1) * sizeof(*tags));
	struct relindex_data d = {
		.ident = ix->ident, .glob = ix->glob, .dag = ix->dag, .nsegs = ix->nsegs,
		.ntags = ix->ntags, .nivs = ix->nivs, .min_desc = ix->min_desc, .first = ix->first,
		.names = ix->names, .segs = ix->segs, .tags = tags, .ivs = ix->ivs, .pool = ix->pool,
		.backports = ix->backports, .bpnotes = ix->bpnotes, .bpreverts = ix->bpreverts,
		.nbackports = ix->nbackports, .nbpnotes = ix->nbpnotes, .nbpreverts = ix->nbpreverts,
		.build_msec = ix->build_msec, .tag_digest = tag_digest,
	};
	const struct header *h = ix->map;
	struct relindex image;
	int ret;

	memcpy(tags, ix->tags, ((size_t)ix->ntags + 1) * sizeof(*tags));
	for (uint32_t t = 0; t < ix->ntags; t++)
		tags[t].loose = loose[t];
	d.pool_size = (uint32_t)h->sect[S_POOL].len;
	relindex_from_data(&image, &d);
	ret = relindex_write(&image, path);
	relindex_close(&image);
	free(tags);
	return ret;
}

char *relindex_path(const char *ident)
{
	char *root = cachedir_root(), *path;
	uint64_t h = fnv1a(ident, strlen(ident));

	path = xstrfmt("%s/index/%016llx.idx", root, (unsigned long long)h);
	free(root);
	return path;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int relindex_write(const struct relindex *ix, const char *path)
{
	char *lock = xstrfmt("%s.lock", path), *tmp = xstrfmt("%s.tmp", path);
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : NULL;
	int lfd = -1, fd = -1, ret = -1, saved;

	if (dir && cachedir_mkdirs(dir) < 0)
		goto out;
	lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lfd < 0)
		goto out;
	while (flock(lfd, LOCK_EX) < 0)
		if (errno != EINTR)
			goto out;
	/* under the lock: a killed writer's leftover is simply overwritten */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	if (write_all(fd, ix->map, ix->size) < 0 || close(fd) < 0) {
		fd = -1;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path) == 0) {
		ret = 0;
		goto out;
	}
out_unlink:
	saved = errno;
	if (fd >= 0)
		close(fd);
	fd = -1;
	unlink(tmp);
	errno = saved;
out:
	saved = errno;
	if (lfd >= 0)
		close(lfd);   /* drops the lock */
	free(lock);
	free(tmp);
	free(dir);
	if (ret)
		ret = pv_error_set(PV_EWRITE, "cannot save the release index %s: %s", path,
				   strerror(saved));
	return ret;
}

long relindex_find_tag(const struct relindex *ix, const char *refname)
{
	size_t lo = 0, hi = ix->ntags;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(relindex_refname(ix, (uint32_t)mid), refname);

		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

uint32_t *relindex_tags_containing(const struct relindex *ix, uint32_t c, size_t *n)
{
	uint32_t *out = xmalloc((size_t)ix->ntags * sizeof(uint32_t) + 1);

	*n = 0;
	for (uint32_t t = 0; t < ix->ntags; t++)
		if (relindex_tag_contains(ix, t, c))
			out[(*n)++] = t;
	return out;
}

bool relindex_tag_contains(const struct relindex *ix, uint32_t t, uint32_t c)
{
	size_t lo = ix->tags[t].iv_off, hi = ix->tags[t + 1].iv_off;

	while (lo < hi) {   /* the first interval ending after c */
		size_t mid = lo + (hi - lo) / 2;
		if (ix->ivs[mid].hi <= c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->tags[t + 1].iv_off && ix->ivs[lo].lo <= c;
}
