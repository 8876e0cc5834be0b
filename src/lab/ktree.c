/*
 * Kernel trees in the cache: imported once, candidate states computed in
 * memory and written into work/ (kbuild.c builds them).
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <git2/sys/odb_backend.h>

#include "patchver/base/cachedir.h"
#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/stable/apply.h"
#include "patchver/lab/input.h"
#include "patchver/lab/ktree.h"
#include "patchver/lab/worktree.h"

char *ktree_cache_dir(void)
{
	return cachedir_root();
}

/* Debian's newest /usr/src/linux-source-X.Y.tar.xz */
static char *find_tarball(void)
{
	glob_t g;
	char *best = NULL;

	if (glob("/usr/src/linux-source-*.tar.xz", 0, NULL, &g) == 0 && g.gl_pathc)
		best = xstrdup(g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return best;
}

/* Extract Debian's tarball once into dir, atomically (tmp dir, rename). */
static int extract(const char *cache, const char *tarball, const char *dir, const char *log)
{
	char *tmp = path_join(cache, "src/.extracting");
	char *argv[] = { "tar", "-xJf", (char *)tarball, "-C", tmp, "--strip-components=1", NULL };
	char *rm[] = { "rm", "-rf", tmp, NULL };
	int ret;

	proc_run_ok(rm, NULL, NULL, PV_EBUILD, "cleaning up");
	cachedir_mkdirs(tmp);
	pv_notice(PV_NOTICE_NOTE, "extracting %s into %s (once)", tarball, dir);
	ret = proc_run_ok(argv, NULL, log, PV_EBUILD, "extracting the kernel tarball");
	if (!ret && rename(tmp, dir) < 0)
		ret = pv_error_set(PV_EBUILD, "cannot move %s into place: %s", tmp, strerror(errno));
	free(tmp);
	return ret;
}

/*
 * Every file under dir/rel into the index (blobs written to repo).  Not
 * git_index_add_all(): it skips whatever the tree's .gitignore files
 * name, and a source tree is exactly what it holds.
 */
static int add_files(git_repository *repo, git_index *idx, const char *dir, const char *rel)
{
	struct sbuf path = SBUF_INIT;
	DIR *d;
	struct dirent *de;
	int ret = 0;

	sbuf_addf(&path, "%s%s%s", dir, *rel ? "/" : "", rel);
	if (!(d = opendir(path.buf))) {
		sbuf_free(&path);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		struct sbuf full = SBUF_INIT, name = SBUF_INIT;
		git_index_entry e;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sbuf_addf(&full, "%s/%s", path.buf, de->d_name);
		sbuf_addf(&name, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		memset(&e, 0, sizeof(e));
		e.path = name.buf;
		if (lstat(full.buf, &st) < 0) {
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = add_files(repo, idx, dir, name.buf);
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(full.buf, target, sizeof(target));
			e.mode = GIT_FILEMODE_LINK;
			ret = n < 0 || git_blob_create_from_buffer(&e.id, repo, target, (size_t)n) < 0 ||
			      git_index_add(idx, &e) < 0 ? -1 : 0;
		} else if (S_ISREG(st.st_mode)) {
			e.mode = (st.st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
			ret = git_blob_create_from_disk(&e.id, repo, full.buf) < 0 ||
			      git_index_add(idx, &e) < 0 ? -1 : 0;
		}
		sbuf_free(&full);
		sbuf_free(&name);
	}
	closedir(d);
	sbuf_free(&path);
	return ret;
}

/*
 * Commit every file of dir into a new bare repository at gitdir, with a
 * fixed author and date, so that one tarball always gives the same commit
 * (and so the same work and object directories) on every machine.
 * Objects are stored with fast compression: this runs once per tree.
 */
static int import(const char *gitdir, const char *dir, const char *label)
{
	char *tmp = NULL, *objects = NULL;
	char *rm[] = { "rm", "-rf", NULL, NULL };
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	git_odb_backend *loose = NULL;
	git_index *idx = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid tree_id, commit_id;
	struct sbuf msg = SBUF_INIT;
	int ret = PV_EBUILD;

	tmp = xmalloc(strlen(gitdir) + 5);
	sprintf(tmp, "%s.tmp", gitdir);
	rm[2] = tmp;
	proc_run_ok(rm, NULL, NULL, PV_EBUILD, "cleaning up");
	pv_notice(PV_NOTICE_NOTE, "importing %s into %s (once)", dir, gitdir);
	objects = path_join(tmp, "objects");
	if (git_repository_init(&repo, tmp, 1) < 0 || git_repository_odb(&odb, repo) < 0 ||
	    git_odb_backend_loose(&loose, objects, 1, 0, 0, 0) < 0 ||
	    git_odb_add_backend(odb, loose, 100) < 0)
		goto fail;
	if (git_index_new(&idx) < 0 || add_files(repo, idx, dir, "") < 0 ||
	    git_index_write_tree_to(&tree_id, idx, repo) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_id) < 0 ||
	    git_signature_new(&sig, "patchver", "patchver@localhost", 0, 0) < 0)
		goto fail;
	sbuf_addf(&msg, "Import %s\n\nThe sources patchver builds candidate kernels from.\n", label);
	if (git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL, msg.buf, tree, 0, NULL) < 0)
		goto fail;
	git_repository_free(repo);
	repo = NULL;
	if (rename(tmp, gitdir) < 0)
		ret = pv_error_set(PV_EBUILD, "cannot move %s into place: %s", tmp, strerror(errno));
	else
		ret = 0;
	goto out;
fail:
	ret = pv_error_set(PV_EBUILD, "cannot import %s: %s", dir, git_errmsg());
out:
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
	git_odb_free(odb);
	git_repository_free(repo);
	sbuf_free(&msg);
	free(objects);
	free(tmp);
	return ret;
}

/* The root commit of base's first-parent line names the history. */
static int history_id(struct ktree *k)
{
	git_revwalk *walk = NULL;
	git_oid oid, root;
	int ret = -1;

	if (git_revwalk_new(&walk, k->repo) < 0 || git_revwalk_push(walk, &k->base) < 0)
		goto out;
	git_revwalk_simplify_first_parent(walk);
	root = k->base;
	while (git_revwalk_next(&oid, walk) == 0)
		root = oid;
	k->id = xstrndup(git_oid_tostr_s(&root), 12);
	ret = 0;
out:
	git_revwalk_free(walk);
	return ret;
}

static bool tree_has(git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;
	bool found = git_tree_entry_bypath(&e, tree, path) == 0;

	git_tree_entry_free(e);
	git_error_clear();
	return found;
}

bool ktree_is_kernel(git_repository *repo, const git_oid *commit)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	bool yes = false;

	if (git_commit_lookup(&c, repo, commit) == 0 && git_commit_tree(&tree, c) == 0)
		yes = tree_has(tree, "Makefile") && tree_has(tree, "Kconfig") ?
		      tree_has(tree, "arch/x86") : tree_has(tree, "arch/x86/Kconfig");
	git_tree_free(tree);
	git_commit_free(c);
	git_error_clear();
	return yes;
}

void ktree_makefile_version(const char *text, size_t len, char *buf, size_t n)
{
	char *copy = xstrndup(text, len), extra[32] = "";
	int v = -1, p = -1, s = -1;

	*buf = '\0';
	for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
		sscanf(line, "VERSION = %d", &v);
		sscanf(line, "PATCHLEVEL = %d", &p);
		sscanf(line, "SUBLEVEL = %d", &s);
		sscanf(line, "EXTRAVERSION = %31s", extra);
		if (!strncmp(line, "NAME", 4))
			break;
	}
	free(copy);
	if (v >= 0 && p >= 0 && s >= 0)
		snprintf(buf, n, "%d.%d.%d%s", v, p, s, extra);
}

void ktree_tree_version(git_repository *repo, const git_oid *tree_id, char *buf, size_t n)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;

	*buf = '\0';
	if (git_tree_lookup(&tree, repo, tree_id) == 0 &&
	    git_tree_entry_bypath(&e, tree, "Makefile") == 0 &&
	    git_blob_lookup(&blob, repo, git_tree_entry_id(e)) == 0)
		ktree_makefile_version(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), buf,
				       n);
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_error_clear();
}

static void set_dirs(struct ktree *k)
{
	struct sbuf w = SBUF_INIT, o = SBUF_INIT;

	sbuf_addf(&w, "%s/work/%s", k->cache, k->id);
	sbuf_addf(&o, "%s/obj/%s", k->cache, k->id);
	k->work = w.buf;
	k->obj = o.buf;
	cachedir_mkdirs(k->obj);
	{
		char *parent = path_join(k->cache, "work");
		cachedir_mkdirs(parent);
		free(parent);
	}
}

/* The import of a source directory (ours or the user's) in src/<name>.git. */
static int open_import(struct ktree *k, const char *dir, const char *name)
{
	struct sbuf gitdir = SBUF_INIT;
	int ret = 0;

	sbuf_addf(&gitdir, "%s/src/%s.git", k->cache, name);
	if (!path_exists(gitdir.buf))
		ret = import(gitdir.buf, dir, k->what);
	if (!ret)
		ret = history_open_repo(&k->repo, gitdir.buf);
	if (!ret && git_reference_name_to_id(&k->base, k->repo, "HEAD") < 0)
		ret = pv_error_set(PV_EBUILD, "the import %s has no commit; remove it and retry",
			    gitdir.buf);
	sbuf_free(&gitdir);
	return ret;
}

static int open_debian(struct ktree *k)
{
	char *tarball = find_tarball(), *name, *log, *srcdir = path_join(k->cache, "src");
	int ret = 0;

	if (!tarball) {
		free(srcdir);
		return pv_error_set_about(PV_ENOTOOL, LAB_INPUT_KERNEL_SOURCE,
					  "no kernel source: install linux-source-6.1");
	}
	name = xstrdup(strrchr(tarball, '/') + 1);
	name[strlen(name) - strlen(".tar.xz")] = '\0';
	cachedir_mkdirs(srcdir);
	k->pristine = path_join(srcdir, name);
	k->what = xmalloc(strlen(name) + 8);
	sprintf(k->what, "Debian %s", name);
	log = path_join(srcdir, "prepare.log");
	if (!path_exists(k->pristine))
		ret = extract(k->cache, tarball, k->pristine, log);
	if (!ret)
		ret = open_import(k, k->pristine, name);
	free(log);
	free(name);
	free(srcdir);
	free(tarball);
	return ret;
}

static int open_dir(struct ktree *k, const char *tree)
{
	char *real = realpath(tree, NULL), *mk, *name;
	git_repository *probe = NULL;
	int ret;

	if (!real)
		return pv_error_set(PV_ENOTOOL, "kernel tree '%s': %s", tree, strerror(errno));
	k->what = xstrdup(real);
	if (git_repository_open_ext(&probe, real, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) == 0) {
		git_repository_free(probe);
		ret = history_open_repo(&k->repo, real);
		if (!ret && git_reference_name_to_id(&k->base, k->repo, "HEAD") < 0)
			ret = pv_error_set(PV_ENOTOOL, "kernel tree '%s' has no HEAD commit", tree);
		if (!ret && !ktree_is_kernel(k->repo, &k->base))
			ret = pv_error_set(PV_ENOTOOL, "'%s' does not hold a kernel tree at HEAD", tree);
		free(real);
		return ret;
	}
	git_error_clear();
	mk = path_join(real, "Makefile");
	ret = path_exists(mk) ? 0 : pv_error_set(PV_ENOTOOL, "'%s' is neither a kernel git repository "
				     "nor a kernel source tree (no Makefile)", tree);
	free(mk);
	if (!ret) {
		name = xstrdup(real);
		for (char *p = name; *p; p++)
			if (*p == '/')
				*p = '_';
		ret = open_import(k, real, name);
		free(name);
	}
	free(real);
	return ret;
}

int ktree_open(struct ktree *k, const char *cache, const char *tree)
{
	int ret;

	memset(k, 0, sizeof(*k));
	k->cache = xstrdup(cache);
	ret = tree ? open_dir(k, tree) : open_debian(k);
	if (!ret && history_id(k) < 0)
		ret = pv_error_set(PV_ECORRUPT, "cannot walk the history of %s: %s", k->what, git_errmsg());
	if (ret)
		return ret;
	set_dirs(k);
	/* our own extracted tarball: a hard-linked copy is the fastest first checkout */
	if (k->pristine && !path_exists(k->work)) {
		char *cp[] = { "cp", "-al", k->pristine, k->work, NULL };
		git_commit *c = NULL;
		ret = proc_run_ok(cp, NULL, NULL, PV_EBUILD, "linking the work tree");
		if (!ret && git_commit_lookup(&c, k->repo, &k->base) < 0)
			ret = pv_error_set(PV_ECORRUPT, "cannot read the commit of %s: %s", k->what,
					   git_errmsg());
		if (!ret)
			ret = worktree_adopt(k->work, k->repo, git_commit_tree_id(c));
		git_commit_free(c);
	}
	return ret;
}

void ktree_free(struct ktree *k)
{
	git_repository_free(k->repo);
	free(k->cache);
	free(k->what);
	free(k->id);
	free(k->pristine);
	free(k->work);
	free(k->obj);
	memset(k, 0, sizeof(*k));
}

int ktree_diff_file(git_diff **out, const char *path)
{
	size_t len;
	char *text = file_read(path, &len);
	int ret = 0;

	*out = NULL;
	if (!text)
		return pv_error_set(PV_EINPUT, "cannot read patch '%s': %s", path, strerror(errno));
	if (git_diff_from_buffer(out, text, len) < 0 || !git_diff_num_deltas(*out))
		ret = pv_error_set(PV_EINPUT, "'%s' is not a patch: %s", path,
			    *out ? "no file changes in it" : git_errmsg());
	if (ret) {
		git_diff_free(*out);
		*out = NULL;
	}
	free(text);
	return ret;
}

int ktree_diff_commit(git_diff **out, git_repository *repo, const git_oid *commit)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *old = NULL, *new = NULL;
	int ret = 0;

	if (git_commit_lookup(&c, repo, commit) < 0 || git_commit_tree(&new, c) < 0 ||
	    (git_commit_parentcount(c) &&
	     (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&old, parent) < 0)) ||
	    git_diff_tree_to_tree(out, repo, old, new, NULL) < 0)
		ret = pv_error_set(PV_ECORRUPT, "cannot read the change of %s: %s",
			    git_oid_tostr_s(commit), git_errmsg());
	git_tree_free(old);
	git_tree_free(new);
	git_commit_free(parent);
	git_commit_free(c);
	return ret;
}

int ktree_commit_tree(struct ktree *k, const git_oid *commit, git_oid *tree)
{
	git_commit *c = NULL;
	int ret = 0;

	if (git_commit_lookup(&c, k->repo, commit) < 0)
		ret = pv_error_set(PV_ENOTFOUND, "%s is not a commit of %s", git_oid_tostr_s(commit),
			    k->what);
	else
		*tree = *git_commit_tree_id(c);
	git_commit_free(c);
	return ret;
}

int ktree_apply(struct ktree *k, const git_oid *tree_id, git_diff *diff, git_oid *out,
		enum apply_how *how)
{
	struct apply_opts o = { .max_fuzz = 2, .three_way = true };
	struct apply_report rep = { 0 };
	struct apply_tree t;
	struct diff_files d;
	char *text = apply_diff_text(diff);
	/* the new blobs and trees land in memory: k->repo is shielded */
	int ret;

	if (!how)
		o = (struct apply_opts){ 0 };     /* exactly, as git apply */
	apply_tree_init(&t, k->repo, tree_id);
	if (!diff_files_parse(&d, text))
		ret = pv_error_set(PV_EPATCH, "the patch does not apply: it changes no file");
	else if ((ret = apply_tree_diff(&t, &d, &o, &rep)) == APPLY_CONFLICT)
		ret = pv_error_set(PV_EPATCH, "the patch does not apply: %s", apply_report_why(&rep));
	else if (ret >= 0) {
		if (how)
			*how = (enum apply_how)ret;
		ret = apply_tree_write(&t, out);
	}
	apply_report_free(&rep);
	diff_files_free(&d);
	apply_tree_free(&t);
	free(text);
	return ret;
}

void ktree_use_variant(struct ktree *k, const char *variant)
{
	free(k->obj);
	k->obj = variant && *variant ? xstrfmt("%s/obj/%s-%s", k->cache, k->id, variant)
				     : xstrfmt("%s/obj/%s", k->cache, k->id);
	cachedir_mkdirs(k->obj);
}

int ktree_checkout(struct ktree *k, const git_oid *tree)
{
	size_t written = 0;
	int ret = worktree_sync(k->work, k->repo, tree, &written);

	if (ret)
		return ret;
	ktree_tree_version(k->repo, tree, k->version, sizeof(k->version));
	return 0;
}
