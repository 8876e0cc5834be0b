/*
 * Blaming the lines a diff touches: which preimage lines, of what kind,
 * and who last changed each (lineblame).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/lineblame.h"
#include "patchver/stable/fixblame.h"

struct want {
	size_t line;
	enum blame_kind kind;
	unsigned hunk;
};

struct file_lines {
	char *path;
	struct want *v;
	size_t nr, alloc;
};

static void want(struct file_lines *f, size_t line, enum blame_kind kind, unsigned hunk)
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
	f->v[f->nr].hunk = hunk;
	f->v[f->nr++].kind = kind;
}

/*
 * An added line that supports the code rather than changing it: an
 * #include, a declaration (extern ...; or a forward "struct x;"), blank.
 */
static bool support_line(const char *p, size_t len)
{
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	if (!len || (len >= 8 && !strncmp(p, "#include", 8)))
		return true;
	if (p[len - 1] != ';')
		return false;
	if (len > 7 && !strncmp(p, "extern ", 7))
		return true;
	/* "struct name;" */
	return len > 8 && !strncmp(p, "struct ", 7) && !memchr(p + 7, ' ', len - 8) &&
	       !memchr(p, '(', len);
}

/*
 * Walk one hunk body from *p; old numbering starts at oldline.  An added
 * run with no removal beside it marks its neighbours.  *aside: the hunk
 * removes nothing and adds only support lines (an #include for a header
 * that came later must not decide where the bug is).
 */
static const char *scan_hunk(struct file_lines *f, const char *p, size_t oldline,
			     long before, long after, unsigned hunk, bool *aside)
{
	bool in_block = false, block_removes = false;
	size_t block_start = oldline;

	*aside = true;

	while (*p && (before > 0 || after > 0)) {
		const char *eol = strchr(p, '\n');
		char c = *p;

		if (c == ' ' || c == '\n') {
			if (in_block && !block_removes) {
				if (block_start > 1)
					want(f, block_start - 1, LINE_NEIGHBOUR, hunk);
				want(f, oldline, LINE_NEIGHBOUR, hunk);
			}
			in_block = false;
			want(f, oldline, LINE_CONTEXT, hunk);   /* a neighbour stays one */
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
				*aside = false;
				want(f, oldline++, LINE_REMOVED, hunk);
				before--;
			} else {
				*aside &= support_line(p + 1, eol ? (size_t)(eol - p - 1) :
						       strlen(p + 1));
				after--;
			}
		} else if (c != '\\') {
			break;
		}
		p = eol ? eol + 1 : p + strlen(p);
	}
	if (in_block && !block_removes && block_start > 1)
		want(f, block_start - 1, LINE_NEIGHBOUR, hunk);
	return p;
}

/* Parse a git-format diff into the preimage lines of each file. */
static size_t parse(const char *diff, struct file_lines **out, unsigned *nhunks, bool **aside)
{
	struct file_lines *files = NULL, *f = NULL;
	size_t nr = 0, alloc = 0, aalloc = 0;

	*nhunks = 0;
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
			*aside = xgrow(*aside, &aalloc, *nhunks + 1, sizeof(**aside));
			p = scan_hunk(f, eol ? eol + 1 : p + len,
				      (size_t)(before ? start : start + 1), before, after,
				      *nhunks, &(*aside)[*nhunks]);
			(*nhunks)++;
			continue;
		}
		p += len + (eol ? 1 : 0);
	}
	*out = files;
	return nr;
}

static struct blamed *blamed_for(struct fixblame *r, const git_oid *id, size_t *alloc)
{
	for (size_t i = 0; i < r->nr; i++)
		if (git_oid_equal(&r->v[i].commit, id))
			return &r->v[i];
	r->v = xgrow(r->v, alloc, r->nr + 1, sizeof(*r->v));
	memset(&r->v[r->nr], 0, sizeof(r->v[0]));
	r->v[r->nr].commit = *id;
	return &r->v[r->nr++];
}

static int blame_file(git_repository *repo, struct dag *dag, uint32_t base,
		      struct file_lines *f, unsigned file, struct fixblame *r,
		      size_t *alloc)
{
	size_t *lines = xmalloc((f->nr + 1) * sizeof(*lines));
	uint32_t *commits = xmalloc((f->nr + 1) * sizeof(*commits));
	int ret;

	for (size_t i = 0; i < f->nr; i++)
		lines[i] = f->v[i].line;
	ret = lineblame(repo, dag, base, f->path, lines, f->nr, commits);
	for (size_t i = 0; !ret && i < f->nr; i++) {
		struct blamed_line *l;
		struct blamed *b;

		r->line = xrealloc(r->line, (r->nlines + 1) * sizeof(*r->line));
		l = &r->line[r->nlines++];
		l->file = file;
		l->hunk = f->v[i].hunk;
		l->line = f->v[i].line;
		l->kind = f->v[i].kind;
		l->commit = commits[i];
		if (commits[i] == PV_NONE)
			continue;   /* beyond the end of the file */
		b = blamed_for(r, &dag->oids[commits[i]], alloc);
		if (l->kind == LINE_REMOVED)
			b->removed++;
		else if (l->kind == LINE_NEIGHBOUR)
			b->neighbour++;
		else
			b->context++;
		r->lines++;
	}
	free(commits);
	free(lines);
	return ret;
}

int fixblame_run(git_repository *repo, struct dag *dag, uint32_t base,
	       const char *diff, struct fixblame *out)
{
	struct file_lines *files;
	size_t nfiles, alloc = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	nfiles = parse(diff, &files, &out->nhunks, &out->aside);
	for (size_t i = 0; i < nfiles && !ret; i++)
		ret = blame_file(repo, dag, base, &files[i], (unsigned)i, out, &alloc);
	out->paths = xmalloc((nfiles + 1) * sizeof(*out->paths));
	for (size_t i = 0; i < nfiles; i++) {
		out->paths[out->npaths++] = files[i].path;
		free(files[i].v);
	}
	free(files);
	return ret;
}

void fixblame_free(struct fixblame *r)
{
	free(r->v);
	free(r->line);
	free(r->aside);
	for (size_t i = 0; i < r->npaths; i++)
		free(r->paths[i]);
	free(r->paths);
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

void fixblame_rank(struct fixblame *r)
{
	if (r->nr > 1)
		qsort(r->v, r->nr, sizeof(*r->v), cmp_rank);
}
