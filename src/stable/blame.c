/*
 * Blaming the lines a diff touches.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/stable/blame.h"
#include "patchver/base/util.h"

enum line_kind { LINE_CONTEXT, LINE_NEIGHBOUR, LINE_REMOVED };

struct want {
	size_t line;
	enum line_kind kind;
};

struct file_lines {
	char *path;
	struct want *v;
	size_t nr, alloc;
};

static void want(struct file_lines *f, size_t line, enum line_kind kind)
{
	/* a line may be wanted twice (context, then neighbour): keep the strongest */
	for (size_t i = f->nr; i-- > 0 && i + 8 >= f->nr;) {
		if (f->v[i].line == line) {
			if (kind > f->v[i].kind)
				f->v[i].kind = kind;
			return;
		}
	}
	f->v = xgrow(f->v, &f->alloc, f->nr + 1, sizeof(*f->v));
	f->v[f->nr].line = line;
	f->v[f->nr++].kind = kind;
}

/*
 * Walk one hunk body from *p; old numbering starts at oldline.  An added
 * run with no removal beside it marks its neighbours.
 */
static const char *scan_hunk(struct file_lines *f, const char *p, size_t oldline,
			     long before, long after)
{
	bool in_block = false, block_removes = false;
	size_t block_start = oldline;

	while (*p && (before > 0 || after > 0)) {
		const char *eol = strchr(p, '\n');
		char c = *p;

		if (c == ' ' || c == '\n') {
			if (in_block && !block_removes) {
				if (block_start > 1)
					want(f, block_start - 1, LINE_NEIGHBOUR);
				want(f, oldline, LINE_NEIGHBOUR);
			}
			in_block = false;
			want(f, oldline, LINE_CONTEXT);   /* a neighbour stays one */
			oldline++;
			before--;
			after--;
		} else if (c == '-' || c == '+') {
			if (!in_block) {
				in_block = true;
				block_removes = false;
				block_start = oldline;
			}
			if (c == '-') {
				block_removes = true;
				want(f, oldline++, LINE_REMOVED);
				before--;
			} else {
				after--;
			}
		} else if (c != '\\') {
			break;
		}
		p = eol ? eol + 1 : p + strlen(p);
	}
	if (in_block && !block_removes && block_start > 1)
		want(f, block_start - 1, LINE_NEIGHBOUR);
	return p;
}

/* Parse a git-format diff into the preimage lines of each file. */
static size_t parse(const char *diff, struct file_lines **out)
{
	struct file_lines *files = NULL, *f = NULL;
	size_t nr = 0, alloc = 0;
	const char *p = diff;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > 6 && !strncmp(p, "--- a/", 6)) {
			files = xgrow(files, &alloc, nr + 1, sizeof(*files));
			f = &files[nr++];
			memset(f, 0, sizeof(*f));
			f->path = xstrndup(p + 6, len - 6);
		} else if (!strncmp(p, "--- /dev/null", 13)) {
			f = NULL;       /* a new file: no preimage to blame */
		} else if (f && !strncmp(p, "@@ -", 4)) {
			char *e;
			long start = strtol(p + 4, &e, 10), before = 1, after = 1;
			if (*e == ',')
				before = strtol(e + 1, &e, 10);
			if (!strncmp(e, " +", 2)) {
				strtol(e + 2, &e, 10);
				if (*e == ',')
					after = strtol(e + 1, &e, 10);
			}
			/* an empty preimage range names the line before the hunk */
			p = scan_hunk(f, eol ? eol + 1 : p + len,
				      (size_t)(before ? start : start + 1), before, after);
			continue;
		}
		p += len + (eol ? 1 : 0);
	}
	*out = files;
	return nr;
}

static struct blamed *blamed_for(struct blame_result *r, const git_oid *id, size_t *alloc)
{
	for (size_t i = 0; i < r->nr; i++)
		if (git_oid_equal(&r->v[i].commit, id))
			return &r->v[i];
	r->v = xgrow(r->v, alloc, r->nr + 1, sizeof(*r->v));
	memset(&r->v[r->nr], 0, sizeof(r->v[0]));
	r->v[r->nr].commit = *id;
	return &r->v[r->nr++];
}

static int cmp_line(const void *a, const void *b)
{
	size_t x = ((const struct want *)a)->line, y = ((const struct want *)b)->line;
	return x < y ? -1 : x > y;
}

static int blame_file(git_repository *repo, const git_oid *base, struct file_lines *f,
		      struct blame_result *r, size_t *alloc)
{
	git_blame_options opts;
	git_blame *blame = NULL;

	if (!f->nr)
		return 0;
	git_blame_options_init(&opts, GIT_BLAME_OPTIONS_VERSION);
	qsort(f->v, f->nr, sizeof(*f->v), cmp_line);
	opts.newest_commit = *base;
	opts.min_line = f->v[0].line;
	opts.max_line = f->v[f->nr - 1].line;
	if (git_blame_file(&blame, repo, f->path, &opts) < 0)
		return -1;
	for (size_t i = 0; i < f->nr; i++) {
		const git_blame_hunk *h = git_blame_get_hunk_byline(blame, f->v[i].line);
		struct blamed *b;

		if (!h)
			continue;   /* beyond the end of the file */
		b = blamed_for(r, &h->final_commit_id, alloc);
		if (f->v[i].kind == LINE_REMOVED)
			b->removed++;
		else if (f->v[i].kind == LINE_NEIGHBOUR)
			b->neighbour++;
		else
			b->context++;
		r->lines++;
	}
	git_blame_free(blame);
	return 0;
}

int blame_diff(git_repository *repo, const git_oid *base, const char *diff,
	       struct blame_result *out)
{
	struct file_lines *files;
	size_t nfiles = parse(diff, &files), alloc = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < nfiles && !ret; i++)
		ret = blame_file(repo, base, &files[i], out, &alloc);
	for (size_t i = 0; i < nfiles; i++) {
		free(files[i].path);
		free(files[i].v);
	}
	free(files);
	return ret;
}

void blame_result_free(struct blame_result *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static int cmp_rank(const void *a_, const void *b_)
{
	const struct blamed *a = a_, *b = b_;
	unsigned wa = a->removed + a->neighbour, wb = b->removed + b->neighbour;

	if (wa != wb)
		return wa > wb ? -1 : 1;
	if (a->context != b->context)
		return a->context > b->context ? -1 : 1;
	return git_oid_cmp(&a->commit, &b->commit);
}

void blame_rank(struct blame_result *r)
{
	qsort(r->v, r->nr, sizeof(*r->v), cmp_rank);
}
