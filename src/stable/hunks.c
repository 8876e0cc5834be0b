/*
 * Diffs as files and hunks, and hunks applied as git apply and GNU patch
 * apply them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/stable/hunks.h"

void text_lines_add(struct text_lines *l, const char *s, size_t n)
{
	l->v = xgrow(l->v, &l->alloc, l->nr + 1, sizeof(*l->v));
	l->len = xrealloc(l->len, l->alloc * sizeof(*l->len));
	l->v[l->nr] = xstrndup(s, n);
	l->len[l->nr++] = n;
}

void text_lines_split(struct text_lines *l, const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		size_t len = eol ? (size_t)(eol - s) + 1 : (size_t)(end - s);
		text_lines_add(l, s, len);
		s += len;
	}
}

void text_lines_copy(struct text_lines *dst, const struct text_lines *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->nr; i++)
		text_lines_add(dst, src->v[i], src->len[i]);
}

void text_lines_free(struct text_lines *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	free(l->len);
	memset(l, 0, sizeof(*l));
}

char *text_lines_join(const struct text_lines *l, size_t *size)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < l->nr; i++)
		sbuf_add(&sb, l->v[i], l->len[i]);
	*size = sb.len;
	return sb.buf ? sb.buf : xstrdup("");
}

const char *file_diff_path(const struct file_diff *f)
{
	return f->new_path ? f->new_path : f->old_path;
}

static char *path_after(const char *line, const char *prefix)
{
	size_t n = strcspn(line, "\t\n");

	if (!strncmp(line, "/dev/null", 9))
		return NULL;
	if (!strncmp(line, prefix, 2))
		line += 2, n -= 2;
	return xstrndup(line, n);
}

/*
 * The paths of "diff --git a/P b/P", for diffs without "---"/"+++" lines
 * (libgit2 prints a parsed diff that way).  Both sides equal: the line is
 * "a/" P " b/" P, so P is half of what remains.
 */
static void git_line_paths(struct file_diff *f, const char *rest)
{
	size_t len = strcspn(rest, "\n");

	if (len < 6 || len % 2 == 0 || strncmp(rest, "a/", 2) ||
	    strncmp(rest + len / 2 + 1, "b/", 2) || rest[len / 2] != ' ' ||
	    strncmp(rest + 2, rest + len / 2 + 3, len / 2 - 2))
		return;
	f->old_path = xstrndup(rest + 2, len / 2 - 2);
	f->new_path = xstrdup(f->old_path);
}

/* "index 1234abc..5678def 100644": the two blob ids. */
static void index_line(struct file_diff *f, const char *rest)
{
	size_t a = strspn(rest, "0123456789abcdef");

	if (a < 4 || a > 40 || strncmp(rest + a, "..", 2))
		return;
	size_t b = strspn(rest + a + 2, "0123456789abcdef");
	if (b < 4 || b > 40)
		return;
	memcpy(f->old_blob, rest, a);
	f->old_blob[a] = '\0';
	memcpy(f->new_blob, rest + a + 2, b);
	f->new_blob[b] = '\0';
}

static struct file_hunk *new_hunk(struct file_diff *f, const char *header)
{
	struct file_hunk *h;
	const char *sec = strstr(header + 2, "@@");

	f->hunks = xrealloc(f->hunks, (f->nhunks + 1) * sizeof(*f->hunks));
	h = &f->hunks[f->nhunks++];
	memset(h, 0, sizeof(*h));
	if (sscanf(header, "@@ -%ld", &h->old_start) != 1)
		h->old_start = 0;
	sec = sec ? sec + 2 : "";
	sec += strspn(sec, " ");
	h->section = xstrndup(sec, strcspn(sec, "\r\n"));
	return h;
}

/* One body line of hunk h: "+x", "-x", " x" or "\ No newline ..." after prev. */
static void hunk_line(struct file_hunk *h, const char *l, size_t n, char prev, bool *changed)
{
	if (*l == '\\') {
		/* "\ No newline at end of file": the line before has no '\n' */
		if ((prev == ' ' || prev == '-') && h->pre.nr)
			h->pre.len[h->pre.nr - 1]--;
		if ((prev == ' ' || prev == '+') && h->post.nr)
			h->post.len[h->post.nr - 1]--;
		return;
	}
	if (*l == ' ' || *l == '-')
		text_lines_add(&h->pre, l + 1, n - 1);
	if (*l == ' ' || *l == '+')
		text_lines_add(&h->post, l + 1, n - 1);
	if (*l == ' ') {
		if (*changed)
			h->trail++;
		else
			h->lead++;
	} else {
		*changed = true;
		h->trail = 0;
	}
}

static struct file_diff *new_file(struct diff_files *d, size_t *alloc, const char *rest)
{
	struct file_diff *f;

	d->v = xgrow(d->v, alloc, d->nr + 1, sizeof(*d->v));
	f = &d->v[d->nr++];
	memset(f, 0, sizeof(*f));
	f->new_mode = 0100644;
	git_line_paths(f, rest);
	return f;
}

/* A header line of f before its hunks. */
static void header_line(struct file_diff *f, const char *l)
{
	if (!strncmp(l, "new file mode ", 14)) {
		free(f->old_path);
		f->old_path = NULL;
		f->new_mode = (unsigned)strtoul(l + 14, NULL, 8);
	} else if (!strncmp(l, "deleted file mode ", 18)) {
		free(f->new_path);
		f->new_path = NULL;
	} else if (!strncmp(l, "--- ", 4)) {
		free(f->old_path);
		f->old_path = path_after(l + 4, "a/");
	} else if (!strncmp(l, "+++ ", 4)) {
		free(f->new_path);
		f->new_path = path_after(l + 4, "b/");
	} else if (!strncmp(l, "new mode ", 9)) {
		f->new_mode = (unsigned)strtoul(l + 9, NULL, 8);
		f->mode_change = true;
	} else if (!strncmp(l, "index ", 6)) {
		index_line(f, l + 6);
	} else if (!strncmp(l, "Binary files ", 13) || !strncmp(l, "GIT binary patch", 16)) {
		f->binary = true;
	}
}

size_t diff_files_parse(struct diff_files *d, const char *text)
{
	struct text_lines all = { 0 };
	struct file_diff *f = NULL;
	struct file_hunk *h = NULL;
	size_t alloc = 0;
	bool changed = false;

	memset(d, 0, sizeof(*d));
	text_lines_split(&all, text, strlen(text));
	for (size_t i = 0; i < all.nr; i++) {
		const char *l = all.v[i];
		if (!strncmp(l, "diff --git ", 11)) {
			f = new_file(d, &alloc, l + 11);
			h = NULL;
		} else if (!f) {
			continue;
		} else if (!strncmp(l, "@@", 2)) {
			h = new_hunk(f, l);
			changed = false;
		} else if (h && strchr(" -+\\", *l)) {
			hunk_line(h, l, all.len[i], i ? all.v[i - 1][0] : ' ', &changed);
		} else if (!h) {
			header_line(f, l);
		}
	}
	text_lines_free(&all);
	return d->nr;
}

void diff_files_free(struct diff_files *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		struct file_diff *f = &d->v[i];
		for (size_t k = 0; k < f->nhunks; k++) {
			text_lines_free(&f->hunks[k].pre);
			text_lines_free(&f->hunks[k].post);
			free(f->hunks[k].section);
		}
		free(f->hunks);
		free(f->old_path);
		free(f->new_path);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* Do lines pre[from, from + n) match img at at? */
static bool matches_at(const struct text_lines *img, const struct text_lines *pre, size_t from,
		       size_t n, size_t at)
{
	if (at + n > img->nr)
		return false;
	for (size_t i = 0; i < n; i++)
		if (pre->len[from + i] != img->len[at + i] ||
		    memcmp(pre->v[from + i], img->v[at + i], pre->len[from + i]))
			return false;
	return true;
}

/* The position nearest want where the lines match, searching both ways. */
static bool find_lines(const struct text_lines *img, const struct text_lines *pre, size_t from,
		       size_t n, size_t want, size_t *at)
{
	if (want > img->nr)
		want = img->nr;
	for (size_t d = 0; d <= img->nr; d++) {
		if (want >= d && matches_at(img, pre, from, n, want - d)) {
			*at = want - d;
			return true;
		}
		if (d && want + d <= img->nr && matches_at(img, pre, from, n, want + d)) {
			*at = want + d;
			return true;
		}
		if (want < d && want + d > img->nr)
			break;
	}
	return false;
}

/* Replace img[at, at + n) by post[from, from + m). */
static void splice(struct text_lines *img, size_t at, size_t n, const struct text_lines *post,
		   size_t from, size_t m)
{
	size_t nr = img->nr - n + m;

	for (size_t k = 0; k < n; k++)
		free(img->v[at + k]);
	if (nr > img->alloc || !img->v) {
		/* an empty file has no arrays yet: give it room for one line at least */
		img->alloc = nr ? nr : 1;
		img->v = xrealloc(img->v, img->alloc * sizeof(*img->v));
		img->len = xrealloc(img->len, img->alloc * sizeof(*img->len));
	}
	memmove(img->v + at + m, img->v + at + n, (img->nr - at - n) * sizeof(*img->v));
	memmove(img->len + at + m, img->len + at + n, (img->nr - at - n) * sizeof(*img->len));
	img->nr = nr;
	for (size_t k = 0; k < m; k++) {
		img->v[at + k] = xstrndup(post->v[from + k], post->len[from + k]);
		img->len[at + k] = post->len[from + k];
	}
}

/*
 * One hunk, with fuzz context lines dropped at each end (as many as it
 * has).  Some line must stay to anchor it: a hunk that only adds lines
 * keeps one of context at least.
 */
static bool apply_one(struct text_lines *img, const struct file_hunk *h, unsigned fuzz, long *shift,
		      struct hunk_place *place)
{
	size_t drop_lead = fuzz < h->lead ? fuzz : h->lead;
	size_t drop_trail = fuzz < h->trail ? fuzz : h->trail;
	size_t n = h->pre.nr - drop_lead - drop_trail;
	size_t m = h->post.nr - drop_lead - drop_trail;
	size_t removed = h->pre.nr - h->lead - h->trail;
	size_t want, at;

	if (fuzz && (drop_lead + drop_trail == 0 || (removed == 0 && n == 0)))
		return false;
	want = h->old_start > 0 ? (size_t)((long)h->old_start - 1 + *shift) : 0;
	if ((long)want < 0)
		want = 0;
	want += drop_lead;
	if (!find_lines(img, &h->pre, drop_lead, n, want, &at))
		return false;
	splice(img, at, n, &h->post, drop_lead, m);
	*shift += (long)m - (long)n + ((long)at - (long)want);
	place->offset = (long)at - (long)want;
	place->fuzz = fuzz;
	return true;
}

bool hunk_find(const struct text_lines *img, const struct file_hunk *h, unsigned max_fuzz,
	       size_t want, size_t *at, unsigned *fuzz)
{
	for (unsigned f = 0; f <= max_fuzz; f++) {
		size_t drop_lead = f < h->lead ? f : h->lead;
		size_t drop_trail = f < h->trail ? f : h->trail;
		size_t n = h->pre.nr - drop_lead - drop_trail;
		if (f && drop_lead + drop_trail == 0)
			continue;
		if (n && find_lines(img, &h->pre, drop_lead, n, want + drop_lead, at)) {
			*fuzz = f;
			return true;
		}
	}
	return false;
}

/* Each hunk in turn: 0, or the first that does not apply (1-based); skip: go on past it. */
static int apply_each(struct text_lines *img, const struct file_diff *f, unsigned max_fuzz,
		      struct hunk_place *places, bool skip, size_t *skipped)
{
	long shift = 0;
	int first = 0;

	for (size_t k = 0; k < f->nhunks; k++) {
		struct hunk_place place = { 0 };
		bool done = false;
		for (unsigned fuzz = 0; fuzz <= max_fuzz && !done; fuzz++)
			done = apply_one(img, &f->hunks[k], fuzz, &shift, &place);
		if (!done && !first)
			first = (int)k + 1;
		if (!done && !skip)
			return first;
		if (!done)
			(*skipped)++;
		if (places)
			places[k] = place;
	}
	return first;
}

int hunks_apply(struct text_lines *img, const struct file_diff *f, unsigned max_fuzz,
		struct hunk_place *places)
{
	return apply_each(img, f, max_fuzz, places, false, NULL);
}

size_t hunks_apply_some(struct text_lines *img, const struct file_diff *f, unsigned max_fuzz,
			struct hunk_place *places)
{
	size_t skipped = 0;

	apply_each(img, f, max_fuzz, places, true, &skipped);
	return skipped;
}
