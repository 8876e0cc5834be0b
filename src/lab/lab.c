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

#include "patchver/base/notice.h"
#include "patchver/base/error.h"
#include "patchver/lab/input.h"
#include "patchver/lab/digest.h"
#include "patchver/lab/initramfs.h"
#include "patchver/lab/datadir.h"
#include "patchver/lab/builderr.h"
#include "patchver/lab/lab.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"

void lab_progress(const struct lab *l, const char *f, ...)
{
	va_list ap;

	if (l->o->quiet)
		return;
	va_start(ap, f);
	pv_vnotice(PV_NOTICE_NOTE, f, ap);
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

int lab_parse_expectation(struct expectation *e, const char *text, const struct bug_spec *dflt,
			  struct bug_spec **own)
{
	int ret;

	*own = NULL;
	e->bug = strcmp(text, "pass") != 0;
	e->how = dflt;
	if (!strcmp(text, "pass") || !strcmp(text, "bug"))
		return 0;
	*own = xcalloc(1, sizeof(**own));
	if ((ret = oracle_parse(*own, text))) {
		free(*own);
		*own = NULL;
		return ret;
	}
	e->how = *own;
	return 0;
}

/* A built state's identity: its tree, the config fragment and the compiler. */
static void state_key(const struct lab *l, struct candidate *c, const char *fragment)
{
	EVP_MD_CTX *ctx = digest_new();

	EVP_DigestUpdate(ctx, c->tree.id, GIT_OID_RAWSZ);
	digest_file(ctx, fragment);
	EVP_DigestUpdate(ctx, l->gcc, strlen(l->gcc));
	/* make's command line builds too; none (modern trees) keeps the old keys */
	if (c->make_flags && *c->make_flags)
		digest_str(ctx, c->make_flags);
	digest_hex(ctx, c->key, 32);
}

static int check_tools(void)
{
	static const char *tools[] = { "make", "cc", "tar", "cp", "qemu-system-x86_64" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!boot_have_tool(tools[i]))
			return pv_error_set(PV_ENOTOOL, "%s not found: run tools/setup.sh, or install it",
				     tools[i]);
	return 0;
}

/* "timeout=60\nscript=1\nprogram=1\n": what guest/init.c reads from /.patchver/conf. */
static char *guest_conf(const struct lab *l)
{
	return xstrfmt("timeout=%d\nscript=%d\nprogram=%d\n",
		       l->o->repro.repro_timeout > 0 ? l->o->repro.repro_timeout : 60,
		       l->repro.script ? 1 : 0, l->repro.binary ? 1 : 0);
}

/*
 * The initramfs at path: init (guest/init.c's binary) as /init, the
 * reproducer, busybox with its applets (installed by /init; NULL: none),
 * the --guest-file files; those for /tmp wait in /.patchver/tmp, as /init
 * mounts a tmpfs there.
 */
static int write_initramfs(const struct lab *l, const char *init, const char *repro,
			   const char *busybox, const char *path)
{
	char *conf = guest_conf(l);
	size_t n = 0, cap = 10 + l->repro.nfiles;
	struct initramfs_entry *e = xcalloc(cap, sizeof(*e));
	char **paths = xcalloc(l->repro.nfiles + 1, sizeof(*paths));
	int ret = 0;

	e[n++] = (struct initramfs_entry){ .path = "dev", .mode = 040755 };
	e[n++] = (struct initramfs_entry){ .path = "dev/console", .mode = 020600, .rmajor = 5,
					   .rminor = 1 };
	e[n++] = (struct initramfs_entry){ .path = "proc", .mode = 040755 };
	e[n++] = (struct initramfs_entry){ .path = "sys", .mode = 040755 };
	e[n++] = (struct initramfs_entry){ .path = "tmp", .mode = 041777 };
	e[n++] = (struct initramfs_entry){ .path = "init", .mode = 0100755, .src = init };
	e[n++] = (struct initramfs_entry){ .path = ".patchver/conf", .mode = 0100644, .data = conf,
					   .size = strlen(conf) };
	if (repro)
		e[n++] = (struct initramfs_entry){ .path = ".patchver/repro", .mode = 0100755,
						   .src = repro };
	if (busybox)
		e[n++] = (struct initramfs_entry){ .path = "bin/busybox", .mode = 0100755,
						   .src = busybox };
	for (size_t i = 0; i < l->repro.nfiles; i++) {
		const char *d = l->repro.files[i].dest;
		paths[i] = !strncmp(d, "/tmp/", 5) ? xstrfmt(".patchver/tmp/%s", d + 5) : xstrdup(d + 1);
		e[n++] = (struct initramfs_entry){ .path = paths[i], .mode = 0100755,
						   .src = l->repro.files[i].src };
	}
	if (initramfs_write(path, e, n) < 0)
		ret = pv_error_set(PV_ENOTOOL, "cannot write %s", path);
	for (size_t i = 0; i < l->repro.nfiles; i++)
		free(paths[i]);
	free(paths);
	free(e);
	free(conf);
	return ret;
}

/* A reproducer's own default --bug: FILE.bug beside FILE.c, else "exit". */
static char *default_bug(const char *source)
{
	size_t len = strlen(source);
	char *side = len > 2 && !strcmp(source + len - 2, ".c") ? xstrfmt("%.*s.bug", (int)len - 2, source)
								 : xstrfmt("%s.bug", source);
	FILE *f = fopen(side, "r");
	char line[128] = "exit";

	if (f && fgets(line, sizeof(line), f))
		line[strcspn(line, "\r\n")] = '\0';
	if (f)
		fclose(f);
	free(side);
	return xstrdup(line);
}

/*
 * --reproducer: a path as given; a bare name that is no file here is one
 * of patchver's own (guest/reproducers/NAME, NAME.c or NAME.sh).
 */
static char *find_reproducer(const struct lab *l, const char *given)
{
	static const char *const ends[] = { "", ".c", ".sh" };

	if (path_is_file(given) || strchr(given, '/'))
		return xstrdup(given);
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		char *shipped = xstrfmt("%s/reproducers/%s%s", l->guest, given, ends[i]);
		if (path_is_file(shipped))
			return shipped;
		free(shipped);
	}
	return xstrdup(given);          /* not found: repro_prepare says so */
}

/*
 * How the bug shows: --bug, else the reproducer's own .bug file, else
 * "exit"; without a reproducer, a boot test ("boot").  A kind that reads
 * the program's status or checks needs a program.
 */
static int pick_bug(struct lab *l, const char *source)
{
	const char *given = l->o->repro.bug;
	char *bug = given ? xstrdup(given) : source ? default_bug(source) : xstrdup("boot");
	int ret = oracle_parse(&l->bug, bug);

	if (!ret && !source && (l->bug.kind == BUG_EXIT || l->bug.kind == BUG_CHECK))
		ret = pv_error_set_about(PV_EINVALID, LAB_INPUT_BUG, "'%s': the reproducer's status "
					 "or checks, and there is no reproducer: give one, or "
					 "boot, oops, regex:RE, hang", bug);
	free(bug);
	return ret;
}

/* The reproducer, the init, --bug and --config: all checked before anything is built. */
static int prepare_guest(struct lab *l)
{
	const char *given = l->o->repro.reproducer;
	char *source = given ? find_reproducer(l, given) : NULL;
	char *init = xstrfmt("%s/init.c", l->guest);
	int ret;

	if ((ret = repro_prepare(&l->repro, source, l->o->repro.guest_files, l->cache, l->gcc)) ||
	    (ret = kconfig_request_init(&l->kreq, l->o->repro.configs, l->guest)) ||
	    (ret = pick_bug(l, source)))
		goto out;
	/* patchver's own program, not the user's: a build failure, the compiler's words kept */
	if ((ret = repro_compile(&l->init, init, "cc", l->cache, l->gcc)) == PV_EINVALID)
		ret = pv_error_wrap(PV_EBUILD, "cannot build the guest's init: ");
out:
	free(init);
	free(source);
	return ret;
}

static int lock_cache(struct lab *l)
{
	char *path = xstrfmt("%s/lock", l->cache);

	l->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (l->lock_fd < 0)
		return pv_error_set(PV_ENOTOOL, "cannot create the cache lock in %s: %s", l->cache,
			     strerror(errno));
	if (flock(l->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		pv_notice(PV_NOTICE_NOTE, "waiting for another patchver run using %s", l->cache);
		if (flock(l->lock_fd, LOCK_EX) < 0)
			return pv_error_set(PV_EINTERRUPTED, "interrupted while waiting for the cache lock");
	}
	return 0;
}

int lab_open(struct lab *l, const struct lab_opts *o)
{
	char *gcc[] = { "cc", "--version", NULL };
	char *qemu[] = { "qemu-system-x86_64", "--version", NULL };
	char *mk[] = { "mkdir", "-p", NULL, NULL, NULL, NULL, NULL };
	struct proc_result pr;
	time_t now = time(NULL);
	char stamp[32];
	int ret;

	memset(l, 0, sizeof(*l));
	l->o = o;
	l->lock_fd = -1;
	if (!(l->guest = datadir_guest(o->guest_dir)))
		return PV_ENOTOOL;
	l->accel = boot_pick_accel(o->accel);
	l->cache = ktree_cache_dir();
	mk[2] = l->cache;
	mk[3] = xstrfmt("%s/boots", l->cache);
	mk[4] = xstrfmt("%s/images", l->cache);
	mk[5] = xstrfmt("%s/guest", l->cache);
	proc_run(mk, NULL, NULL, 10, &pr);
	free(mk[3]);
	free(mk[4]);
	free(mk[5]);
	l->gcc = proc_first_line(gcc);      /* the compiler: in every cache key */
	if ((ret = prepare_guest(l)) || (ret = check_tools()))
		return ret;
	if ((ret = lock_cache(l)))
		return ret;
	l->qemu = proc_first_line(qemu);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	l->stamp = xstrdup(stamp);
	l->initrd = xstrfmt("%s/guest/initramfs.cpio.gz", l->cache);
	if ((ret = write_initramfs(l, l->init.binary, l->repro.binary, l->repro.busybox, l->initrd)))
		return ret;
	lab_progress(l, "kernel tree: %s", o->kernel_tree ? o->kernel_tree : "Debian linux-source");
	if (ktree_distcc())
		lab_progress(l, "compiling through distcc: DISTCC_HOSTS=%s", ktree_distcc());
	if ((ret = ktree_open(&l->tree, l->cache, o->kernel_tree)))
		return ret;
	ktree_use_variant(&l->tree, l->kreq.variant);
	l->tree.jobs = o->jobs;
	return 0;
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
	compat_free(&l->compat);
	repro_free(&l->repro);
	repro_free(&l->init);
	repro_free(&l->alt_repro);
	repro_free(&l->alt_init);
	free(l->alt_cc);
	free(l->alt_initrd);
	oracle_free(&l->bug);
	kconfig_request_free(&l->kreq);
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

/* The candidate's sub-era's base fragment with the --config requests after it (caller frees). */
static char *fragment_for(const struct lab *l, const struct candidate *c)
{
	char *base = *c->compat_era ? xstrfmt("%s/compat/%s/kernel.config", l->guest, c->compat_era)
				    : xstrfmt("%s/kernel.config", l->guest);
	char *dir = xstrfmt("%s/guest", l->cache), *merged;
	struct stat st;

	if (stat(base, &st) < 0) {
		free(base);
		base = xstrfmt("%s/kernel.config", l->guest);
	}
	merged = kconfig_merge(&l->kreq, l->guest, c->compat_era, base, dir);
	free(base);
	free(dir);
	return merged;
}

/*
 * What the built state's .config says: SMP (QEMU gets -smp 2), and the
 * requested options that did not stick.  With --strict-config those stop
 * the run (PV_EINVALID).
 */
static int check_config(const struct lab *l, struct candidate *c, const char *fragment,
			const char *config)
{
	c->smp = kconfig_enabled(config, "CONFIG_SMP");
	c->unstuck = kconfig_unstuck(fragment, config);
	if (c->unstuck && l->o->repro.strict_config)
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_STRICT_CONFIG, "%s did not stick in %s",
					  c->unstuck[0], c->state);
	/* a warning, not progress: said with --json too */
	for (char **u = c->unstuck; u && *u; u++)
		pv_notice(PV_NOTICE_WARNING, "%s: %s did not stick in %s (unknown in that "
			  "kernel, or a dependency is not met)", c->name, *u, c->state);
	return 0;
}

/*
 * The candidate's tree: its commit, its sub-era's compat patches (they fix
 * the build with today's toolchain, not behaviour; each must apply), then
 * its own patches, each of which must apply.
 */
static int compute_state(struct lab *l, struct candidate *c)
{
	char version[48];
	struct sbuf label = SBUF_INIT;
	git_oid next;
	int ret;

	if ((ret = ktree_commit_tree(&l->tree, &c->commit, &c->tree)))
		return ret;
	ktree_tree_version(l->tree.repo, &c->tree, version, sizeof(version));
	if (!*version)
		return pv_error_set(PV_EINVALID, "%s: the Makefile of %s at %.12s gives no kernel "
				    "version (VERSION, PATCHLEVEL, SUBLEVEL): not a kernel tree",
				    c->name, l->tree.what, git_oid_tostr_s(&c->commit));
	if ((ret = compat_load(&l->compat, l->guest, version)))
		return ret;
	for (size_t i = 0; i < l->compat.npatches; i++) {
		const struct compat_patch *p = &l->compat.patches[i];
		if ((ret = ktree_apply(&l->tree, &c->tree, p->diff, &next)) == PV_EPATCH) {
			/* the sub-era's series is wrong for this tree: never built without it */
			c->failed_patch = xstrfmt("compat/%s/%s", l->compat.era, p->name);
			c->state = xstrdup(version);
			return ret;
		}
		if (ret)
			return ret;
		c->tree = next;
		c->compat = xrealloc(c->compat, (c->ncompat + 1) * sizeof(*c->compat));
		c->compat[c->ncompat++] = xstrdup(p->name);
	}
	/* the candidate's own copy: the lab loads another sub-era for the next one */
	snprintf(c->compat_era, sizeof(c->compat_era), "%s", l->compat.era);
	c->make_flags = xstrdup(l->compat.make_text);
	c->guest_cc = l->compat.guest_cc ? xstrdup(l->compat.guest_cc) : NULL;
	c->qemu_args = strv_dup(l->compat.qemu_args);
	c->make_vars = strv_dup(l->compat.make_vars);
	sbuf_adds(&label, version);
	for (size_t i = 0; i < c->npatches; i++) {
		ret = ktree_apply(&l->tree, &c->tree, c->patches[i]->diff, &next);
		if (ret == PV_EPATCH)
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
		pv_notice(PV_NOTICE_PROGRESS, "  | %.*s", (int)strcspn(lines[k % 6], "\n"),
			  lines[k % 6]);
	for (size_t k = 0; k < 6; k++)
		free(lines[k]);
}

/*
 * A candidate's failure the run goes on after: said at once, as the run
 * reports it in the candidate's row only.
 */
static void say_failure(void)
{
	pv_notice(PV_NOTICE_NOTE, "%s", pv_error_last()->message);
}

/* <cache>/times: "build|boot SECONDS STATE" a line, what estimates read. */
static void record_time(const struct lab *l, const char *what, double seconds, const char *state)
{
	char *path = xstrfmt("%s/times", l->cache);
	FILE *f = fopen(path, "a");

	if (f) {
		fprintf(f, "%s %.1f %s\n", what, seconds, state);
		fclose(f);
	}
	free(path);
}

/*
 * Why a build failed, in one line: the first compiler, assembler, linker
 * or make error of its log (a parallel make's first, not its last words).
 * A tree no sub-era of guest/compat/ covers is said to be past what this
 * toolchain builds.
 */
static char *build_failure(const struct candidate *c)
{
	static const char *const marks[] = { ": error:", ": fatal error:", "undefined reference",
					     "Error: ", "Segmentation fault", "*** " };
	FILE *f = fopen(c->build_log, "r");
	char line[512], *first = NULL, *why;

	while (f && !first && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]) && !first; i++)
			if (strstr(line, marks[i]))
				first = xstrndup(line, strcspn(line, "\n"));
	if (f)
		fclose(f);
	why = xstrfmt("%s%s%s (see %s)", !*c->compat_era && c->state && !strncmp(c->state, "2.", 2) ?
		      "cannot build with this toolchain" : "build failed", first ? ": " : "",
		      first ? first : "", c->build_log);
	free(first);
	return why;
}

static int build(struct lab *l, struct candidate *c, const char *tag)
{
	char *fragment = fragment_for(l, c), *dir, *built = NULL, *config = NULL, *obj_config = NULL;
	struct stat st;
	int ret;

	if (!fragment) {
		c->status = pv_error_set(PV_EBUILD, "cannot write the config fragment in %s/guest",
					 l->cache);
		say_failure();
		return c->status;
	}
	state_key(l, c, fragment);
	dir = xstrfmt("%s/images/%.16s", l->cache, c->key);
	c->image = xstrfmt("%s/bzImage", dir);
	c->build_log = xstrfmt("%s/build.log", dir);
	config = xstrfmt("%s/config", dir);
	if (stat(c->image, &st) == 0 && stat(config, &st) == 0) {
		c->cached = true;
		lab_progress(l, "%s %s: %s cached", tag, c->name, c->state);
		c->status = check_config(l, c, fragment, config);
		goto out;
	}
	mkdir(dir, 0755);
	lab_progress(l, "%s %s: %s ...", tag, c->name, c->state);
	l->tree.make_vars = c->make_vars;
	ret = ktree_checkout(&l->tree, &c->tree);
	if (!ret)
		ret = ktree_configure(&l->tree, fragment, c->build_log);
	if (ret == PV_EBUILD)
		say_failure();
	/* make's own failure: the FAILED line and the log's tail say it */
	if (!ret)
		ret = ktree_build(&l->tree, c->build_log, &c->build_seconds, &built);
	obj_config = xstrfmt("%s/.config", l->tree.obj);
	if (!ret && (copy_file(obj_config, config) < 0 || copy_file(built, c->image) < 0))
		ret = pv_error_set(PV_EBUILD, "cannot copy the build's .config and image into %s",
				   dir);
	if (ret == PV_EBUILD)
		c->why = build_failure(c);
	lab_progress(l, "%s %s: %s %s in %.1fs", tag, c->name, c->state,
		     ret ? "FAILED" : "built", c->build_seconds);
	if (!ret)
		record_time(l, "build", c->build_seconds, c->state);
	if (ret == PV_EBUILD)
		show_tail(l, c->build_log);
	if (!ret)
		ret = check_config(l, c, fragment, config);
	c->status = ret;
out:
	free(config);
	free(obj_config);
	free(built);
	free(dir);
	free(fragment);
	return c->status;
}

/* Did the guest behave as this candidate must? */
static void judge(struct candidate *c)
{
	const struct serial_report *s = &c->boot.serial;
	const struct bug_spec *how = c->expect.how;
	char *detail = NULL;

	c->answer = oracle_judge(how, s, c->boot.timed_out, &detail);
	if (c->answer == ANSWER_SKIP) {
		c->status = PV_EBOOT;
		c->why = detail;
		return;
	}
	c->bug_seen = c->answer == ANSWER_BUG;
	if (!c->judge) {
		c->ok = true;
		c->why = xstrfmt("%s: %s", c->bug_seen ? "the bug shows" : "no bug",
				 detail);
	} else if (c->expect.bug) {
		c->ok = c->bug_seen;
		c->why = !c->ok ? xstrfmt("expected the bug (%s): %s", how->text, detail) :
			 how->kind == BUG_CHECK ? xstrdup(detail) : xstrfmt("the bug shows: %s", detail);
	} else if (how->kind == BUG_CHECK) {
		/* a multi-check reproducer: fixed means every check passes */
		c->ok = !c->bug_seen && s->fail == 0 && s->pass > 0;
		c->why = c->ok ? xstrfmt("all %d checks pass", s->pass) :
			 c->bug_seen ? xstrdup(detail) : xstrfmt("%d check(s) fail", s->fail);
	} else {
		c->ok = !c->bug_seen;
		c->why = c->ok ? xstrfmt("no bug: %s", detail) : xstrfmt("the bug still shows: %s",
									 detail);
	}
	free(detail);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int lab_recorded_seconds(const struct lab *l, const char *what, double *median)
{
	char *path = xstrfmt("%s/times", l->cache), line[512], kind[16];
	FILE *f = fopen(path, "r");
	double *v = NULL, sec;
	size_t n = 0, alloc = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%15s %lf", kind, &sec) == 2 && !strcmp(kind, what) && sec >= 0) {
			v = xgrow(v, &alloc, n + 1, sizeof(*v));
			v[n++] = sec;
		}
	if (f)
		fclose(f);
	free(path);
	*median = 0;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return (int)n;
}

/*
 * The guest of a kernel whose sub-era names another compiler (guest-cc:
 * glibc's static start-up needs AT_RANDOM, 2.6.29): init and a C
 * reproducer built with it, no busybox (Debian's is glibc's).  Made once
 * a run.  0, or PV_EBOOT with the state's reason: it cannot be tested.
 */
static int alt_guest(struct lab *l, const struct candidate *c)
{
	char *init, *version;
	char *cmd[] = { c->guest_cc, "--version", NULL };
	int ret = 0;

	if (l->alt_cc && !strcmp(l->alt_cc, c->guest_cc))
		return 0;
	if (l->repro.script)
		return pv_error_set(PV_EBOOT, "a script needs busybox-static, whose glibc start-up "
				    "does not run on %s: give a C reproducer", c->state);
	if (!boot_have_tool(c->guest_cc))
		return pv_error_set(PV_EBOOT, "%s not found: %s's guest is built with it (install "
				    "musl-tools)", c->guest_cc, c->state);
	repro_free(&l->alt_init);
	repro_free(&l->alt_repro);
	version = proc_first_line(cmd);
	init = xstrfmt("%s/init.c", l->guest);
	ret = repro_compile(&l->alt_init, init, c->guest_cc, l->cache, version ? version : "");
	if (!ret && l->repro.compiled)
		ret = repro_compile(&l->alt_repro, l->repro.source, c->guest_cc, l->cache,
				    version ? version : "");
	if (ret == PV_EINVALID)
		ret = pv_error_wrap(PV_EBOOT, "the guest of this kernel does not build: ");
	free(l->alt_initrd);
	l->alt_initrd = xstrfmt("%s/guest/initramfs-%s.cpio.gz", l->cache, c->guest_cc);
	if (!ret)
		ret = write_initramfs(l, l->alt_init.binary, l->repro.compiled ?
				      l->alt_repro.binary : l->repro.binary, NULL, l->alt_initrd);
	free(l->alt_cc);
	l->alt_cc = ret ? NULL : xstrdup(c->guest_cc);
	free(init);
	free(version);
	return ret;
}

int lab_plan(struct lab *l, struct candidate *c)
{
	char *fragment, *image, *config;
	struct stat st;
	int ret;

	if (c->planned)
		return 0;
	c->planned = true;
	if ((ret = compute_state(l, c)) == PV_EPATCH) {
		c->status = ret;
		c->why = !strncmp(c->failed_patch, "compat/", 7) ?
			 xstrfmt("cannot build with this toolchain: %s does not apply to %s",
				 c->failed_patch, c->state) :
			 xstrfmt("%s does not apply", c->failed_patch);
		return 0;
	}
	if (ret)
		return ret;
	if (!(fragment = fragment_for(l, c)))
		return 0;       /* build() says why */
	state_key(l, c, fragment);
	image = xstrfmt("%s/images/%.16s/bzImage", l->cache, c->key);
	config = xstrfmt("%s/images/%.16s/config", l->cache, c->key);
	c->cached = stat(image, &st) == 0 && stat(config, &st) == 0;
	free(image);
	free(config);
	free(fragment);
	return 0;
}

int lab_run(struct lab *l, struct candidate *c, size_t i, size_t n)
{
	char tag[32];
	int ret;

	snprintf(tag, sizeof(tag), "[%zu/%zu]", i + 1, n);
	if ((ret = lab_plan(l, c)))
		return ret;
	if (c->status == PV_EPATCH) {
		lab_progress(l, "%s %s: %s", tag, c->name, c->why);
		return 0;
	}
	ret = build(l, c, tag);
	if (ret == PV_EINTERRUPTED || ret == PV_ENOTOOL || ret == PV_EINVALID)
		return ret;
	if (ret)
		return 0;
	if (!c->cached) {
		l->built = xrealloc(l->built, (l->nbuilt + 1) * sizeof(*l->built));
		l->built[l->nbuilt++] = xstrdup(c->image);
	}
	c->log = xstrfmt("%s/boots/%s-%zu-%s.log", l->cache, l->stamp, i + 1, c->name);
	c->record = xstrfmt("%s/boots/%s-%zu-%s.json", l->cache, l->stamp, i + 1, c->name);
	if (c->guest_cc && (ret = alt_guest(l, c))) {
		c->status = ret;
		c->why = xstrdup(pv_error_last()->message);
		lab_progress(l, "%s %s: cannot boot: %s", tag, c->name, c->why);
		return ret == PV_EBOOT ? 0 : ret;
	}
	lab_progress(l, "%s %s: booting (%s) ...", tag, c->name, l->accel);
	ret = boot_run(c->image, c->guest_cc ? l->alt_initrd : l->initrd, c->log, l->accel,
		       l->o->timeout, c->smp ? 2 : 1, c->qemu_args, &c->boot);
	if (l->o->booted)
		l->o->booted(l->o->booted_data, l, c);
	if (ret)
		return ret;
	record_time(l, "boot", c->boot.seconds, c->state);
	judge(c);
	lab_progress(l, "%s %s: %.1fs: %s%s", tag, c->name, c->boot.seconds, c->why,
		     c->status ? "" : c->ok ? " (as expected)" : " (NOT as expected)");
	return 0;
}

/* The object make's first "*** [...]" line names (an inner make's: the first), or NULL. */
static char *failed_object(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[1024], *object = NULL;

	while (f && !object && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "*** ["), *end, *sp;
		size_t n;

		if (!p || !(end = strchr(p += 5, ']')))
			continue;
		*end = '\0';
		/* make 4.3: "[scripts/Makefile.build:250: kernel/sys.o]"; older: "[kernel/sys.o]" */
		if ((sp = strrchr(p, ' ')))
			p = sp + 1;
		n = strlen(p);
		if (n > 2 && !strcmp(p + n - 2, ".o"))
			object = xstrdup(p);
	}
	if (f)
		fclose(f);
	return object;
}

static void first_error_of(const char *log, struct builderr *e)
{
	size_t len;
	char *text = file_read(log, &len);

	builderr_first(text ? text : "", text ? len : 0, e);
	free(text);
}

int lab_build_error(struct lab *l, struct candidate *c, struct builderr *e)
{
	char *object = c->build_log ? failed_object(c->build_log) : NULL;
	int ret = 0;

	memset(e, 0, sizeof(*e));
	if (!c->build_log)
		return 0;
	if (object) {
		char *dir = xstrndup(c->build_log, strlen(c->build_log) - strlen("build.log"));
		free(c->object_log);
		c->object_log = xstrfmt("%sobject.log", dir);
		free(dir);
		l->tree.make_vars = c->make_vars;
		ret = ktree_make_target(&l->tree, object, c->object_log);
		if (!ret)
			first_error_of(c->object_log, e);
	}
	/* a link error (no object failed), or an object that built alone */
	if (!ret && e->kind == BUILDERR_NONE)
		first_error_of(c->build_log, e);
	free(object);
	return ret;
}

/* Forget what a run of c found (its state, build, boot, verdict), to run it again. */
void candidate_reset(struct candidate *c)
{
	struct candidate keep = *c;

	keep.planned = false;
	for (size_t i = 0; i < c->ncompat; i++)
		free(c->compat[i]);
	free(c->compat);
	strv_free(c->make_vars);
	free(c->make_flags);
	free(c->guest_cc);
	strv_free(c->qemu_args);
	free(c->state);
	free(c->failed_patch);
	free(c->image);
	free(c->build_log);
	free(c->log);
	free(c->record);
	free(c->why);
	strv_free(c->unstuck);
	boot_result_free(&c->boot);
	memset(c, 0, sizeof(*c));
	/* the failed build's object log: what the prerequisites answer */
	c->object_log = keep.object_log;
	c->name = keep.name;
	c->role = keep.role;
	c->models = keep.models;
	c->commit = keep.commit;
	c->patches = keep.patches;
	c->npatches = keep.npatches;
	c->expect = keep.expect;
	c->judge = keep.judge;
	c->own_bug = keep.own_bug;
	c->prereqs = keep.prereqs;
	c->prereq_seconds = keep.prereq_seconds;
}

void candidate_free(struct candidate *c)
{
	candidate_reset(c);
	free(c->object_log);
	free(c->name);
	free(c->role);
	free(c->models);
	free(c->patches);
	strv_free(c->prereqs);
	if (c->own_bug)
		oracle_free(c->own_bug);
	free(c->own_bug);
	memset(c, 0, sizeof(*c));
}
