/*
 * The lab: candidate kernels built and booted, their guests judged.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "patchver/base/error.h"
#include "patchver/lab/initramfs.h"
#include "patchver/lab/datadir.h"
#include "patchver/lab/lab.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"

void lab_progress(const struct lab *l, const char *f, ...)
{
	va_list ap;

	if (l->o->quiet)
		return;
	va_start(ap, f);
	fputs("patchver: ", stderr);
	vfprintf(stderr, f, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int kpatch_from_file(struct kpatch *p, const char *path)
{
	const char *slash = strrchr(path, '/');

	memset(p, 0, sizeof(*p));
	p->name = xstrdup(slash ? slash + 1 : path);
	return ktree_diff_file(&p->diff, path);
}

void kpatch_free(struct kpatch *p)
{
	git_diff_free(p->diff);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

int lab_parse_expectation(struct expectation *e, const char *text)
{
	const char *colon = strchr(text, ':');

	memset(e, 0, sizeof(*e));
	if (!strcmp(text, "pass"))
		return 0;
	if (!colon || colon == text || !colon[1] || (size_t)(colon - text) >= sizeof(e->check) ||
	    strlen(colon + 1) >= sizeof(e->err))
		return error(EXIT_USAGE, "expectation '%s': give 'pass' or CHECK:ERRNO "
			     "(e.g. nofollow_slash_symlink_dir:ELOOP)", text);
	e->bug = true;
	memcpy(e->check, text, (size_t)(colon - text));
	strcpy(e->err, colon + 1);
	return 0;
}

static void sha256_file(EVP_MD_CTX *ctx, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;

	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, n);
	if (f)
		fclose(f);
}

/* A built state's identity: its tree, the config fragment and the compiler. */
static void state_key(const struct lab *l, struct candidate *c, const char *fragment)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, c->tree.id, GIT_OID_RAWSZ);
	sha256_file(ctx, fragment);
	EVP_DigestUpdate(ctx, l->gcc, strlen(l->gcc));
	EVP_DigestFinal_ex(ctx, md, &len);
	EVP_MD_CTX_free(ctx);
	for (unsigned i = 0; i < 32; i++)
		sprintf(c->key + 2 * i, "%02x", md[i]);
}

static int check_tools(void)
{
	static const char *tools[] = { "make", "cc", "tar", "cp", "qemu-system-x86_64" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!boot_have_tool(tools[i]))
			return error(EXIT_NO_TOOL, "%s not found: run tools/setup.sh, or install it",
				     tools[i]);
	return 0;
}

/* The static test program and the initramfs around it. */
static int build_guest(struct lab *l)
{
	char *src = xstrfmt("%s/nofollow-test.c", l->guest), *bin = xstrfmt("%s/guest/init", l->cache);
	char *log = xstrfmt("%s/guest/build.log", l->cache), *dir = xstrfmt("%s/guest", l->cache);
	char *argv[] = { "cc", "-static", "-O2", "-D_GNU_SOURCE", "-o", bin, src, NULL };
	struct proc_result pr;
	int ret = 0;

	mkdir(dir, 0755);
	l->initrd = xstrfmt("%s/guest/initramfs.cpio.gz", l->cache);
	if (proc_run(argv, NULL, log, 120, &pr) < 0 || pr.exit_code != 0)
		ret = error(EXIT_BUILD, "cannot build the guest test program; see %s", log);
	else if (initramfs_write(l->initrd, bin) < 0)
		ret = error(EXIT_BUILD, "cannot write %s", l->initrd);
	free(src);
	free(bin);
	free(log);
	free(dir);
	return ret;
}

static int lock_cache(struct lab *l)
{
	char *path = xstrfmt("%s/lock", l->cache);

	l->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (l->lock_fd < 0)
		return error(EXIT_NO_TOOL, "cannot create the cache lock in %s: %s", l->cache,
			     strerror(errno));
	if (flock(l->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "patchver: waiting for another patchver run using %s\n", l->cache);
		if (flock(l->lock_fd, LOCK_EX) < 0)
			return error(EXIT_INTERRUPTED, "interrupted while waiting for the cache lock");
	}
	return 0;
}

int lab_open(struct lab *l, const struct lab_opts *o)
{
	char *gcc[] = { "cc", "--version", NULL };
	char *qemu[] = { "qemu-system-x86_64", "--version", NULL };
	char *mk[] = { "mkdir", "-p", NULL, NULL, NULL, NULL };
	struct proc_result pr;
	time_t now = time(NULL);
	char stamp[32];
	int ret;

	memset(l, 0, sizeof(*l));
	l->o = o;
	l->lock_fd = -1;
	if (!(l->guest = datadir_guest(o->guest_dir)))
		return EXIT_NO_TOOL;
	l->accel = boot_pick_accel(o->accel);
	if ((ret = check_tools()))
		return ret;
	l->cache = ktree_cache_dir();
	mk[2] = l->cache;
	mk[3] = xstrfmt("%s/boots", l->cache);
	mk[4] = xstrfmt("%s/images", l->cache);
	proc_run(mk, NULL, NULL, 10, &pr);
	free(mk[3]);
	free(mk[4]);
	if ((ret = lock_cache(l)))
		return ret;
	l->gcc = proc_first_line(gcc);
	l->qemu = proc_first_line(qemu);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	l->stamp = xstrdup(stamp);
	if ((ret = build_guest(l)))
		return ret;
	lab_progress(l, "kernel tree: %s", o->kernel_tree ? o->kernel_tree : "Debian linux-source");
	if (ktree_distcc())
		lab_progress(l, "compiling through distcc: DISTCC_HOSTS=%s", ktree_distcc());
	if ((ret = ktree_open(&l->tree, l->cache, o->kernel_tree)))
		return ret;
	l->tree.jobs = o->jobs;
	return 0;
}

static void free_compat(struct lab *l)
{
	for (size_t i = 0; i < l->ncompat; i++)
		kpatch_free(&l->compat[i]);
	free(l->compat);
	l->compat = NULL;
	l->ncompat = 0;
}

void lab_close(struct lab *l)
{
	/* images are kept on request only: a run's identical states share one */
	for (size_t i = 0; i < l->nbuilt; i++) {
		if (!l->o->keep)
			unlink(l->built[i]);
		free(l->built[i]);
	}
	free(l->built);
	free_compat(l);
	if (l->tree.repo)
		ktree_free(&l->tree);
	if (l->lock_fd >= 0)
		close(l->lock_fd);
	free(l->cache);
	free(l->guest);
	free(l->initrd);
	free(l->gcc);
	free(l->qemu);
	free(l->stamp);
	memset(l, 0, sizeof(*l));
}

/* "2.6" of "2.6.34-rc3": the era a compat series and config fragment are kept for. */
static void era_of(const char *version, char *era, size_t n)
{
	size_t len = strcspn(version, ".");

	len += version[len] ? 1 + strcspn(version + len + 1, ".") : 0;
	snprintf(era, n, "%.*s", (int)len, version);
}

/* guest/compat/<era>/: its patches, and its kernel.config if it has one. */
static int load_compat(struct lab *l, const char *era)
{
	char *pattern;
	glob_t g;
	int ret = 0;

	if (!strcmp(era, l->compat_era))
		return 0;
	free_compat(l);
	snprintf(l->compat_era, sizeof(l->compat_era), "%s", era);
	pattern = xstrfmt("%s/compat/%s/*.patch", l->guest, era);
	if (glob(pattern, 0, NULL, &g) == 0) {
		l->compat = xcalloc(g.gl_pathc, sizeof(*l->compat));
		for (size_t i = 0; i < g.gl_pathc && !ret; i++, l->ncompat++) {
			ret = kpatch_from_file(&l->compat[i], g.gl_pathv[i]);
			l->compat[i].compat = true;
		}
	}
	globfree(&g);
	free(pattern);
	return ret;
}

static char *fragment_for(const struct lab *l)
{
	char *own = xstrfmt("%s/compat/%s/kernel.config", l->guest, l->compat_era);
	struct stat st;

	if (stat(own, &st) == 0)
		return own;
	free(own);
	return xstrfmt("%s/kernel.config", l->guest);
}

/*
 * The candidate's tree: its commit, the era's compat patches that apply
 * (they fix the build with today's toolchain, not behaviour), then its
 * own patches, each of which must apply.
 */
static int compute_state(struct lab *l, struct candidate *c)
{
	char version[48], era[16];
	struct sbuf label = SBUF_INIT;
	git_oid next;
	int ret;

	if ((ret = ktree_commit_tree(&l->tree, &c->commit, &c->tree)))
		return ret;
	ktree_tree_version(l->tree.repo, &c->tree, version, sizeof(version));
	era_of(version, era, sizeof(era));
	if ((ret = load_compat(l, era)))
		return ret;
	for (size_t i = 0; i < l->ncompat; i++) {
		/* a compat patch for a file this tree lacks or has otherwise: not needed */
		if (ktree_apply(&l->tree, &c->tree, l->compat[i].diff, &next) != 0)
			continue;
		c->tree = next;
		c->compat = xrealloc(c->compat, (c->ncompat + 1) * sizeof(*c->compat));
		c->compat[c->ncompat++] = l->compat[i].name;
	}
	sbuf_adds(&label, *version ? version : "?");
	for (size_t i = 0; i < c->npatches; i++) {
		ret = ktree_apply(&l->tree, &c->tree, c->patches[i]->diff, &next);
		if (ret == EXIT_PATCH)
			c->failed_patch = xstrdup(c->patches[i]->name);
		if (ret)
			break;
		c->tree = next;
		sbuf_addf(&label, "+%s", c->patches[i]->name);
	}
	c->state = label.buf;
	return ret;
}

static int copy_file(const char *from, const char *to)
{
	char *argv[] = { "cp", (char *)from, (char *)to, NULL };
	struct proc_result pr;
	return proc_run(argv, NULL, NULL, 60, &pr) == 0 && pr.exit_code == 0 ? 0 : -1;
}

/* The last lines of a failed build's log, on stderr. */
static void show_tail(const struct lab *l, const char *log)
{
	char *lines[6] = { 0 }, buf[1024];
	size_t n = 0;
	FILE *f = l->o->quiet ? NULL : fopen(log, "r");

	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		free(lines[n % 6]);
		lines[n++ % 6] = xstrdup(buf);
	}
	fclose(f);
	for (size_t k = n > 6 ? n - 6 : 0; k < n; k++)
		fprintf(stderr, "  | %s", lines[k % 6]);
	for (size_t k = 0; k < 6; k++)
		free(lines[k]);
}

static int build(struct lab *l, struct candidate *c, const char *tag)
{
	char *fragment = fragment_for(l), *dir, *built = NULL;
	struct stat st;
	int ret;

	state_key(l, c, fragment);
	dir = xstrfmt("%s/images/%.16s", l->cache, c->key);
	c->image = xstrfmt("%s/bzImage", dir);
	c->build_log = xstrfmt("%s/build.log", dir);
	if (stat(c->image, &st) == 0) {
		c->cached = true;
		lab_progress(l, "%s %s: %s cached", tag, c->name, c->state);
		goto out;
	}
	mkdir(dir, 0755);
	lab_progress(l, "%s %s: %s ...", tag, c->name, c->state);
	ret = ktree_checkout(&l->tree, &c->tree);
	if (!ret)
		ret = ktree_configure(&l->tree, fragment, c->build_log);
	if (!ret)
		ret = ktree_build(&l->tree, c->build_log, &c->build_seconds, &built);
	if (!ret && copy_file(built, c->image) < 0)
		ret = EXIT_BUILD;
	if (ret == EXIT_BUILD)
		c->why = xstrfmt("build failed (see %s)", c->build_log);
	lab_progress(l, "%s %s: %s %s in %.1fs", tag, c->name, c->state,
		     ret ? "FAILED" : "built", c->build_seconds);
	if (ret == EXIT_BUILD)
		show_tail(l, c->build_log);
	c->status = ret;
out:
	free(built);
	free(dir);
	free(fragment);
	return c->status;
}

static void write_record(const struct lab *l, const struct candidate *c)
{
	FILE *f = fopen(c->record, "w");
	char hex[GIT_OID_HEXSZ + 1];
	struct json j;

	if (!f)
		return;
	json_init(&j, f);
	json_obj_begin(&j);
	json_kstr(&j, "candidate", c->name);
	json_kstr(&j, "state", c->state);
	json_kstr(&j, "kernel_tree", l->tree.what);
	json_kstr(&j, "commit", git_oid_tostr(hex, sizeof(hex), &c->commit));
	json_kstr(&j, "tree", git_oid_tostr(hex, sizeof(hex), &c->tree));
	json_key(&j, "compat_patches");
	json_arr_begin(&j);
	for (size_t i = 0; i < c->ncompat; i++)
		json_str(&j, c->compat[i]);
	json_arr_end(&j);
	json_key(&j, "patches");
	json_arr_begin(&j);
	for (size_t i = 0; i < c->npatches; i++)
		json_str(&j, c->patches[i]->name);
	json_arr_end(&j);
	json_kstr(&j, "state_key", c->key);
	json_kstr(&j, "work_tree", l->tree.work);
	json_kstr(&j, "object_dir", l->tree.obj);
	json_kstr(&j, "image", c->image);
	json_kstr(&j, "initramfs", l->initrd);
	json_kstr(&j, "gcc", l->gcc);
	json_kstr(&j, "qemu", l->qemu);
	json_kstr(&j, "command", c->boot.cmdline);
	json_obj_end(&j);
	fclose(f);
}

/* Did the guest behave as this candidate must? */
static void judge(struct candidate *c)
{
	const struct serial_report *s = &c->boot.serial;
	const struct guest_check *bug;

	if (c->boot.timed_out)
		c->why = xstrfmt("boot timed out");
	else if (s->panic)
		c->why = xstrfmt("kernel panic");
	else if (!s->began)
		c->why = xstrfmt("the test program never ran");
	else if (!s->summary)
		c->why = xstrfmt("the test program did not finish");
	if (c->why) {
		c->status = EXIT_BOOT;
		return;
	}
	bug = c->expect.bug ? serial_check(s, c->expect.check) : NULL;
	c->bug_seen = bug && !bug->pass && !strcmp(bug->err, c->expect.err);
	if (!c->judge) {
		c->ok = true;
		c->why = xstrfmt("%d pass, %d fail (no expectation)", s->pass, s->fail);
	} else if (c->expect.bug) {
		c->ok = c->bug_seen;
		c->why = c->ok ? xstrfmt("fails as the bug says: %s %s", c->expect.check, c->expect.err)
			       : xstrfmt("expected %s to fail with %s", c->expect.check, c->expect.err);
	} else {
		c->ok = s->fail == 0 && s->pass > 0;
		c->why = c->ok ? xstrfmt("all checks pass") : xstrfmt("%d check(s) fail", s->fail);
	}
}

int lab_run(struct lab *l, struct candidate *c, size_t i, size_t n)
{
	char tag[32];
	int ret;

	snprintf(tag, sizeof(tag), "[%zu/%zu]", i + 1, n);
	ret = compute_state(l, c);
	if (ret == EXIT_PATCH) {
		c->status = ret;
		c->why = xstrfmt("%s does not apply", c->failed_patch);
		lab_progress(l, "%s %s: %s", tag, c->name, c->why);
		return 0;
	}
	if (ret)
		return ret;
	ret = build(l, c, tag);
	if (ret == EXIT_INTERRUPTED || ret == EXIT_NO_TOOL)
		return ret;
	if (ret)
		return 0;
	if (!c->cached) {
		l->built = xrealloc(l->built, (l->nbuilt + 1) * sizeof(*l->built));
		l->built[l->nbuilt++] = xstrdup(c->image);
	}
	c->log = xstrfmt("%s/boots/%s-%zu-%s.log", l->cache, l->stamp, i + 1, c->name);
	c->record = xstrfmt("%s/boots/%s-%zu-%s.json", l->cache, l->stamp, i + 1, c->name);
	lab_progress(l, "%s %s: booting (%s) ...", tag, c->name, l->accel);
	ret = boot_run(c->image, l->initrd, c->log, l->accel, l->o->timeout, &c->boot);
	write_record(l, c);
	if (ret)
		return ret;
	judge(c);
	lab_progress(l, "%s %s: %.1fs, %d pass, %d fail: %s", tag, c->name, c->boot.seconds,
		     c->boot.serial.pass, c->boot.serial.fail, c->why);
	return 0;
}

void candidate_free(struct candidate *c)
{
	free(c->name);
	free(c->role);
	free(c->models);
	free(c->patches);
	free(c->compat);
	free(c->state);
	free(c->failed_patch);
	free(c->image);
	free(c->build_log);
	free(c->log);
	free(c->record);
	free(c->why);
	boot_result_free(&c->boot);
	memset(c, 0, sizeof(*c));
}

static const char *expect_text(const struct candidate *c, char *buf, size_t n)
{
	if (!c->judge)
		return "none";
	if (!c->expect.bug)
		return "all pass";
	snprintf(buf, n, "%s fails with %s", c->expect.check, c->expect.err);
	return buf;
}

void candidate_print_header(void)
{
	printf("%-22s %-28s %-14s %-12s %s\n", "candidate", "built state", "build", "boot",
	       "result");
}

void candidate_print(const struct candidate *c)
{
	char build[32], boot[32];

	if (c->status == EXIT_PATCH)
		snprintf(build, sizeof(build), "-");
	else if (c->status == EXIT_BUILD)
		snprintf(build, sizeof(build), "FAILED");
	else if (c->cached)
		snprintf(build, sizeof(build), "cached");
	else
		snprintf(build, sizeof(build), "built %.0fs", c->build_seconds);
	if (c->log && c->boot.seconds > 0)
		snprintf(boot, sizeof(boot), "%s %.1fs", c->boot.accel, c->boot.seconds);
	else
		snprintf(boot, sizeof(boot), "-");
	printf("%-22s %-28s %-14s %-12s %s: %s\n", c->name, c->state ? c->state : "-", build, boot,
	       c->ok ? "as expected" : "NOT as expected", c->why ? c->why : "not run");
	if (c->role || c->models)
		printf("%-22s   %s%s%s\n", "", c->role ? c->role : "",
		       c->models ? "; models " : "", c->models ? c->models : "");
	for (size_t k = 0; k < c->boot.serial.nchecks; k++) {
		const struct guest_check *g = &c->boot.serial.checks[k];
		if (!g->pass)
			printf("%-22s   FAIL %s errno=%s expect=%s\n", "", g->name, g->err, g->expect);
	}
}

void candidate_json(struct json *j, const struct candidate *c)
{
	char hex[GIT_OID_HEXSZ + 1], buf[128];

	json_obj_begin(j);
	json_kstr(j, "name", c->name);
	json_kstr(j, "role", c->role);
	json_kstr(j, "models", c->models);
	json_kstr(j, "commit", git_oid_tostr(hex, sizeof(hex), &c->commit));
	json_kstr(j, "state", c->state);
	json_key(j, "patches");
	json_arr_begin(j);
	for (size_t i = 0; i < c->npatches; i++)
		json_str(j, c->patches[i]->name);
	json_arr_end(j);
	json_key(j, "compat_patches");
	json_arr_begin(j);
	for (size_t i = 0; i < c->ncompat; i++)
		json_str(j, c->compat[i]);
	json_arr_end(j);
	json_kstr(j, "expect", expect_text(c, buf, sizeof(buf)));
	json_kint(j, "status", c->status);
	json_kstr(j, "failed_patch", c->failed_patch);
	json_key(j, "build");
	json_obj_begin(j);
	json_kbool(j, "cached", c->cached);
	json_kint(j, "milliseconds", (int64_t)(c->build_seconds * 1000));
	json_kstr(j, "state_key", *c->key ? c->key : NULL);
	json_kstr(j, "log", c->build_log);
	json_obj_end(j);
	json_key(j, "boot");
	json_obj_begin(j);
	json_kstr(j, "accel", c->log ? c->boot.accel : NULL);
	json_kint(j, "milliseconds", (int64_t)(c->boot.seconds * 1000));
	json_kbool(j, "timed_out", c->boot.timed_out);
	json_kbool(j, "panic", c->boot.serial.panic);
	json_kstr(j, "kernel", c->boot.serial.kernel);
	json_kstr(j, "log", c->log);
	json_kstr(j, "record", c->record);
	json_kstr(j, "command", c->boot.cmdline);
	json_key(j, "checks");
	json_arr_begin(j);
	for (size_t k = 0; k < c->boot.serial.nchecks; k++) {
		const struct guest_check *g = &c->boot.serial.checks[k];
		json_obj_begin(j);
		json_kstr(j, "name", g->name);
		json_kbool(j, "pass", g->pass);
		json_kstr(j, "errno", g->err);
		json_kstr(j, "expect", g->expect);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_kbool(j, "bug_seen", c->bug_seen);
	json_kbool(j, "as_expected", c->ok);
	json_kstr(j, "why", c->why);
	json_obj_end(j);
}

int lab_prepare(const struct lab_opts *o)
{
	struct lab l;
	int ret = lab_open(&l, o);

	if (!ret) {
		printf("guest data:       %s\n", l.guest);
		printf("kernel tree:      %s\n", l.tree.what);
		printf("repository:       %s\n", git_repository_path(l.tree.repo));
		printf("base commit:      %s\n", git_oid_tostr_s(&l.tree.base));
		printf("work tree:        %s\n", l.tree.work);
		printf("object directory: %s\n", l.tree.obj);
	}
	lab_close(&l);
	return ret;
}
