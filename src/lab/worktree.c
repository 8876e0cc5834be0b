/*
 * Cache work trees: one tree of a repository at a time, moved between
 * trees by rewriting only the files that differ.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/lab/worktree.h"

struct wt_entry {
	unsigned mode;
	git_oid oid;
	char *path;
};

struct manifest {
	struct wt_entry *v;
	size_t nr, alloc;
};

static void manifest_add(struct manifest *m, unsigned mode, const git_oid *oid, const char *path)
{
	m->v = xgrow(m->v, &m->alloc, m->nr + 1, sizeof(*m->v));
	m->v[m->nr].mode = mode;
	m->v[m->nr].oid = *oid;
	m->v[m->nr].path = xstrdup(path);
	m->nr++;
}

static void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->nr; i++)
		free(m->v[i].path);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct wt_entry *)a)->path, ((const struct wt_entry *)b)->path);
}

static void manifest_sort(struct manifest *m)
{
	if (m->nr > 1)
		qsort(m->v, m->nr, sizeof(*m->v), cmp_entry);
}

static char *side_file(const char *dir, const char *suffix)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "%s.%s", dir, suffix);
	return sb.buf;
}

/*
 * What dir holds: its manifest, with every path of an unfinished sync's
 * journal marked unknown (a zero blob id never matches, so it is
 * rewritten or removed).
 */
static void manifest_load(struct manifest *m, const char *dir)
{
	char *path = side_file(dir, "manifest"), *pending = side_file(dir, "pending");
	char line[4200], hex[GIT_OID_HEXSZ + 1];
	git_oid zero = { { 0 } }, oid;
	unsigned mode;
	int off;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%o %40s %n", &mode, hex, &off) == 2 &&
		    git_oid_fromstr(&oid, hex) == 0)
			manifest_add(m, mode, &oid, line + off);
	}
	if (f)
		fclose(f);
	manifest_sort(m);
	if ((f = fopen(pending, "r"))) {
		size_t known = m->nr;
		while (fgets(line, sizeof(line), f)) {
			struct wt_entry key = { 0, zero, line }, *e;
			line[strcspn(line, "\n")] = '\0';
			e = known ? bsearch(&key, m->v, known, sizeof(*m->v), cmp_entry) : NULL;
			if (e)
				e->oid = zero;
			else
				manifest_add(m, 0100644, &zero, line);
		}
		fclose(f);
		manifest_sort(m);
	}
	free(path);
	free(pending);
}

static int manifest_save(const struct manifest *m, const char *dir)
{
	char *path = side_file(dir, "manifest");
	char hex[GIT_OID_HEXSZ + 1];
	struct sbuf text = SBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < m->nr; i++) {
		git_oid_tostr(hex, sizeof(hex), &m->v[i].oid);
		sbuf_addf(&text, "%o %s %s\n", m->v[i].mode, hex, m->v[i].path);
	}
	if (file_write(path, text.buf, text.len) < 0)
		ret = pv_error_set(PV_EBUILD, "cannot write %s: %s", path, strerror(errno));
	sbuf_free(&text);
	free(path);
	return ret;
}

/* The files of a tree, sorted by path as git's index sorts them. */
static int manifest_of_tree(struct manifest *m, git_repository *repo, const git_oid *id)
{
	git_tree *tree = NULL;
	git_index *idx = NULL;
	int ret = -1;

	if (git_tree_lookup(&tree, repo, id) < 0 || git_index_new(&idx) < 0 ||
	    git_index_read_tree(idx, tree) < 0) {
		ret = pv_error_set(PV_EBUILD, "cannot read tree %s: %s", git_oid_tostr_s(id), git_errmsg());
		goto out;
	}
	for (size_t i = 0; i < git_index_entrycount(idx); i++) {
		const git_index_entry *e = git_index_get_byindex(idx, i);
		if ((e->mode & 0170000) != 0160000)   /* submodules are not files */
			manifest_add(m, e->mode, &e->id, e->path);
	}
	manifest_sort(m);
	ret = 0;
out:
	git_index_free(idx);
	git_tree_free(tree);
	return ret;
}

static void remove_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		char *argv[] = { "rm", "-rf", (char *)path, NULL };
		struct proc_result r;
		proc_run(argv, NULL, NULL, 0, &r);
	} else {
		unlink(path);
	}
}

/* mkdir -p of path's parents; a file in the way (a file became a directory) goes. */
static void make_parents(char *path)
{
	struct stat st;

	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno == EEXIST &&
		    stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
			unlink(path);
			mkdir(path, 0755);
		}
		*s = '/';
	}
}

static int write_entry(const char *dir, git_repository *repo, const struct wt_entry *e)
{
	struct sbuf path = SBUF_INIT;
	git_blob *blob = NULL;
	const char *data;
	size_t size, done = 0;
	int fd = -1, ret = -1;

	sbuf_addf(&path, "%s/%s", dir, e->path);
	if (git_blob_lookup(&blob, repo, &e->oid) < 0) {
		ret = pv_error_set(PV_EBUILD, "cannot read %s (%s): %s", e->path, git_oid_tostr_s(&e->oid),
		      git_errmsg());
		goto out;
	}
	data = git_blob_rawcontent(blob);
	size = (size_t)git_blob_rawsize(blob);
	make_parents(path.buf);
	remove_path(path.buf);   /* never write through a hard link */
	if (e->mode == 0120000) {
		char *target = xstrndup(data, size);
		ret = symlink(target, path.buf);
		free(target);
		goto fail;
	}
	fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  (e->mode & 0111) ? 0755 : 0644);
	while (fd >= 0 && done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	ret = fd >= 0 && done == size ? 0 : -1;
	if (fd >= 0 && close(fd) < 0)
		ret = -1;
fail:
	if (ret)
		ret = pv_error_set(PV_EBUILD, "cannot write %s: %s", path.buf, strerror(errno));
out:
	git_blob_free(blob);
	sbuf_free(&path);
	return ret;
}

/* The journal: every path this sync is about to touch. */
static int write_pending(const char *dir, const struct manifest *gone,
			 const struct manifest *changed)
{
	char *path = side_file(dir, "pending");
	struct sbuf text = SBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < gone->nr; i++)
		sbuf_addf(&text, "%s\n", gone->v[i].path);
	for (size_t i = 0; i < changed->nr; i++)
		sbuf_addf(&text, "%s\n", changed->v[i].path);
	if (file_write(path, text.buf, text.len) < 0)
		ret = pv_error_set(PV_EBUILD, "cannot write %s: %s", path, strerror(errno));
	sbuf_free(&text);
	free(path);
	return ret;
}

/* Split old → new into the paths to remove and the entries to write. */
static void compare(const struct manifest *old, const struct manifest *new,
		    struct manifest *gone, struct manifest *changed)
{
	size_t i = 0, j = 0;

	while (i < old->nr || j < new->nr) {
		int c = i == old->nr ? 1 : j == new->nr ? -1 :
			strcmp(old->v[i].path, new->v[j].path);
		if (c < 0) {
			manifest_add(gone, 0, &old->v[i].oid, old->v[i].path);
			i++;
		} else if (c > 0) {
			manifest_add(changed, new->v[j].mode, &new->v[j].oid, new->v[j].path);
			j++;
		} else {
			if (old->v[i].mode != new->v[j].mode ||
			    !git_oid_equal(&old->v[i].oid, &new->v[j].oid))
				manifest_add(changed, new->v[j].mode, &new->v[j].oid, new->v[j].path);
			i++;
			j++;
		}
	}
}

int worktree_sync(const char *dir, git_repository *repo, const git_oid *tree, size_t *written)
{
	struct manifest old = { 0 }, new = { 0 }, gone = { 0 }, changed = { 0 };
	char *pending = side_file(dir, "pending");
	int ret = -1;

	mkdir(dir, 0755);
	manifest_load(&old, dir);
	if ((ret = manifest_of_tree(&new, repo, tree)) < 0)
		goto out;
	compare(&old, &new, &gone, &changed);
	if (written)
		*written = changed.nr;
	if (!gone.nr && !changed.nr) {
		ret = 0;
		goto out;
	}
	if ((ret = write_pending(dir, &gone, &changed)) < 0)
		goto out;
	for (size_t i = 0; i < gone.nr; i++) {
		struct sbuf p = SBUF_INIT;
		sbuf_addf(&p, "%s/%s", dir, gone.v[i].path);
		remove_path(p.buf);
		sbuf_free(&p);
	}
	for (size_t i = 0; i < changed.nr; i++) {
		if (proc_interrupted()) {
			ret = pv_error_set(PV_EINTERRUPTED, "interrupted while writing %s", dir);
			goto out;
		}
		if ((ret = write_entry(dir, repo, &changed.v[i])) < 0)
			goto out;
	}
	if ((ret = manifest_save(&new, dir)) == 0 && unlink(pending) < 0)
		ret = pv_error_set(PV_EBUILD, "cannot remove %s: %s", pending, strerror(errno));
out:
	manifest_free(&old);
	manifest_free(&new);
	manifest_free(&gone);
	manifest_free(&changed);
	free(pending);
	return ret;
}

int worktree_adopt(const char *dir, git_repository *repo, const git_oid *tree)
{
	struct manifest m = { 0 };
	char *pending = side_file(dir, "pending");
	int ret = manifest_of_tree(&m, repo, tree);

	if (!ret)
		ret = manifest_save(&m, dir);
	unlink(pending);
	manifest_free(&m);
	free(pending);
	return ret;
}
