/*
 * Mails, mboxes and diffs in; normalized patches with patch-ids out.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/treepath.h"
#include "patchver/stable/patch.h"
#include "patchver/stable/patchid.h"

/* Lines of a text, NUL-terminated in place (the text is a private copy). */
struct lines {
	char **v;
	size_t nr;
};

static void split_lines(struct lines *l, char *text)
{
	size_t alloc = 0;
	char *p = text;

	l->v = NULL;
	l->nr = 0;
	while (*p) {
		char *nl = strchr(p, '\n');
		l->v = xgrow(l->v, &alloc, l->nr + 1, sizeof(*l->v));
		l->v[l->nr++] = p;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
	}
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

char *patch_clean_subject(const char *subject)
{
	const char *p = subject;
	char *out, *q;

	while (isspace((unsigned char)*p))
		p++;
	/* "[PATCH v2 3/7] [stable] x" -> "x"; "Re:" is kept: it is another mail */
	while (*p == '[') {
		const char *end = strchr(p, ']');
		if (!end)
			break;
		p = end + 1;
		while (isspace((unsigned char)*p))
			p++;
	}
	out = xstrdup(p);
	/* fold runs of white space (headers are unfolded into spaces) */
	for (p = q = out; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (q > out && q[-1] != ' ')
				*q++ = ' ';
		} else {
			*q++ = *p;
		}
	}
	while (q > out && q[-1] == ' ')
		q--;
	*q = '\0';
	return out;
}

/* "jack-AT-suse.cz" (LWN's archive) and "jack at suse.cz" -> "jack@suse.cz" */
static char *clean_address(const char *from)
{
	struct sbuf sb = SBUF_INIT;
	const char *p = from;

	while (isspace((unsigned char)*p))
		p++;
	while (*p) {
		if (!strncmp(p, "-AT-", 4)) {
			sbuf_adds(&sb, "@");
			p += 4;
		} else if (!strncmp(p, " at ", 4) && strchr(p, '>')) {
			sbuf_adds(&sb, "@");
			p += 4;
		} else {
			sbuf_add(&sb, p++, 1);
		}
	}
	return sb.buf ? sb.buf : xstrdup("");
}

static bool is_header(const char *line)
{
	const char *p = line;

	if (!isalpha((unsigned char)*p))
		return false;
	while (isalnum((unsigned char)*p) || *p == '-')
		p++;
	return *p == ':';
}

/* Web archives turn header spacing into no-break spaces (U+00A0): undo it. */
static char *nbsp_to_space(char *s)
{
	char *src = s, *dst = s;

	while (*src) {
		if ((unsigned char)src[0] == 0xc2 && (unsigned char)src[1] == 0xa0) {
			*dst++ = ' ';
			src += 2;
		} else {
			*dst++ = *src++;
		}
	}
	*dst = '\0';
	return s;
}

/* Value of header name, unfolded; NULL if absent. */
static char *header(struct lines *l, size_t from, size_t to, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = from; i < to; i++) {
		struct sbuf sb = SBUF_INIT;
		if (strncasecmp(l->v[i], name, n) || l->v[i][n] != ':')
			continue;
		sbuf_adds(&sb, l->v[i] + n + 1);
		while (i + 1 < to && (l->v[i + 1][0] == ' ' || l->v[i + 1][0] == '\t')) {
			sbuf_adds(&sb, " ");
			sbuf_adds(&sb, l->v[++i]);
		}
		return nbsp_to_space(sb.buf ? sb.buf : xstrdup(""));
	}
	return NULL;
}

/* Does line i start a file's diff? */
static bool diff_start(struct lines *l, size_t i, size_t end)
{
	const char *s = l->v[i];

	if (starts(s, "diff ") || starts(s, "Index: "))
		return true;
	return starts(s, "--- ") && i + 1 < end && starts(l->v[i + 1], "+++ ");
}

/* The path of a "--- x" / "+++ x" line, one leading directory stripped. */
static char *plain_path(const char *s, bool *dev_null)
{
	const char *p = s + 4, *end, *slash;

	end = strchr(p, '\t');
	if (!end)
		end = p + strlen(p);
	if (end - p >= 9 && !strncmp(p, "/dev/null", 9)) {
		*dev_null = true;
		return NULL;
	}
	*dev_null = false;
	slash = memchr(p, '/', (size_t)(end - p));
	if (slash)
		p = slash + 1;
	while (end > p && end[-1] == ' ')
		end--;
	return xstrndup(p, (size_t)(end - p));
}

static void add_path(struct patch *p, const char *path)
{
	for (size_t i = 0; i < p->npaths; i++)
		if (!strcmp(p->paths[i], path))
			return;
	p->paths = xrealloc(p->paths, (p->npaths + 1) * sizeof(char *));
	p->paths[p->npaths++] = xstrdup(path);
}

/* "@@ -a,b +c,d @@": the counts of old and new lines */
static bool hunk_counts(const char *s, long *before, long *after)
{
	const char *p = s + 4;
	char *e;

	strtol(p, &e, 10);
	*before = *e == ',' ? strtol(e + 1, &e, 10) : 1;
	if (strncmp(e, " +", 2))
		return false;
	strtol(e + 2, &e, 10);
	*after = *e == ',' ? strtol(e + 1, &e, 10) : 1;
	return *before >= 0 && *after >= 0;
}

/* Copy hunks from line *i on; returns false if none was complete. */
static bool copy_hunks(struct lines *l, size_t *i, size_t end, struct sbuf *out)
{
	bool any = false;

	while (*i < end && starts(l->v[*i], "@@ -")) {
		long before, after;

		if (!hunk_counts(l->v[*i], &before, &after))
			return any;
		sbuf_addf(out, "%s\n", l->v[(*i)++]);
		while (*i < end && (before > 0 || after > 0)) {
			const char *s = l->v[*i];
			char c = *s ? *s : ' ';   /* mailers eat a blank context line's space */
			if (c == ' ') {
				before--;
				after--;
			} else if (c == '-') {
				before--;
			} else if (c == '+') {
				after--;
			} else if (c != '\\') {
				break;
			}
			sbuf_addf(out, "%s%s\n", *s ? "" : " ", s);
			(*i)++;
		}
		while (*i < end && starts(l->v[*i], "\\ "))
			sbuf_addf(out, "%s\n", l->v[(*i)++]);
		any = before <= 0 && after <= 0;
	}
	return any;
}

/* One file of a git-format diff: header lines kept as they are. */
static bool git_file(struct patch *p, struct lines *l, size_t *i, size_t end,
		     struct sbuf *out)
{
	const char *s = l->v[*i];
	const char *b = strstr(s, " b/");

	if (b)
		add_path(p, b + 3);
	sbuf_addf(out, "%s\n", l->v[(*i)++]);
	while (*i < end && !starts(l->v[*i], "diff ") && !starts(l->v[*i], "@@ -")) {
		sbuf_addf(out, "%s\n", l->v[*i]);
		if (starts(l->v[*i], "--- ") && *i + 1 < end && starts(l->v[*i + 1], "+++ ")) {
			sbuf_addf(out, "%s\n", l->v[*i + 1]);
			*i += 2;
			break;
		}
		(*i)++;
	}
	return copy_hunks(l, i, end, out);
}

/* One file of a plain diff (diff -up, Index:, bare ---/+++): git headers made. */
static bool plain_file(struct patch *p, struct lines *l, size_t *i, size_t end,
		       struct sbuf *out)
{
	char *old = NULL, *new = NULL;
	bool old_null, new_null, ok;
	const char *path;

	while (*i < end && !(starts(l->v[*i], "--- ") && *i + 1 < end &&
			     starts(l->v[*i + 1], "+++ ")))
		(*i)++;
	if (*i >= end)
		return false;
	old = plain_path(l->v[*i], &old_null);
	new = plain_path(l->v[*i + 1], &new_null);
	*i += 2;
	path = new ? new : old;
	if (!path) {
		free(old);
		free(new);
		return false;
	}
	add_path(p, path);
	sbuf_addf(out, "diff --git a/%s b/%s\n", path, path);
	if (old_null)
		sbuf_addf(out, "new file mode 100644\n--- /dev/null\n+++ b/%s\n", path);
	else if (new_null)
		sbuf_addf(out, "deleted file mode 100644\n--- a/%s\n+++ /dev/null\n", path);
	else
		sbuf_addf(out, "--- a/%s\n+++ b/%s\n", path, path);
	ok = copy_hunks(l, i, end, out);
	free(old);
	free(new);
	return ok;
}

static void compute_patchid(struct patch *p)
{
	p->has_patchid = patchid_of_text(p->diff, &p->patchid);
}

/* Parse lines [from, to) as one message. */
static void parse_message(struct patch *p, struct lines *l, size_t from, size_t to)
{
	struct sbuf msg = SBUF_INIT, diff = SBUF_INIT;
	size_t body = from, i;
	char *subject, *from_hdr;

	memset(p, 0, sizeof(*p));
	if (from < to && is_header(l->v[from])) {
		while (body < to && *l->v[body])
			body++;
		subject = header(l, from, body, "Subject");
		from_hdr = header(l, from, body, "From");
		if (subject)
			p->subject = patch_clean_subject(subject);
		if (from_hdr)
			p->author = clean_address(from_hdr);
		free(subject);
		free(from_hdr);
	}
	if (p->subject)
		sbuf_addf(&msg, "%s\n\n", p->subject);
	/* the message: up to format-patch's "---" or the first diff */
	for (i = body; i < to && !diff_start(l, i, to); i++) {
		if (!strcmp(l->v[i], "---"))
			break;
		if (msg.len || *l->v[i])
			sbuf_addf(&msg, "%s\n", l->v[i]);
	}
	while (i < to && !diff_start(l, i, to))
		i++;
	while (i < to) {
		bool ok = starts(l->v[i], "diff --git ") ? git_file(p, l, &i, to, &diff)
							  : plain_file(p, l, &i, to, &diff);
		if (!ok)
			break;
		while (i < to && !diff_start(l, i, to) && !starts(l->v[i], "diff "))
			i++;
	}
	p->message = msg.buf ? msg.buf : xstrdup("");
	p->diff = diff.buf ? diff.buf : xstrdup("");
	compute_patchid(p);
}

/* An mbox "From " separator: at the start, or after a blank line. */
static bool mbox_separator(struct lines *l, size_t i)
{
	return starts(l->v[i], "From ") && (i == 0 || !*l->v[i - 1]) &&
	       (i + 1 < l->nr && is_header(l->v[i + 1]));
}

int patch_parse(struct patch_set *set, const char *text, size_t len)
{
	char *copy = xstrndup(text, len);
	struct lines l;
	size_t start = 0;

	memset(set, 0, sizeof(*set));
	split_lines(&l, copy);
	for (size_t i = 0; i <= l.nr; i++) {
		if (i < l.nr && !mbox_separator(&l, i))
			continue;
		if (i > start || (i == l.nr && start < l.nr)) {
			size_t from = start;
			if (from < l.nr && mbox_separator(&l, from))
				from++;
			if (from < i) {
				set->v = xrealloc(set->v, (set->nr + 1) * sizeof(*set->v));
				parse_message(&set->v[set->nr++], &l, from, i);
			}
		}
		start = i;
	}
	free(l.v);
	free(copy);
	return 0;
}

/* Anything to match: a diff, or a mail with a subject? */
static bool has_content(const struct patch_set *set)
{
	for (size_t i = 0; i < set->nr; i++)
		if (*set->v[i].diff || set->v[i].subject)
			return true;
	return false;
}

int patch_read_file(struct patch_set *set, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t len = 0, alloc = 0, n;
	int ret = 0;

	memset(set, 0, sizeof(*set));
	if (!f)
		return pv_error_set(PV_EINPUT, "cannot read patch '%s': %s", path,
				    strerror(errno));
	do {
		if (len + 65536 > PATCH_INPUT_MAX + 1) {
			ret = pv_error_set(PV_EINPUT, "patch '%s' is larger than %u MiB", path,
					   PATCH_INPUT_MAX >> 20);
			goto out;
		}
		buf = xgrow(buf, &alloc, len + 65536, 1);
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		ret = pv_error_set(PV_EINPUT, "cannot read patch '%s': %s", path,
				   strerror(errno));
		goto out;
	}
	if (!len) {
		ret = pv_error_set(PV_EINPUT, "patch '%s' is empty", path);
		goto out;
	}
	if (memchr(buf, '\0', len)) {
		ret = pv_error_set(PV_EINPUT, "patch '%s' is binary, not a mail or diff", path);
		goto out;
	}
	patch_parse(set, buf, len);
	if (!has_content(set)) {
		patch_set_free(set);
		ret = pv_error_set(PV_EINPUT, "'%s' holds no mail and no diff", path);
	}
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return ret;
}

/*
 * A commit's diff against its first parent, as git-format text.
 *
 * libgit2's tree diff walks every entry of both trees (a kernel tree has
 * 30,000 files: 10 ms a commit); our raw tree walk skips equal subtrees,
 * so it names the changed paths and libgit2 diffs only those.  paths:
 * the changed paths when the caller knows them already (else NULL).
 */
static int commit_diff(git_repository *repo, const git_oid *id, char *const *paths,
		       size_t npaths, git_commit **c, git_diff **diff, git_buf *buf)
{
	git_commit *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff_options opts;
	git_odb *odb = NULL;
	struct tree_change *changes = NULL;
	char **found = NULL;
	int n = -1, ret = -1;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (git_commit_lookup(c, repo, id) < 0 || git_commit_tree(&tree, *c) < 0)
		goto out;
	if (git_commit_parentcount(*c) > 0 &&
	    (git_commit_parent(&parent, *c, 0) < 0 || git_commit_tree(&ptree, parent) < 0))
		goto out;
	if (!paths && git_repository_odb(&odb, repo) == 0 &&
	    (n = treepath_changed(odb, ptree ? git_tree_id(ptree) : NULL, git_tree_id(tree),
				  SIZE_MAX - 1, &changes)) > 0) {
		found = xmalloc((size_t)n * sizeof(*found));
		for (int i = 0; i < n; i++)
			found[i] = changes[i].path;
		paths = found;
		npaths = (size_t)n;
	}
	if (paths) {
		opts.pathspec.strings = (char **)paths;
		opts.pathspec.count = npaths;
		opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	}
	if (git_diff_tree_to_tree(diff, repo, ptree, tree, &opts) < 0 ||
	    git_diff_to_buf(buf, *diff, GIT_DIFF_FORMAT_PATCH) < 0)
		goto out;
	ret = 0;
out:
	free(found);
	treepath_changes_free(changes, n > 0 ? n : 0);
	git_odb_free(odb);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

int patch_from_commit(struct patch *p, git_repository *repo, const git_oid *id)
{
	git_commit *c = NULL;
	git_diff *diff = NULL;
	git_buf buf = { 0 };
	struct sbuf author = SBUF_INIT;
	const git_signature *a;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	if (commit_diff(repo, id, NULL, 0, &c, &diff, &buf) < 0)
		goto out;
	p->message = xstrdup(git_commit_message(c) ? git_commit_message(c) : "");
	p->subject = patch_clean_subject(git_commit_summary(c) ? git_commit_summary(c) : "");
	a = git_commit_author(c);
	sbuf_addf(&author, "%s <%s>", a->name, a->email);
	p->author = author.buf;
	p->diff = xstrndup(buf.ptr ? buf.ptr : "", buf.size);
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		add_path(p, d->new_file.path ? d->new_file.path : d->old_file.path);
	}
	compute_patchid(p);
	ret = 0;
out:
	git_buf_dispose(&buf);
	git_diff_free(diff);
	git_commit_free(c);
	return ret;
}

/* The patch-id of commit id, diffing only paths when given. */
static bool patch_id_with(git_repository *repo, const git_oid *id, char *const *paths,
			  size_t npaths, git_oid *out)
{
	git_commit *c = NULL;
	git_diff *diff = NULL;
	git_buf buf = { 0 };
	bool ok = commit_diff(repo, id, paths, npaths, &c, &diff, &buf) == 0 && buf.size &&
		  patchid_of_text(buf.ptr, out);

	git_error_clear();
	git_buf_dispose(&buf);
	git_diff_free(diff);
	git_commit_free(c);
	return ok;
}

bool patch_id_of_commit(git_repository *repo, const git_oid *id, git_oid *out)
{
	return patch_id_with(repo, id, NULL, 0, out);
}

/*
 * Two diffs with one patch-id change the same files, so the commit's file
 * list (a tree diff, no blob read) rules most commits out before the diff
 * text is made: a tree-wide commit that also touches the patch's file
 * costs a tree walk, not the inflation of every blob it changes.
 */
static bool same_paths(const struct dag *dag, uint32_t c, const struct patch *p)
{
	unsigned np;
	const uint32_t *par = dag_parents(dag, c, &np);
	struct tree_change *changes = NULL;
	int n = treepath_changed(dag->odb, np ? &dag->trees[par[0]] : NULL, &dag->trees[c],
				 p->npaths, &changes);
	bool same = n >= 0 && (size_t)n == p->npaths;

	for (int i = 0; i < n && same; i++) {
		bool found = false;
		for (size_t k = 0; k < p->npaths && !found; k++)
			found = !strcmp(p->paths[k], changes[i].path);
		same = found;
	}
	treepath_changes_free(changes, n > 0 ? n : 0);
	git_error_clear();
	return same;
}

/* The commit changes exactly p's files, so its diff is limited to them. */
bool patch_same_id(git_repository *repo, const struct dag *dag, uint32_t commit,
		   const struct patch *p)
{
	git_oid id;

	return p->has_patchid && dag->loaded[commit] && same_paths(dag, commit, p) &&
	       patch_id_with(repo, &dag->oids[commit], p->paths, p->npaths, &id) &&
	       git_oid_equal(&id, &p->patchid);
}

void patch_free(struct patch *p)
{
	free(p->subject);
	free(p->author);
	free(p->message);
	free(p->diff);
	for (size_t i = 0; i < p->npaths; i++)
		free(p->paths[i]);
	free(p->paths);
	memset(p, 0, sizeof(*p));
}

void patch_set_free(struct patch_set *set)
{
	for (size_t i = 0; i < set->nr; i++)
		patch_free(&set->v[i]);
	free(set->v);
	memset(set, 0, sizeof(*set));
}
