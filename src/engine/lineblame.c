/*
 * git blame on the DAG for chosen lines of one file (builtin/blame.c's
 * assign_blame / pass_blame, without -M and -C).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <git2/sys/hashsig.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/lineblame.h"
#include "patchver/engine/treepath.h"

/* A line still looking for its commit: where it is now, which one it is. */
struct lref {
	size_t line;            /* 1-based, in the suspect's blob */
	size_t idx;             /* into the caller's lines[] */
};

/* A (commit, path) that may own lines: git's blame_origin. */
struct suspect {
	uint32_t commit;
	unsigned path;
	git_oid blob;
	struct lref *v;
	size_t nr, alloc;
	bool queued;
};

struct blamer {
	git_repository *repo;
	struct dag *dag;
	struct bpath {
		char *name;
		struct treepath_cache tp;
	} *paths;
	size_t npaths;
	struct suspect *s;
	size_t ns, salloc;
	uint32_t *slots;        /* (commit, path) -> suspect + 1 */
	size_t nslots;
	size_t *heap;           /* suspects with lines, newest commit on top */
	size_t nheap, heapalloc;
	uint32_t *out;
};

static unsigned path_id(struct blamer *b, const char *name)
{
	for (size_t i = 0; i < b->npaths; i++)
		if (!strcmp(b->paths[i].name, name))
			return (unsigned)i;
	b->paths = xrealloc(b->paths, (b->npaths + 1) * sizeof(*b->paths));
	b->paths[b->npaths].name = xstrdup(name);
	treepath_init(&b->paths[b->npaths].tp, b->dag, b->paths[b->npaths].name);
	return (unsigned)b->npaths++;
}

static size_t slot_of(const struct blamer *b, uint32_t commit, unsigned path)
{
	uint64_t h = ((uint64_t)commit << 8 ^ path) * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 20) & (b->nslots - 1);

	while (b->slots[i]) {
		const struct suspect *s = &b->s[b->slots[i] - 1];
		if (s->commit == commit && s->path == path)
			break;
		i = (i + 1) & (b->nslots - 1);
	}
	return i;
}

static void rehash(struct blamer *b)
{
	free(b->slots);
	b->nslots = b->nslots ? b->nslots * 2 : 1024;
	b->slots = xcalloc(b->nslots, sizeof(*b->slots));
	for (size_t k = 0; k < b->ns; k++)
		b->slots[slot_of(b, b->s[k].commit, b->s[k].path)] = (uint32_t)k + 1;
}

/* The suspect for (commit, path), made when new. */
static size_t suspect_get(struct blamer *b, uint32_t commit, unsigned path,
			  const git_oid *blob)
{
	size_t i;

	if ((b->ns + 1) * 2 > b->nslots)
		rehash(b);
	i = slot_of(b, commit, path);
	if (b->slots[i])
		return b->slots[i] - 1;
	b->s = xgrow(b->s, &b->salloc, b->ns + 1, sizeof(*b->s));
	memset(&b->s[b->ns], 0, sizeof(b->s[0]));
	b->s[b->ns].commit = commit;
	b->s[b->ns].path = path;
	b->s[b->ns].blob = *blob;
	b->slots[i] = (uint32_t)b->ns + 1;
	return b->ns++;
}

/* Newer commit first, as git's queue by commit date; ties by index. */
static bool newer(const struct blamer *b, size_t x, size_t y)
{
	uint32_t cx = b->s[x].commit, cy = b->s[y].commit;
	int64_t dx = b->dag->dates[cx], dy = b->dag->dates[cy];

	return dx != dy ? dx > dy : x > y;
}

static void heap_push(struct blamer *b, size_t si)
{
	size_t i;

	b->heap = xgrow(b->heap, &b->heapalloc, b->nheap + 1, sizeof(*b->heap));
	i = b->nheap++;
	while (i && newer(b, si, b->heap[(i - 1) / 2])) {
		b->heap[i] = b->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	b->heap[i] = si;
	b->s[si].queued = true;
}

static size_t heap_pop(struct blamer *b)
{
	size_t top = b->heap[0], last = b->heap[--b->nheap], i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= b->nheap)
			break;
		if (c + 1 < b->nheap && newer(b, b->heap[c + 1], b->heap[c]))
			c++;
		if (!newer(b, b->heap[c], last))
			break;
		b->heap[i] = b->heap[c];
		i = c;
	}
	if (b->nheap)
		b->heap[i] = last;
	b->s[top].queued = false;
	return top;
}

static void give(struct blamer *b, size_t si, size_t line, size_t idx)
{
	struct suspect *s = &b->s[si];

	s->v = xgrow(s->v, &s->alloc, s->nr + 1, sizeof(*s->v));
	s->v[s->nr].line = line;
	s->v[s->nr++].idx = idx;
	if (!s->queued)
		heap_push(b, si);
}

/* libgit2's similarity (0-100) of two blobs; -1 if unreadable. */
static int similarity(git_repository *repo, const git_oid *a, const git_hashsig *sb)
{
	git_blob *blob = NULL;
	git_hashsig *sa = NULL;
	int score = -1;

	if (git_blob_lookup(&blob, repo, a) == 0 &&
	    git_hashsig_create(&sa, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob),
			       GIT_HASHSIG_SMART_WHITESPACE) == 0)
		score = git_hashsig_compare(sa, sb);
	git_hashsig_free(sa);
	git_blob_free(blob);
	git_error_clear();
	return score;
}

static int cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/* How many deleted and added files no exact rename pairs (by blob). */
static void inexact_sizes(const git_oid *del, size_t ndel, const git_oid *add, size_t nadd,
			  size_t *left_del, size_t *left_add)
{
	git_oid *d = xmalloc((ndel + 1) * sizeof(*d)), *a = xmalloc((nadd + 1) * sizeof(*a));
	size_t i = 0, j = 0, paired = 0;

	memcpy(d, del, ndel * sizeof(*d));
	memcpy(a, add, nadd * sizeof(*a));
	qsort(d, ndel, sizeof(*d), cmp_oid);
	qsort(a, nadd, sizeof(*a), cmp_oid);
	while (i < ndel && j < nadd) {
		int c = git_oid_cmp(&d[i], &a[j]);
		if (!c) {
			paired++;
			i++;
			j++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	*left_del = ndel - paired;
	*left_add = nadd - paired;
	free(d);
	free(a);
}

/*
 * git's find_rename, for the one file followed: the path it had in
 * parent's tree, when the commit deleted a file with the same content
 * (exact rename) or, failing that, one at least 50% similar to it (the
 * most similar).  Only the commit's deleted files are compared with this
 * one (a rename detection over a whole tree move took 16 s); past git's
 * rename limit (1000 x 1000 files) only exact renames count.
 * 1: found (*out), 0: none, -1: an object could not be read.
 */
static int find_rename(struct blamer *b, uint32_t parent, uint32_t commit,
		       unsigned path, unsigned *out)
{
	const git_oid *pt = &b->dag->trees[parent], *ct = &b->dag->trees[commit];
	struct tree_change *changes = NULL, **deleted = NULL;
	const git_oid *mine = NULL;
	git_oid *dblob = NULL, *ablob = NULL;
	size_t ndel = 0, nadd = 0, left_del = 0, left_add = 0;
	int n, best = -1, best_score = 49, ret = 0;

	if ((n = treepath_changed(b->dag->odb, pt, ct, SIZE_MAX - 1, &changes)) < 0)
		return -1;
	deleted = xcalloc((size_t)n + 1, sizeof(*deleted));
	dblob = xcalloc((size_t)n + 1, sizeof(*dblob));
	ablob = xcalloc((size_t)n + 1, sizeof(*ablob));
	for (int i = 0; i < n; i++) {
		struct tree_change *c = &changes[i];
		if (git_oid_is_zero(&c->new)) {
			dblob[ndel] = c->old;
			deleted[ndel++] = c;
		} else if (git_oid_is_zero(&c->old)) {
			ablob[nadd++] = c->new;
			if (!strcmp(c->path, b->paths[path].name))
				mine = &c->new;
		}
	}
	if (!mine)
		goto out;       /* not added by this commit: nothing was renamed to it */
	for (size_t i = 0; i < ndel && best < 0; i++)
		if (git_oid_equal(&dblob[i], mine))
			best = (int)i;
	/* git's rename limit counts the files exact renames leave */
	if (best < 0)
		inexact_sizes(dblob, ndel, ablob, nadd, &left_del, &left_add);
	if (best < 0 && ndel && (uint64_t)left_del * left_add <= 1000000) {
		git_blob *blob = NULL;
		git_hashsig *sig = NULL;
		if (git_blob_lookup(&blob, b->repo, mine) == 0 &&
		    git_hashsig_create(&sig, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob),
				       GIT_HASHSIG_SMART_WHITESPACE) == 0)
			for (size_t i = 0; i < ndel; i++) {
				int score = similarity(b->repo, &dblob[i], sig);
				if (score > best_score) {
					best_score = score;
					best = (int)i;
				}
			}
		git_hashsig_free(sig);
		git_blob_free(blob);
		git_error_clear();
	}
	if (best >= 0) {
		*out = path_id(b, deleted[best]->path);
		ret = 1;
	}
out:
	treepath_changes_free(changes, n);
	free(deleted);
	free(dblob);
	free(ablob);
	return ret;
}

/*
 * One parent's diff as git blame gets it: the changes with no context, each
 * as 0-based (old start, old count, new start, new count), the numbers git's
 * xdiff hands blame's hunk callback.  The diff is libgit2's (its xdiff, with
 * the indent heuristic git blame uses by default since 2.14), after git's
 * tail trim; on 35,119 lines of 220 real commits it names git blame's
 * commit for 35,103 (the copy of git's xdiff: 35,106; bench/RESULTS.md).
 */
struct hunks {
	long (*v)[4];
	size_t nr, alloc;
};

/*
 * A hunk header's start is 1-based, and for an empty side the line before
 * the change (git's "-12,0"): the 0-based start is start - 1, or start when
 * that side has no lines.
 */
static int hunk_cb(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	struct hunks *hs = payload;
	long *k;

	hs->v = xgrow(hs->v, &hs->alloc, hs->nr + 1, sizeof(*hs->v));
	k = hs->v[hs->nr++];
	k[0] = hunk->old_lines ? hunk->old_start - 1 : hunk->old_start;
	k[1] = hunk->old_lines;
	k[2] = hunk->new_lines ? hunk->new_start - 1 : hunk->new_start;
	k[3] = hunk->new_lines;
	return 0;
}

struct text {
	const char *ptr;
	size_t size;
};

/*
 * As git's xdi_diff does before a diff without context: drop the common
 * tail in 1 KiB blocks, then give back the part of the last block after
 * its first newline, so that only whole lines are dropped.  It changes
 * where the diff places some ambiguous hunks, so git blame's answers depend
 * on it; libgit2's diff of buffers does not do it itself.
 */
static void trim_common_tail(struct text *a, struct text *b)
{
	const size_t blk = 1024;
	size_t trimmed = 0, recovered = 0;
	size_t smaller = a->size < b->size ? a->size : b->size;
	const char *ap = a->ptr + a->size, *bp = b->ptr + b->size;

	while (blk + trimmed <= smaller && !memcmp(ap - blk, bp - blk, blk)) {
		trimmed += blk;
		ap -= blk;
		bp -= blk;
	}
	while (recovered < trimmed)
		if (ap[recovered++] == '\n')
			break;
	a->size -= trimmed - recovered;
	b->size -= trimmed - recovered;
}

/*
 * Lines kept before the first difference when the common head is cut: the
 * diff may slide a hunk up into equal lines (and the indent heuristic reads
 * up to 100 of them), so they must stay for its placement to be the one the
 * whole file gets.  The cut is not free: xdiff treats lines that occur more
 * often than about the square root of the line count apart, and the cut
 * changes that count; on the real sample 3 lines of 35,119 move.
 */
#define HEAD_MARGIN 256

/*
 * Cut the common head, whole lines, but HEAD_MARGIN of them: libgit2 hashes
 * both sides whole (each line, and each buffer for its id) before its diff
 * drops the common ends itself.  Returns the lines cut.
 */
static long trim_common_head(struct text *a, struct text *b)
{
	size_t n = a->size < b->size ? a->size : b->size, at = 0;
	size_t *starts = NULL, nstarts = 0, alloc = 0;
	long cut;

	/* line starts within the common prefix */
	for (size_t i = 0; i < n && a->ptr[i] == b->ptr[i]; i++)
		if (a->ptr[i] == '\n') {
			starts = xgrow(starts, &alloc, nstarts + 1, sizeof(*starts));
			starts[nstarts++] = i + 1;
		}
	if (nstarts <= HEAD_MARGIN) {
		free(starts);
		return 0;
	}
	cut = (long)(nstarts - HEAD_MARGIN);
	at = starts[cut - 1];
	free(starts);
	a->ptr += at;
	a->size -= at;
	b->ptr += at;
	b->size -= at;
	return cut;
}

static int diff_blobs(struct blamer *b, const git_oid *old, const git_oid *new,
		      struct hunks *hs)
{
	git_diff_options opts;
	git_blob *ob = NULL, *nb = NULL;
	struct text ta, tb;
	long cut;
	int ret;

	if ((ret = git_blob_lookup(&ob, b->repo, old)) < 0 ||
	    (ret = git_blob_lookup(&nb, b->repo, new)) < 0)
		goto out;
	ta.ptr = git_blob_rawcontent(ob);
	ta.size = (size_t)git_blob_rawsize(ob);
	tb.ptr = git_blob_rawcontent(nb);
	tb.size = (size_t)git_blob_rawsize(nb);
	trim_common_tail(&ta, &tb);
	cut = trim_common_head(&ta, &tb);
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	/* git blame diffs every blob as text, NUL bytes or not */
	opts.flags = GIT_DIFF_FORCE_TEXT | GIT_DIFF_INDENT_HEURISTIC;
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	ret = git_diff_buffers(ta.ptr, ta.size, NULL, tb.ptr, tb.size, NULL, &opts,
			       NULL, NULL, hunk_cb, NULL, hs);
	for (size_t i = 0; i < hs->nr; i++) {
		hs->v[i][0] += cut;
		hs->v[i][2] += cut;
	}
out:
	git_blob_free(nb);
	git_blob_free(ob);
	return ret;
}

/*
 * The diffs of one run, by blob pair: a triage of many fixes blames the
 * same files down the same commits again and again, and a diff costs more
 * than the rest of a step.  Bounded: emptied when it holds DIFF_MEMO_MAX.
 */
#define DIFF_MEMO_MAX 1024

static struct diff_memo {
	git_oid old, new;
	struct hunks hs;
} *memo;
static size_t memo_nr, memo_alloc;

static const struct hunks *memo_find(const git_oid *old, const git_oid *new)
{
	for (size_t i = memo_nr; i-- > 0;)
		if (git_oid_equal(&memo[i].new, new) && git_oid_equal(&memo[i].old, old))
			return &memo[i].hs;
	return NULL;
}

static void memo_forget(void)
{
	for (size_t i = 0; i < memo_nr; i++)
		free(memo[i].hs.v);
	memo_nr = 0;
}

/* The diff old -> new, from the memo or computed and kept there. */
static int diff_memo(struct blamer *b, const git_oid *old, const git_oid *new,
		     const struct hunks **out)
{
	struct hunks hs = { NULL, 0, 0 };

	if ((*out = memo_find(old, new)))
		return 0;
	if (diff_blobs(b, old, new, &hs) < 0) {
		free(hs.v);
		return -1;
	}
	if (memo_nr == DIFF_MEMO_MAX)
		memo_forget();
	memo = xgrow(memo, &memo_alloc, memo_nr + 1, sizeof(*memo));
	memo[memo_nr].old = *old;
	memo[memo_nr].new = *new;
	memo[memo_nr].hs = hs;
	*out = &memo[memo_nr++].hs;
	return 0;
}

static int cmp_lref(const void *x, const void *y)
{
	const struct lref *a = x, *b = y;
	return a->line < b->line ? -1 : a->line > b->line;
}

/*
 * git's pass_blame_to_parent: the lines of lines[0..*nr) (sorted) that
 * the diff parent -> suspect leaves unchanged go to the parent's suspect
 * (renumbered); the rest stay in lines[], *nr shrinks to them.
 */
static int pass_to_parent(struct blamer *b, size_t si, uint32_t parent, unsigned ppath,
			  const git_oid *pblob, struct lref *lines, size_t *nr)
{
	const struct hunks *hs;
	git_oid blob = b->s[si].blob;
	size_t keep = 0, h = 0, pi;
	long delta = 0;         /* parent line - suspect line, outside hunks */

	if (diff_memo(b, pblob, &blob, &hs) < 0)
		return -1;
	pi = suspect_get(b, parent, ppath, pblob);
	for (size_t i = 0; i < *nr; i++) {
		long n = (long)lines[i].line;
		bool changed = false;

		for (; h < hs->nr; h++) {
			const long *k = hs->v[h];
			/* 0-based starts: the hunk's new lines are k[2]+1 .. k[2]+k[3] */
			long new_end = k[2] + k[3] + 1;
			if (n > k[2] && n < new_end) {
				changed = true;
				break;
			}
			if (n <= k[2])
				break;
			delta = (k[0] + k[1]) - (k[2] + k[3]);
		}
		if (changed)
			lines[keep++] = lines[i];
		else
			give(b, pi, (size_t)(n + delta), lines[i].idx);
	}
	*nr = keep;
	return 0;
}

/* git's pass_blame for one suspect: its lines go to parents or stay. */
static int pass_blame(struct blamer *b, size_t si)
{
	struct dag *dag = b->dag;
	uint32_t commit = b->s[si].commit;
	unsigned np;
	const uint32_t *par = dag_parents(dag, commit, &np);
	struct lref *lines = b->s[si].v;
	size_t nr = b->s[si].nr;
	unsigned *ppath = xcalloc(np + 1, sizeof(*ppath));
	git_oid *pblob = xcalloc(np + 1, sizeof(*pblob));
	bool *have = xcalloc(np + 1, sizeof(*have));    /* lines may go there */
	bool *found = xcalloc(np + 1, sizeof(*found));  /* the parent has the path */
	int ret = 0;

	b->s[si].v = NULL;
	b->s[si].nr = b->s[si].alloc = 0;
	/* pass 1: the same path; pass 2: a rename, for parents without it */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < np; i++) {
			unsigned path = b->s[si].path;
			bool same = false;

			if (found[i])
				continue;
			if (pass) {
				int r = find_rename(b, par[i], commit, path, &path);
				if (r < 0) {
					ret = -1;
					goto out;
				}
				if (!r)
					continue;
			}
			if (!treepath_lookup(&b->paths[path].tp, &dag->trees[par[i]], &pblob[i]))
				continue;
			found[i] = true;
			if (git_oid_equal(&pblob[i], &b->s[si].blob)) {
				size_t pi = suspect_get(b, par[i], path, &pblob[i]);
				for (size_t k = 0; k < nr; k++)
					give(b, pi, lines[k].line, lines[k].idx);
				nr = 0;
				goto out;
			}
			/* a parent with the blob of an earlier one adds nothing */
			for (unsigned j = 0; j < i && !same; j++)
				same = have[j] && git_oid_equal(&pblob[j], &pblob[i]);
			have[i] = !same;
			ppath[i] = path;
		}
	}
	if (nr > 1)
		qsort(lines, nr, sizeof(*lines), cmp_lref);
	for (unsigned i = 0; i < np && nr; i++)
		if (have[i] && pass_to_parent(b, si, par[i], ppath[i], &pblob[i], lines, &nr) < 0) {
			ret = -1;
			goto out;
		}
out:
	for (size_t k = 0; k < nr; k++)
		b->out[lines[k].idx] = commit;
	free(lines);
	free(found);
	free(have);
	free(pblob);
	free(ppath);
	return ret;
}

static size_t count_lines(git_repository *repo, const git_oid *blob_id)
{
	git_blob *blob;
	const char *p, *end;
	size_t n = 0;

	if (git_blob_lookup(&blob, repo, blob_id) < 0) {
		git_error_clear();
		return 0;
	}
	p = git_blob_rawcontent(blob);
	end = p + git_blob_rawsize(blob);
	for (const char *q = p; q < end; q++)
		n += *q == '\n';
	if (end > p && end[-1] != '\n')
		n++;
	git_blob_free(blob);
	return n;
}

int lineblame(git_repository *repo, struct dag *dag, uint32_t base,
	      const char *path, const size_t *lines, size_t n, uint32_t *out)
{
	struct blamer b = { .repo = repo, .dag = dag, .out = out };
	git_oid blob;
	size_t total, si;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		out[i] = PV_NONE;
	if ((ret = dag_load(dag, base)))
		return ret;
	path_id(&b, path);
	if (!treepath_lookup(&b.paths[0].tp, &dag->trees[base], &blob))
		goto out;       /* no such file: every line is beyond its end */
	total = count_lines(repo, &blob);
	si = suspect_get(&b, base, 0, &blob);
	for (size_t i = 0; i < n; i++)
		if (lines[i] >= 1 && lines[i] <= total)
			give(&b, si, lines[i], i);
	while (b.nheap && !ret)
		ret = pass_blame(&b, heap_pop(&b));
	/*
	 * inside, -1 is a missing object: libgit2's words when it read it,
	 * else treepath's, recorded already
	 */
	if (ret)
		ret = git_error_last() ? pv_error_set(PV_ECORRUPT, "%s", git_errmsg()) : PV_ECORRUPT;
out:
	for (size_t i = 0; i < b.ns; i++)
		free(b.s[i].v);
	free(b.s);
	free(b.slots);
	free(b.heap);
	for (size_t i = 0; i < b.npaths; i++) {
		treepath_free(&b.paths[i].tp);
		free(b.paths[i].name);
	}
	free(b.paths);
	return ret;
}
