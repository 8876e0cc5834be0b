/*
 * Deterministic history writing with libgit2 (see gen.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2/sys/mempack.h>

#include "gen.h"

static void check(int err, const char *what)
{
	if (err < 0) {
		const git_error *e = git_error_last();
		fprintf(stderr, "gen: %s: %s\n", what, e ? e->message : "error");
		exit(1);
	}
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen: out of memory\n");
		exit(1);
	}
	return p;
}

const char *gen_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

const char *gen_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		exit(1);
	va_end(ap);
	return s;
}

const char *gen_hex(const git_oid *oid)
{
	static char buf[8][GIT_OID_HEXSZ + 1];
	static int k;

	k = (k + 1) % 8;
	git_oid_tostr(buf[k], sizeof(buf[k]), oid);
	return buf[k];
}

void gen_open(struct gen *g, const char *path, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
	g->path = strdup(path);
	check(git_repository_init(&g->repo, path, 1), "init");
	check(git_repository_odb(&g->odb, g->repo), "odb");
	check(git_mempack_new(&g->mempack), "mempack");
	check(git_odb_add_backend(g->odb, g->mempack, 1000), "backend");
}

void gen_close(struct gen *g)
{
	git_buf pack = { 0 };
	git_indexer *idx;
	git_indexer_progress stats;
	char dir[4096];

	check(git_mempack_dump(&pack, g->repo, g->mempack), "dump");
	snprintf(dir, sizeof(dir), "%sobjects/pack", git_repository_path(g->repo));
	check(git_indexer_new(&idx, dir, 0, g->odb, NULL), "indexer");
	check(git_indexer_append(idx, pack.ptr, pack.size, &stats), "index");
	check(git_indexer_commit(idx, &stats), "index commit");
	git_indexer_free(idx);
	git_buf_dispose(&pack);
	git_mempack_reset(g->mempack);
	git_odb_free(g->odb);
	git_repository_free(g->repo);

	/* git_mempack_dump() packs commits and what they reach: write tags loose */
	check(git_repository_open(&g->repo, g->path), "reopen");
	check(git_repository_odb(&g->odb, g->repo), "odb");
	for (size_t i = 0; i < g->ntag_bufs; i++) {
		git_oid oid;
		check(git_odb_write(&oid, g->odb, g->tag_bufs[i], g->tag_lens[i],
				    GIT_OBJECT_TAG), "tag");
		free(g->tag_bufs[i]);
	}
	free(g->tag_bufs);
	free(g->tag_lens);
	free(g->path);
	git_odb_free(g->odb);
	git_repository_free(g->repo);
}

uint64_t gen_rand(struct gen *g)
{
	/* xorshift64*: tiny, fast, and the same on every machine */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545F4914F6CDD1DULL;
}

int gen_range(struct gen *g, int lo, int hi)
{
	return lo + (int)(gen_rand(g) % (uint64_t)(hi - lo + 1));
}

void state_init(struct state *st)
{
	memset(st, 0, sizeof(*st));
}

void state_copy(struct state *dst, const struct state *src)
{
	*dst = *src;
	for (size_t i = 0; i < src->nfiles; i++) {
		struct file *f = &dst->files[i];
		f->lines = xrealloc(NULL, (f->nr + 1) * sizeof(*f->lines));
		memcpy(f->lines, src->files[i].lines, f->nr * sizeof(*f->lines));
		f->alloc = f->nr + 1;
	}
}

struct file *state_file(struct state *st, const char *path)
{
	struct file *f;

	for (size_t i = 0; i < st->nfiles; i++)
		if (!strcmp(st->files[i].path, path))
			return &st->files[i];
	if (st->nfiles == GEN_MAX_FILES) {
		fprintf(stderr, "gen: too many files\n");
		exit(1);
	}
	f = &st->files[st->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = gen_strdup(path);
	f->dirty = true;
	return f;
}

static void grow(struct file *f, size_t n)
{
	if (n <= f->alloc)
		return;
	f->alloc = n * 2;
	f->lines = xrealloc(f->lines, f->alloc * sizeof(*f->lines));
}

void file_set_text(struct file *f, const char *text)
{
	const char *p = text;

	f->nr = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xrealloc(NULL, n + 1);
		memcpy(line, p, n);
		line[n] = '\0';
		grow(f, f->nr + 1);
		f->lines[f->nr++] = line;
		p += n + (nl ? 1 : 0);
	}
	f->dirty = true;
}

void file_set_line(struct file *f, size_t i, const char *line)
{
	grow(f, i + 1);
	while (f->nr <= i)
		f->lines[f->nr++] = "";
	f->lines[i] = line;
	f->dirty = true;
}

void file_insert_line(struct file *f, size_t i, const char *line)
{
	grow(f, f->nr + 1);
	if (i > f->nr)
		i = f->nr;
	memmove(f->lines + i + 1, f->lines + i, (f->nr - i) * sizeof(*f->lines));
	f->lines[i] = line;
	f->nr++;
	f->dirty = true;
}

static void write_blob(struct gen *g, struct file *f)
{
	size_t len = 0, off = 0;
	char *buf;

	for (size_t i = 0; i < f->nr; i++)
		len += strlen(f->lines[i]) + 1;
	buf = xrealloc(NULL, len + 1);
	for (size_t i = 0; i < f->nr; i++) {
		size_t n = strlen(f->lines[i]);
		memcpy(buf + off, f->lines[i], n);
		off += n;
		buf[off++] = '\n';
	}
	check(git_odb_write(&f->blob, g->odb, buf, len, GIT_OBJECT_BLOB), "blob");
	free(buf);
	f->dirty = false;
}

/* Write the tree of every file under prefix (with trailing '/', or ""). */
static git_oid build_tree(struct gen *g, struct state *st, const char *prefix)
{
	size_t plen = strlen(prefix);
	git_treebuilder *tb;
	git_oid oid;

	check(git_treebuilder_new(&tb, g->repo, NULL), "treebuilder");
	for (size_t i = 0; i < st->nfiles; i++) {
		struct file *f = &st->files[i];
		const char *rest, *slash;

		if (strncmp(f->path, prefix, plen))
			continue;
		rest = f->path + plen;
		slash = strchr(rest, '/');
		if (!slash) {
			if (f->dirty)
				write_blob(g, f);
			check(git_treebuilder_insert(NULL, tb, rest, &f->blob,
						     GIT_FILEMODE_BLOB), "insert");
		} else {
			char *dir = strndup(rest, (size_t)(slash - rest));
			char *sub;
			if (!git_treebuilder_get(tb, dir)) {
				git_oid t;
				if (asprintf(&sub, "%s%s/", prefix, dir) < 0)
					exit(1);
				t = build_tree(g, st, sub);
				check(git_treebuilder_insert(NULL, tb, dir, &t,
							     GIT_FILEMODE_TREE), "insert");
				free(sub);
			}
			free(dir);
		}
	}
	check(git_treebuilder_write(&oid, tb), "tree");
	git_treebuilder_free(tb);
	return oid;
}

git_oid gen_tree(struct gen *g, struct state *st)
{
	return build_tree(g, st, "");
}

void branch_init(struct branch *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	b->name = name;
	state_init(&b->st);
}

void branch_fork(struct branch *b, const char *name, const struct branch *from)
{
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->head = from->head;
	b->has_head = from->has_head;
	b->last_date = from->last_date;
	state_copy(&b->st, &from->st);
	state_copy(&b->base, &from->st);
}

static git_signature *sig(const struct person *p, int64_t date)
{
	git_signature *s;
	check(git_signature_new(&s, p->name, p->email, date, p->tz), "signature");
	return s;
}

git_oid gen_commit(struct gen *g, struct branch *b, const char *msg,
		   const struct person *author, int64_t adate,
		   const struct person *committer, int64_t cdate,
		   const git_oid *extra, size_t nextra)
{
	git_oid tree_oid, oid;
	git_tree *tree;
	const git_commit *parents[8];
	git_commit *owned[8];
	git_signature *a, *c;
	size_t np = 0;

	tree_oid = gen_tree(g, &b->st);
	check(git_tree_lookup(&tree, g->repo, &tree_oid), "tree lookup");
	if (b->has_head) {
		check(git_commit_lookup(&owned[np], g->repo, &b->head), "parent");
		parents[np] = owned[np];
		np++;
	}
	for (size_t i = 0; i < nextra && np < 8; i++) {
		check(git_commit_lookup(&owned[np], g->repo, &extra[i]), "parent");
		parents[np] = owned[np];
		np++;
	}
	a = sig(author, adate ? adate : g->now);
	c = sig(committer ? committer : author, cdate ? cdate : g->now);
	check(git_commit_create(&oid, g->repo, NULL, a, c, NULL, msg, tree, np,
				parents), "commit");
	git_signature_free(a);
	git_signature_free(c);
	for (size_t i = 0; i < np; i++)
		git_commit_free(owned[i]);
	git_tree_free(tree);
	b->head = oid;
	b->has_head = true;
	b->last_date = cdate ? cdate : g->now;
	g->ncommits++;
	return oid;
}

static bool same_file(const struct file *a, const struct file *b)
{
	if (!a || !b)
		return a == b;
	if (a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->lines[i], b->lines[i]))
			return false;
	return true;
}

static struct file *find_file(struct state *st, const char *path)
{
	for (size_t i = 0; i < st->nfiles; i++)
		if (!strcmp(st->files[i].path, path))
			return &st->files[i];
	return NULL;
}

/* Bring topic's changes since its fork point into ours, file by file. */
static void merge_state(struct state *ours, struct branch *topic)
{
	for (size_t i = 0; i < topic->st.nfiles; i++) {
		struct file *t = &topic->st.files[i];
		struct file *base = find_file(&topic->base, t->path);
		struct file *o = find_file(ours, t->path);

		if (same_file(t, base))
			continue;       /* topic did not touch it */
		if (!o)
			o = state_file(ours, t->path);
		if (base && o->nr == t->nr && base->nr == t->nr) {
			/* line-wise: topic's changed lines over ours */
			for (size_t k = 0; k < t->nr; k++)
				if (strcmp(t->lines[k], base->lines[k]))
					file_set_line(o, k, t->lines[k]);
		} else {
			o->nr = 0;
			for (size_t k = 0; k < t->nr; k++)
				file_set_line(o, k, t->lines[k]);
		}
	}
}

git_oid gen_merge(struct gen *g, struct branch *b, struct branch **topics,
		  size_t ntopics, const char *msg, const struct person *who,
		  int64_t date)
{
	git_oid heads[8];

	for (size_t i = 0; i < ntopics && i < 8; i++) {
		merge_state(&b->st, topics[i]);
		heads[i] = topics[i]->head;
	}
	return gen_commit(g, b, msg, who, date, who, date, heads, ntopics);
}

git_oid gen_tag_object(struct gen *g, const char *name, const git_oid *target,
		       git_object_t type, const struct person *tagger,
		       int64_t date, const char *msg)
{
	char *buf;
	git_oid oid;
	int n;

	if (tagger)
		n = asprintf(&buf, "object %s\ntype %s\ntag %s\ntagger %s <%s> %lld %c%02d%02d\n\n%s",
			     gen_hex(target), git_object_type2string(type), name,
			     tagger->name, tagger->email, (long long)date,
			     tagger->tz < 0 ? '-' : '+', abs(tagger->tz) / 60,
			     abs(tagger->tz) % 60, msg);
	else
		n = asprintf(&buf, "object %s\ntype %s\ntag %s\n\n%s", gen_hex(target),
			     git_object_type2string(type), name, msg);
	if (n < 0)
		exit(1);
	check(git_odb_write(&oid, g->odb, buf, (size_t)n, GIT_OBJECT_TAG), "tag");
	g->tag_bufs = xrealloc(g->tag_bufs, (g->ntag_bufs + 1) * sizeof(char *));
	g->tag_lens = xrealloc(g->tag_lens, (g->ntag_bufs + 1) * sizeof(size_t));
	g->tag_bufs[g->ntag_bufs] = buf;
	g->tag_lens[g->ntag_bufs++] = (size_t)n;
	return oid;
}

void gen_ref(struct gen *g, const char *refname, const git_oid *target)
{
	git_reference *ref;

	check(git_reference_create(&ref, g->repo, refname, target, 1, NULL), refname);
	git_reference_free(ref);
}

void gen_tag(struct gen *g, const char *name, const git_oid *commit,
	     const struct person *tagger, int64_t date)
{
	git_oid t = gen_tag_object(g, name, commit, GIT_OBJECT_COMMIT, tagger, date,
				   gen_printf("%s\n", name));
	gen_ref(g, gen_printf("refs/tags/%s", name), &t);
	g->ntags++;
}

void gen_lightweight(struct gen *g, const char *name, const git_oid *target)
{
	gen_ref(g, gen_printf("refs/tags/%s", name), target);
	g->ntags++;
}
