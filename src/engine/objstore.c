/*
 * Loose objects and packs, read as git's formats say (gitformat-pack(5)):
 * a pack's .idx maps an id to an offset, the entry there is a type and
 * size header and a zlib stream, and a delta entry names its base by
 * offset or by id and rebuilds the object from it.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "patchver/base/error.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/oid.h"

#define OID_LEN 20
#define OBJ_OFS_DELTA 6
#define OBJ_REF_DELTA 7
/* a delta chain longer than any git writes (--depth is 4095 at most): a loop */
#define MAX_CHAIN 5000
/* larger claimed sizes are damage here: the callers read commits and trees */
#define MAX_OBJECT (256u << 20)
/* ids read around the guess by find_by_read: 4,000 bytes */
#define READ_IDS 200
/* lookups by pread in a pack: READS_MIN, and one per READS_PER bytes of .idx */
#define READS_MIN 64
#define READS_PER (24u << 10)
#define READ_PACKS 32

struct pack {
	char *path;                 /* the .pack */
	const unsigned char *idx;   /* the .idx, mapped */
	size_t idx_size;
	uint32_t nr;
	const unsigned char *oids, *offsets, *large;
	uint32_t nlarge;
	const unsigned char *data;  /* the .pack, mapped on first use */
	size_t size;
	bool unusable;
	int idx_fd;                 /* for the first lookups (find_by_read), else -1 */
	uint32_t reads_left;
};

struct objstore {
	char **dirs;                /* the objects directory, then its alternates */
	size_t ndirs, dirs_alloc;
	struct pack *packs;
	size_t npacks, alloc;
	z_stream z;
	bool z_ready;
	size_t touched;             /* pack bytes inflated since the last trim */
	struct cached *cache;       /* CACHE_SLOTS, allocated on first use */
};

/* one step of a delta chain: the delta's zlib stream and result size */
struct delta_step {
	const struct pack *p;
	uint64_t entry;             /* where its entry starts: the cache's key */
	const unsigned char *data;
	size_t avail, size;
};

/*
 * Objects a read rebuilt, by where their entry is: the next version of a
 * tree is a delta on one of them (git keeps a delta base cache too).
 * Direct-mapped, small objects only.
 */
#define CACHE_SLOTS 512
#define CACHE_MAX_OBJECT (64u << 10)

struct cached {
	const struct pack *p;
	uint64_t entry;
	int type;
	struct sbuf data;
};

/* path mapped whole; *fd keeps it open when fd is not NULL */
static const void *map_file(const char *path, size_t *size, int *fd)
{
	struct stat st;
	void *m = MAP_FAILED;
	int f = open(path, O_RDONLY | O_CLOEXEC);

	if (f < 0)
		return NULL;
	if (fstat(f, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		*size = (size_t)st.st_size;
		m = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, f, 0);
	}
	if (fd && m != MAP_FAILED)
		*fd = f;
	else
		close(f);
	return m == MAP_FAILED ? NULL : m;
}

/* A version 2 .idx: magic, version, fanout, ids, CRCs, offsets, large offsets, checksums. */
static bool parse_idx(struct pack *p)
{
	const unsigned char *fan = p->idx + 8;
	size_t fixed;

	if (p->idx_size < 8 + 256 * 4 + 2 * OID_LEN || memcmp(p->idx, "\377tOc", 4) ||
	    get_be32(p->idx + 4) != 2)
		return false;
	for (int i = 1; i < 256; i++)
		if (get_be32(fan + 4 * i) < get_be32(fan + 4 * (i - 1)))
			return false;
	p->nr = get_be32(fan + 4 * 255);
	fixed = 8 + 256 * 4 + (size_t)p->nr * (OID_LEN + 8) + 2 * OID_LEN;
	if (p->idx_size < fixed || (p->idx_size - fixed) % 8)
		return false;
	p->oids = fan + 256 * 4;
	p->offsets = p->oids + (size_t)p->nr * (OID_LEN + 4);
	p->large = p->offsets + (size_t)p->nr * 4;
	p->nlarge = (uint32_t)((p->idx_size - fixed) / 8);
	return true;
}

static void add_pack(struct objstore *s, const char *dir, const char *name)
{
	size_t len = strlen(name);
	struct pack p = { 0 };
	char *idx = xstrfmt("%s/%s", dir, name);

	p.idx_fd = -1;
	/* a file descriptor a pack, for the first packs only: thousands would run out */
	p.idx = map_file(idx, &p.idx_size, s->npacks < READ_PACKS ? &p.idx_fd : NULL);
	free(idx);
	if (!p.idx)
		return;
	if (!parse_idx(&p)) {
		munmap((void *)p.idx, p.idx_size);
		close(p.idx_fd);
		return;
	}
	p.reads_left = READS_MIN + (uint32_t)(p.idx_size / READS_PER);
	p.path = xstrfmt("%s/%.*s.pack", dir, (int)(len - 4), name);
	s->packs = xgrow(s->packs, &s->alloc, s->npacks + 1, sizeof(*s->packs));
	s->packs[s->npacks++] = p;
}

/* git's limit on alternates of alternates */
#define MAX_ALTERNATE_DEPTH 5

static void add_dir(struct objstore *s, const char *objdir, int depth);

/* objects/info/alternates: one directory a line, relative ones to objdir. */
static void add_alternates(struct objstore *s, const char *objdir, int depth)
{
	char *path = xstrfmt("%s/info/alternates", objdir), *line = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	ssize_t len;

	free(path);
	while (f && (len = getline(&line, &cap, f)) >= 0) {
		char *dir;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		dir = line[0] == '/' ? xstrdup(line) : xstrfmt("%s/%s", objdir, line);
		add_dir(s, dir, depth + 1);
		free(dir);
	}
	free(line);
	if (f)
		fclose(f);
}

static void add_dir(struct objstore *s, const char *objdir, int depth)
{
	char *path, *real = realpath(objdir, NULL);
	DIR *d;
	struct dirent *e;

	if (!real || depth > MAX_ALTERNATE_DEPTH) {
		free(real);
		return;
	}
	for (size_t i = 0; i < s->ndirs; i++)
		if (!strcmp(s->dirs[i], real)) {
			free(real);
			return;
		}
	s->dirs = xgrow(s->dirs, &s->dirs_alloc, s->ndirs + 1, sizeof(*s->dirs));
	s->dirs[s->ndirs++] = real;
	path = xstrfmt("%s/pack", real);
	if ((d = opendir(path))) {
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			if (len > 4 && !strcmp(e->d_name + len - 4, ".idx"))
				add_pack(s, path, e->d_name);
		}
		closedir(d);
	}
	free(path);
	add_alternates(s, real, depth);
}

struct objstore *objstore_open(const char *objdir)
{
	struct objstore *s = xcalloc(1, sizeof(*s));

	add_dir(s, objdir, 0);
	if (!s->ndirs) {
		objstore_close(s);
		return NULL;
	}
	return s;
}

void objstore_close(struct objstore *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->npacks; i++) {
		munmap((void *)s->packs[i].idx, s->packs[i].idx_size);
		if (s->packs[i].idx_fd >= 0)
			close(s->packs[i].idx_fd);
		if (s->packs[i].data)
			munmap((void *)s->packs[i].data, s->packs[i].size);
		free(s->packs[i].path);
	}
	if (s->z_ready)
		inflateEnd(&s->z);
	for (size_t i = 0; s->cache && i < CACHE_SLOTS; i++)
		sbuf_free(&s->cache[i].data);
	free(s->cache);
	for (size_t i = 0; i < s->ndirs; i++)
		free(s->dirs[i]);
	free(s->dirs);
	free(s->packs);
	free(s);
}

/* n bytes of the .idx at its mapped address at, read with pread */
static bool read_idx(const struct pack *p, const unsigned char *at, void *buf, size_t n)
{
	return pread(p->idx_fd, buf, n, at - p->idx) == (ssize_t)n;
}

/*
 * find_in_pack's search by pread: the ids around where oid should be (ids
 * are uniform), then its offset word.  Returns 1 with *word set when
 * found, 0 when surely absent, -1 when oid may lie outside the ids read
 * (or a read failed): then the mapping decides.
 */
static int find_by_read(const struct pack *p, const unsigned char *oid, uint32_t *word)
{
	const unsigned char *fan = p->idx + 8;
	uint32_t lo = oid[0] ? get_be32(fan + 4 * (oid[0] - 1u)) : 0, hi = get_be32(fan + 4 * oid[0]);
	unsigned char ids[READ_IDS * OID_LEN], raw[4];
	uint32_t guess, first, n, l = 0, h;

	if (hi > p->nr)
		hi = p->nr;
	if (lo >= hi)
		return 0;
	guess = lo + (uint32_t)(((uint64_t)get_be32(oid + 1) * (hi - lo)) >> 32);
	first = guess - lo > READ_IDS / 2 ? guess - READ_IDS / 2 : lo;
	n = hi - first < READ_IDS ? hi - first : READ_IDS;
	if (!read_idx(p, p->oids + (size_t)first * OID_LEN, ids, (size_t)n * OID_LEN))
		return -1;
	if ((first > lo && memcmp(oid, ids, OID_LEN) < 0) ||
	    (first + n < hi && memcmp(oid, ids + (size_t)(n - 1) * OID_LEN, OID_LEN) > 0))
		return -1;
	for (h = n; l < h;) {
		uint32_t mid = l + (h - l) / 2;
		int c = memcmp(ids + (size_t)mid * OID_LEN, oid, OID_LEN);

		if (c < 0) {
			l = mid + 1;
		} else if (c > 0) {
			h = mid;
		} else {
			if (!read_idx(p, p->offsets + (size_t)(first + mid) * 4, raw, 4))
				return -1;
			*word = get_be32(raw);
			return 1;
		}
	}
	return 0;
}

/*
 * Where oid's entry starts in pack p, or 0 (no entry starts before the
 * 12-byte header).  A pack's first lookups read its .idx with pread, not
 * through the mapping: a walk that answers one query looks up a few
 * hundred ids spread over tens of MB, and each first touch of a mapped
 * page is a fault (10-15 us on this VM, mapping 64 KiB around it) where a
 * pread of the same ids costs 2 us.  A walk that goes on to look up more
 * ids than the mapping has pages to fault pays less through the mapping.
 */
static uint64_t find_in_pack(struct pack *p, const unsigned char *oid)
{
	uint32_t i, off;
	int found = -1;

	if (p->idx_fd >= 0) {
		found = find_by_read(p, oid, &off);
		if (!--p->reads_left) {
			close(p->idx_fd);
			p->idx_fd = -1;
		}
	}
	if (!found)
		return 0;
	if (found < 0) {
		if ((i = oid_table_find(p->idx + 8, p->oids, p->nr, oid)) == PV_NONE)
			return 0;
		off = get_be32(p->offsets + (size_t)i * 4);
	}
	if (!(off & 0x80000000u))
		return off;
	off &= 0x7fffffffu;
	return off < p->nlarge ? get_be64(p->large + 8 * (size_t)off) : 0;
}

static bool map_pack(struct pack *p)
{
	if (p->data || p->unusable)
		return !p->unusable;
	p->data = map_file(p->path, &p->size, NULL);
	if (!p->data || p->size < 12 + OID_LEN || memcmp(p->data, "PACK", 4) ||
	    (get_be32(p->data + 4) != 2 && get_be32(p->data + 4) != 3)) {
		if (p->data)
			munmap((void *)p->data, p->size);
		p->data = NULL;
		p->unusable = true;
	}
	return !p->unusable;
}

/*
 * Inflate from in (avail bytes) into buf (want bytes): with finish, the
 * stream must end there, its checksum checked.  Sets *got; returns zlib's
 * last status.
 */
static int zinflate(struct objstore *s, const unsigned char *in, size_t avail,
		    unsigned char *buf, size_t want, bool finish, size_t *got)
{
	int zret;

	if (!s->z_ready) {
		if (inflateInit(&s->z) != Z_OK)
			return Z_STREAM_ERROR;
		s->z_ready = true;
	} else if (inflateReset(&s->z) != Z_OK) {
		return Z_STREAM_ERROR;
	}
	s->z.next_in = (unsigned char *)in;
	s->z.avail_in = avail > UINT32_MAX ? UINT32_MAX : (uInt)avail;
	s->z.next_out = buf;
	s->z.avail_out = (uInt)want;
	do {
		zret = inflate(&s->z, finish ? Z_FINISH : Z_SYNC_FLUSH);
	} while (zret == Z_OK && s->z.avail_out && s->z.avail_in);
	*got = s->z.total_out;
	s->touched += s->z.total_in;
	return zret;
}

/*
 * A pack is mapped whole, and the pages reads touch would stay in the
 * process's resident set: a read over every commit would count a third
 * of the kernel's pack as its memory.  Past TRIM_EVERY bytes inflated
 * from it they are given back (they stay in the page cache; touching one
 * again is a minor fault).  Each madvise costs milliseconds on a large
 * mapping, so it is not done more often.
 */
#define TRIM_EVERY (16u << 20)

static void trim(struct objstore *s)
{
	if (s->touched < TRIM_EVERY)
		return;
	for (size_t i = 0; i < s->npacks; i++)
		if (s->packs[i].data)
			madvise((void *)s->packs[i].data, s->packs[i].size, MADV_DONTNEED);
	s->touched = 0;
}

/*
 * An object of size bytes from its zlib stream into out: all of it, or
 * with want > 0 at least its first want bytes.
 */
static int inflate_object(struct objstore *s, const unsigned char *in, size_t avail,
			  size_t size, size_t want, struct sbuf *out)
{
	bool whole = !want || want >= size;
	size_t got;
	int zret;

	if (size > MAX_OBJECT)
		return -1;
	if (whole)
		want = size;
	sbuf_reset(out);
	out->buf = xgrow(out->buf, &out->alloc, want + 1, 1);
	zret = zinflate(s, in, avail, (unsigned char *)out->buf, want, whole, &got);
	if (got != want || (whole ? zret != Z_STREAM_END : zret != Z_OK && zret != Z_STREAM_END))
		return -1;
	out->len = want;
	out->buf[want] = '\0';
	return 0;
}

static int read_loose(struct objstore *s, const unsigned char *oid, size_t max, struct sbuf *out)
{
	static const char *const names[] = { NULL, "commit", "tree", "blob", "tag" };
	char hex[2 * OID_LEN + 1], *path, *end;
	unsigned char head[64];
	const unsigned char *nul;
	size_t fsize = 0, got, hlen, size;
	const unsigned char *file = NULL;
	int type = -1, zret;

	oid_to_hex(hex, sizeof(hex), oid);
	for (size_t i = 0; !file && i < s->ndirs; i++) {
		path = xstrfmt("%s/%.2s/%s", s->dirs[i], hex, hex + 2);
		file = map_file(path, &fsize, NULL);
		free(path);
	}
	if (!file)
		return -1;
	/* "<type> <size>\0<data>", one zlib stream: the header first */
	zret = zinflate(s, file, fsize, head, sizeof(head), false, &got);
	nul = memchr(head, '\0', got);
	if ((zret != Z_OK && zret != Z_STREAM_END) || !nul)
		goto out;
	for (int t = 1; t <= 4 && type < 0; t++) {
		size_t n = strlen(names[t]);
		if (!memcmp(head, names[t], n) && head[n] == ' ')
			type = t;
	}
	if (type < 0)
		goto out;
	size = strtoull((const char *)head + strlen(names[type]) + 1, &end, 10);
	hlen = (size_t)(nul - head) + 1;
	if ((const unsigned char *)end != nul || size > MAX_OBJECT ||
	    inflate_object(s, file, fsize, hlen + size, max ? hlen + max : 0, out) < 0) {
		type = -1;
		goto out;
	}
	memmove(out->buf, out->buf + hlen, out->len - hlen + 1);
	out->len -= hlen;
out:
	munmap((void *)file, fsize);
	return type;
}

/* The entry header at *off: type and size; *off moves past it. */
static int entry_header(const struct pack *p, uint64_t *off, size_t *size)
{
	const unsigned char *d = p->data, *end = p->data + p->size - OID_LEN;
	const unsigned char *c = d + *off;
	unsigned shift = 4;
	uint64_t sz;
	int type;

	if (*off < 12 || c >= end)
		return -1;
	type = (*c >> 4) & 7;
	sz = *c & 15;
	while (*c & 0x80) {
		if (++c >= end || shift > 56)
			return -1;
		sz |= (uint64_t)(*c & 0x7f) << shift;
		shift += 7;
	}
	*off = (uint64_t)(c + 1 - d);
	if (sz > MAX_OBJECT)
		return -1;
	*size = (size_t)sz;
	return type;
}

/*
 * An OFS_DELTA's base: git's varint at *off (moved past it) is how far
 * before the delta's entry the base's starts.
 */
static int ofs_base(const struct pack *p, uint64_t entry, uint64_t *off, uint64_t *base)
{
	const unsigned char *end = p->data + p->size - OID_LEN, *c = p->data + *off;
	uint64_t back;

	if (c >= end)
		return -1;
	back = *c & 0x7f;
	while (*c & 0x80) {
		if (++c >= end || back >= (UINT64_MAX >> 8))
			return -1;
		back = ((back + 1) << 7) | (*c & 0x7f);
	}
	*off = (uint64_t)(c + 1 - p->data);
	if (back == 0 || back > entry)
		return -1;
	*base = entry - back;
	return 0;
}

static size_t delta_varint(const unsigned char **c, const unsigned char *end, bool *ok)
{
	size_t v = 0;
	unsigned shift = 0;

	do {
		if (*c >= end || shift > 56) {
			*ok = false;
			return 0;
		}
		v |= (size_t)(**c & 0x7f) << shift;
		shift += 7;
	} while (*(*c)++ & 0x80);
	return v;
}

/* base + delta -> out (git's patch-delta: copy and insert instructions). */
static int apply_delta(const struct sbuf *base, const struct sbuf *delta, struct sbuf *out)
{
	const unsigned char *c = (const unsigned char *)delta->buf, *end = c + delta->len;
	bool ok = true;
	size_t bsize = delta_varint(&c, end, &ok), rsize = delta_varint(&c, end, &ok);

	if (!ok || bsize != base->len || rsize > MAX_OBJECT)
		return -1;
	sbuf_reset(out);
	out->buf = xgrow(out->buf, &out->alloc, rsize + 1, 1);
	while (c < end) {
		unsigned char op = *c++;
		if (op & 0x80) {
			size_t off = 0, n = 0;
			for (int i = 0; i < 4; i++)
				if (op & (1u << i)) {
					if (c >= end)
						return -1;
					off |= (size_t)*c++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (op & (0x10u << i)) {
					if (c >= end)
						return -1;
					n |= (size_t)*c++ << (8 * i);
				}
			if (!n)
				n = 0x10000;
			if (off > base->len || n > base->len - off || n > rsize - out->len)
				return -1;
			memcpy(out->buf + out->len, base->buf + off, n);
			out->len += n;
		} else if (op) {
			if (op > (size_t)(end - c) || op > rsize - out->len)
				return -1;
			memcpy(out->buf + out->len, c, op);
			out->len += op;
			c += op;
		} else {
			return -1;      /* reserved */
		}
	}
	if (out->len != rsize)
		return -1;
	out->buf[out->len] = '\0';
	return 0;
}

void objstore_set_reads(struct objstore *s, uint32_t lookups)
{
	for (size_t i = 0; i < s->npacks; i++) {
		struct pack *p = &s->packs[i];

		p->reads_left = lookups;
		if (!lookups && p->idx_fd >= 0) {
			close(p->idx_fd);
			p->idx_fd = -1;
		}
	}
}

/* Where oid's entry is in any pack: the pack, and *off. */
static struct pack *find_entry(struct objstore *s, const unsigned char *oid, uint64_t *off)
{
	for (size_t i = 0; i < s->npacks; i++) {
		struct pack *p = &s->packs[i];
		if ((*off = find_in_pack(p, oid)) && map_pack(p) && *off < p->size - OID_LEN)
			return p;
	}
	return NULL;
}

static struct cached *cache_slot(struct objstore *s, const struct pack *p, uint64_t entry)
{
	uint64_t h = (entry ^ (uint64_t)(p - s->packs) << 48) * 0x9e3779b97f4a7c15ull;

	if (!s->cache)
		s->cache = xcalloc(CACHE_SLOTS, sizeof(*s->cache));
	return &s->cache[h >> 55];
}

static bool cache_get(struct objstore *s, const struct pack *p, uint64_t entry,
		      int *type, struct sbuf *out)
{
	struct cached *c = cache_slot(s, p, entry);

	if (!c->p || c->p != p || c->entry != entry)
		return false;
	sbuf_reset(out);
	sbuf_add(out, c->data.buf, c->data.len);
	*type = c->type;
	return true;
}

static void cache_put(struct objstore *s, const struct pack *p, uint64_t entry, int type,
		      const struct sbuf *obj)
{
	struct cached *c;

	if (obj->len > CACHE_MAX_OBJECT)
		return;
	c = cache_slot(s, p, entry);
	c->p = p;
	c->entry = entry;
	c->type = type;
	sbuf_reset(&c->data);
	sbuf_add(&c->data, obj->buf, obj->len);
}

/*
 * The entry at off: a delta chain walked down to its base (or to an
 * object the cache holds), the base read, the deltas applied from the
 * innermost out, each result cached.  Only a read without a delta stops
 * at max bytes.
 */
static int read_packed(struct objstore *s, struct pack *p, uint64_t off, size_t max,
		       struct sbuf *out)
{
	struct delta_step *chain = NULL;
	size_t nchain = 0, alloc = 0, size;
	struct sbuf delta = SBUF_INIT, tmp = SBUF_INIT;
	uint64_t entry;
	int type;

	for (;;) {
		uint64_t base = 0;
		const unsigned char *base_oid = NULL;

		entry = off;
		if ((!max || nchain) && cache_get(s, p, entry, &type, out))
			goto apply;
		type = entry_header(p, &off, &size);
		if (type == OBJ_OFS_DELTA) {
			if (ofs_base(p, entry, &off, &base) < 0)
				goto fail;
		} else if (type == OBJ_REF_DELTA) {
			if (off + OID_LEN >= p->size - OID_LEN)
				goto fail;
			base_oid = p->data + off;
			off += OID_LEN;
		} else {
			break;
		}
		if (nchain == MAX_CHAIN)
			goto fail;
		chain = xgrow(chain, &alloc, nchain + 1, sizeof(*chain));
		chain[nchain++] = (struct delta_step){ p, entry, p->data + off, p->size - off, size };
		if (base_oid && !(p = find_entry(s, base_oid, &base))) {
			/* a base in no pack: loose, or unreadable here */
			if ((type = read_loose(s, base_oid, 0, out)) < 0)
				goto fail;
			goto apply;
		}
		off = base;
	}
	if (type < 1 || type > 4 ||
	    inflate_object(s, p->data + off, p->size - off, size, nchain ? 0 : max, out) < 0)
		goto fail;
	if (nchain || !max)
		cache_put(s, p, entry, type, out);
apply:
	while (nchain--) {
		struct delta_step *d = &chain[nchain];
		struct sbuf swap;

		if (inflate_object(s, d->data, d->avail, d->size, 0, &delta) < 0 ||
		    apply_delta(out, &delta, &tmp) < 0)
			goto fail;
		swap = *out;
		*out = tmp;
		tmp = swap;
		cache_put(s, d->p, d->entry, type, out);
	}
	goto out;
fail:
	type = -1;
out:
	free(chain);
	sbuf_free(&delta);
	sbuf_free(&tmp);
	return type;
}

/* Does id start with the len hex digits of hex (lower case)? */
static bool has_prefix(const unsigned char *id, const char *hex, size_t len)
{
	char buf[2 * OID_LEN + 1];

	return !memcmp(oid_to_hex(buf, len + 1, id), hex, len);
}

static void add_found(const unsigned char *id, unsigned char (*found)[OID_LEN], size_t max,
		      size_t *n)
{
	for (size_t i = 0; i < *n && i < max; i++)
		if (!memcmp(found[i], id, OID_LEN))
			return;
	if (*n < max)
		memcpy(found[*n], id, OID_LEN);
	(*n)++;
}

size_t objstore_prefix(struct objstore *s, const char *hex, size_t len,
		       unsigned char (*found)[OID_LEN], size_t max)
{
	char padded[2 * OID_LEN];
	unsigned char least[OID_LEN];   /* the least id with the prefix: padded with zeros */
	size_t n = 0;

	if (len < 2 || len > 2 * OID_LEN)
		return 0;
	memset(padded, '0', sizeof(padded));
	memcpy(padded, hex, len);
	if (oid_from_hex(padded, sizeof(padded), least) < 0)
		return 0;
	for (size_t i = 0; i < s->npacks && n <= max; i++) {
		const struct pack *p = &s->packs[i];
		const unsigned char *fan = p->idx + 8;
		uint32_t lo = least[0] ? get_be32(fan + 4 * (least[0] - 1u)) : 0;
		uint32_t hi = get_be32(fan + 4 * least[0]);

		if (hi > p->nr)
			hi = p->nr;
		/* the first id not below the least, then every id that has the prefix */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (memcmp(p->oids + (size_t)mid * OID_LEN, least, OID_LEN) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < p->nr && n <= max && has_prefix(p->oids + (size_t)lo * OID_LEN, hex, len); lo++)
			add_found(p->oids + (size_t)lo * OID_LEN, found, max, &n);
	}
	for (size_t i = 0; i < s->ndirs && n <= max; i++) {
		char *dir = xstrfmt("%s/%.2s", s->dirs[i], hex);
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && n <= max && (e = readdir(d))) {
			char full[2 * OID_LEN + 1];
			unsigned char id[OID_LEN];

			if (strlen(e->d_name) != 2 * OID_LEN - 2)
				continue;
			snprintf(full, sizeof(full), "%.2s%.38s", hex, e->d_name);
			if (!strncmp(full, hex, len) && oid_from_hex(full, 2 * OID_LEN, id) == 0)
				add_found(id, found, max, &n);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	return n;
}

char *objstore_commit_message(const char *data, size_t len)
{
	const char *p = memmem(data, len, "\n\n", 2);

	if (!p)
		return NULL;
	for (p += 2; p < data + len && *p == '\n'; p++)
		;
	return xstrndup(p, len - (size_t)(p - data));
}

int objstore_read(struct objstore *s, const unsigned char *oid, size_t max, struct sbuf *out)
{
	uint64_t off;
	struct pack *p = find_entry(s, oid, &off);

	int type;

	trim(s);
	type = p ? read_packed(s, p, off, max, out) : read_loose(s, oid, max, out);
	if (type < 0) {
		char hex[2 * 20 + 1];   /* 20 raw bytes in hex */
		return pv_error_set(PV_EDECLINED, "object %s: not in the object files as this "
				    "reader takes them", oid_to_hex(hex, sizeof(hex), oid));
	}
	return type;
}

/* The length of line p..q without its trailing whitespace. */
static size_t trimmed_len(const char *p, const char *q)
{
	while (q > p && isspace((unsigned char)q[-1]))
		q--;
	return (size_t)(q - p);
}

/*
 * git's %s (pretty.c:format_subject): blank lines before it skipped, then
 * the first paragraph, each line without trailing whitespace, joined by
 * spaces (into sb, if not NULL).  A line of only spaces is blank: it ends
 * the paragraph (359 commits of the 2.6.34 history have one second).
 * Returns where the body starts: past the blank lines after the paragraph.
 */
static const char *read_subject(const char *msg, struct sbuf *sb)
{
	const char *p = msg, *q;
	bool started = false, ended = false;

	while (*p) {
		size_t len;
		q = strchr(p, '\n');
		if (!q)
			q = p + strlen(p);
		len = trimmed_len(p, q);
		if (len && ended)
			break;
		if (len && sb) {
			if (started)
				sbuf_adds(sb, " ");
			sbuf_add(sb, p, len);
		}
		started |= len != 0;
		ended |= !len && started;
		p = *q ? q + 1 : q;
	}
	return p;
}

char *objstore_subject(const char *msg)
{
	struct sbuf sb = SBUF_INIT;

	read_subject(msg, &sb);
	return sb.buf ? sb.buf : xstrdup("");
}

const char *objstore_body(const char *msg)
{
	return read_subject(msg, NULL);
}
