/*
 * The lab: candidate kernels built and booted, their guests judged.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/lab/buildlog.h"
#include "patchver/lab/datadir.h"
#include "patchver/lab/digest.h"
#include "patchver/lab/guest.h"
#include "patchver/lab/input.h"
#include "patchver/lab/kbuild.h"
#include "patchver/lab/lab.h"
#include "patchver/lab/unbuilt.h"

void lab_progress(const struct lab *l, const char *f, ...)
{
	va_list ap;

	if (l->o->quiet)
		return;
	va_start(ap, f);
	pv_vnotice(PV_NOTICE_NOTE, f, ap);
	va_end(ap);
}

/* A built state's identity: its tree, the config fragment and the compiler. */
static void state_key(const struct lab *l, struct candidate *c, const char *fragment)
{
	EVP_MD_CTX *ctx = digest_new();

	EVP_DigestUpdate(ctx, c->run.tree.id, GIT_OID_RAWSZ);
	digest_file(ctx, fragment);
	EVP_DigestUpdate(ctx, l->gcc, strlen(l->gcc));
	/* make's command line builds too; none (modern trees) keeps the old keys */
	if (c->run.make_flags && *c->run.make_flags)
		digest_str(ctx, c->run.make_flags);
	digest_hex(ctx, c->run.key, 32);
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
	if ((ret = guest_prepare(l)) || (ret = check_tools()))
		return ret;
	if ((ret = lock_cache(l)))
		return ret;
	l->qemu = proc_first_line(qemu);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", gmtime(&now));
	l->stamp = xstrdup(stamp);
	l->initrd = xstrfmt("%s/guest/initramfs.cpio.gz", l->cache);
	if ((ret = guest_write_initramfs(l, l->init.binary, l->repro.binary, l->repro.busybox,
					 l->initrd)))
		return ret;
	lab_progress(l, "kernel tree: %s", o->kernel_tree ? o->kernel_tree : "Debian linux-source");
	if (kbuild_distcc())
		lab_progress(l, "compiling through distcc: DISTCC_HOSTS=%s", kbuild_distcc());
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
	guest_close(l);
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
	const char *era = c->run.compat_era;
	char *base = *era ? xstrfmt("%s/compat/%s/kernel.config", l->guest, era)
			  : xstrfmt("%s/kernel.config", l->guest);
	char *dir = xstrfmt("%s/guest", l->cache), *merged;
	struct stat st;

	if (stat(base, &st) < 0) {
		free(base);
		base = xstrfmt("%s/kernel.config", l->guest);
	}
	merged = kconfig_merge(&l->kreq, l->guest, c->run.compat_era, base, dir);
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
	c->run.smp = kconfig_enabled(config, "CONFIG_SMP");
	c->run.unstuck = kconfig_unstuck(fragment, config);
	if (c->run.unstuck && l->o->repro.strict_config)
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_STRICT_CONFIG, "%s did not stick in %s",
					  c->run.unstuck[0], c->run.state);
	/* a warning, not progress: said with --json too */
	for (char **u = c->run.unstuck; u && *u; u++)
		pv_notice(PV_NOTICE_WARNING, "%s: %s did not stick in %s (unknown in that "
			  "kernel, or a dependency is not met)", c->name, *u, c->run.state);
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

	if ((ret = ktree_commit_tree(&l->tree, &c->commit, &c->run.tree)))
		return ret;
	ktree_tree_version(l->tree.repo, &c->run.tree, version, sizeof(version));
	if (!*version)
		return pv_error_set(PV_EINVALID, "%s: the Makefile of %s at %.12s gives no kernel "
				    "version (VERSION, PATCHLEVEL, SUBLEVEL): not a kernel tree",
				    c->name, l->tree.what, git_oid_tostr_s(&c->commit));
	if ((ret = compat_load(&l->compat, l->guest, version)))
		return ret;
	for (size_t i = 0; i < l->compat.npatches; i++) {
		const struct compat_patch *p = &l->compat.patches[i];
		if ((ret = ktree_apply(&l->tree, &c->run.tree, p->diff, &next, NULL)) == PV_EPATCH) {
			/* the sub-era's series is wrong for this tree: never built without it */
			c->run.failed_patch = xstrfmt("compat/%s/%s", l->compat.era, p->name);
			c->run.state = xstrdup(version);
			return ret;
		}
		if (ret)
			return ret;
		c->run.tree = next;
		c->run.compat = xrealloc(c->run.compat, (c->run.ncompat + 1) * sizeof(*c->run.compat));
		c->run.compat[c->run.ncompat++] = xstrdup(p->name);
	}
	/* the candidate's own copy: the lab loads another sub-era for the next one */
	snprintf(c->run.compat_era, sizeof(c->run.compat_era), "%s", l->compat.era);
	c->run.make_flags = xstrdup(l->compat.make_text);
	c->run.guest_cc = l->compat.guest_cc ? xstrdup(l->compat.guest_cc) : NULL;
	c->run.qemu_args = strv_dup(l->compat.qemu_args);
	c->run.make_vars = strv_dup(l->compat.make_vars);
	sbuf_adds(&label, version);
	for (size_t i = 0; i < c->npatches; i++) {
		enum apply_how how = APPLY_CLEAN;
		ret = ktree_apply(&l->tree, &c->run.tree, c->patches[i]->diff, &next, &how);
		if (ret == PV_EPATCH)
			c->run.failed_patch = xstrdup(c->patches[i]->name);
		if (ret)
			break;
		c->run.tree = next;
		/* a patch that took fuzz or a merge says so in the state's name */
		sbuf_addf(&label, "+%s%s%s%s", c->patches[i]->name, how ? "(" : "",
			  how ? apply_how_name(how) : "", how ? ")" : "");
	}
	c->run.state = label.buf;
	return ret;
}

static int copy_file(const char *from, const char *to)
{
	char *argv[] = { "cp", (char *)from, (char *)to, NULL };
	struct proc_result pr;
	return proc_run(argv, NULL, NULL, 60, &pr) == 0 && pr.exit_code == 0 ? 0 : -1;
}

static void record_time(const struct lab *l, const char *what, double seconds, const char *state)
{
	if (l->o->timed)
		l->o->timed(l->o->hook_data, l, what, seconds, state);
}

int lab_recorded_seconds(const struct lab *l, const char *what, double *median)
{
	*median = 0;
	return l->o->recorded ? l->o->recorded(l->o->hook_data, l, what, median) : 0;
}

/*
 * A candidate's failure the run goes on after: said at once, as the run
 * reports it in the candidate's row only.
 */
static void say_failure(void)
{
	pv_notice(PV_NOTICE_NOTE, "%s", pv_error_last()->message);
}

static int build(struct lab *l, struct candidate *c, const char *tag)
{
	char *fragment = fragment_for(l, c), *dir, *built = NULL, *config = NULL, *obj_config = NULL;
	struct stat st;
	int ret;

	if (!fragment) {
		c->run.status = pv_error_set(PV_EBUILD, "cannot write the config fragment in %s/guest",
					 l->cache);
		say_failure();
		return c->run.status;
	}
	state_key(l, c, fragment);
	dir = xstrfmt("%s/images/%.16s", l->cache, c->run.key);
	c->run.image = xstrfmt("%s/bzImage", dir);
	c->run.build_log = xstrfmt("%s/build.log", dir);
	config = xstrfmt("%s/config", dir);
	if (stat(c->run.image, &st) == 0 && stat(config, &st) == 0) {
		c->run.cached = true;
		lab_progress(l, "%s %s: %s cached", tag, c->name, c->run.state);
		c->run.status = check_config(l, c, fragment, config);
		unbuilt_check(c, &l->tree, l->o->watch, config, false, NULL);
		goto out;
	}
	mkdir(dir, 0755);
	lab_progress(l, "%s %s: %s ...", tag, c->name, c->run.state);
	l->tree.make_vars = c->run.make_vars;
	ret = ktree_checkout(&l->tree, &c->run.tree);
	if (!ret)
		ret = kbuild_configure(&l->tree, fragment, c->run.build_log);
	if (ret == PV_EBUILD)
		say_failure();
	/* make's own failure: the FAILED line and the log's tail say it */
	if (!ret)
		ret = kbuild_image(&l->tree, c->run.build_log, &c->run.build_seconds, &built);
	obj_config = xstrfmt("%s/.config", l->tree.obj);
	if (!ret && (copy_file(obj_config, config) < 0 || copy_file(built, c->run.image) < 0))
		ret = pv_error_set(PV_EBUILD, "cannot copy the build's .config and image into %s",
				   dir);
	if (ret == PV_EBUILD)
		c->run.why = buildlog_why(c);
	lab_progress(l, "%s %s: %s %s in %.1fs", tag, c->name, c->run.state,
		     ret ? "FAILED" : "built", c->run.build_seconds);
	if (!ret)
		record_time(l, "build", c->run.build_seconds, c->run.state);
	if (ret == PV_EBUILD)
		buildlog_show_tail(l, c->run.build_log);
	if (!ret)
		ret = check_config(l, c, fragment, config);
	if (!ret)
		unbuilt_check(c, &l->tree, l->o->watch, config, false, l->tree.obj);
	c->run.status = ret;
out:
	free(config);
	free(obj_config);
	free(built);
	free(dir);
	free(fragment);
	return c->run.status;
}

int lab_plan(struct lab *l, struct candidate *c)
{
	char *fragment, *image, *config;
	struct stat st;
	int ret;

	if (c->run.planned)
		return 0;
	c->run.planned = true;
	if ((ret = compute_state(l, c)) == PV_EPATCH) {
		c->run.status = ret;
		c->run.why = !strncmp(c->run.failed_patch, "compat/", 7) ?
			 xstrfmt("cannot build with this toolchain: %s does not apply to %s",
				 c->run.failed_patch, c->run.state) :
			 xstrfmt("%s does not apply", c->run.failed_patch);
		return 0;
	}
	if (ret)
		return ret;
	if (!(fragment = fragment_for(l, c)))
		return 0;       /* build() says why */
	state_key(l, c, fragment);
	image = xstrfmt("%s/images/%.16s/bzImage", l->cache, c->run.key);
	config = xstrfmt("%s/images/%.16s/config", l->cache, c->run.key);
	c->run.cached = stat(image, &st) == 0 && stat(config, &st) == 0;
	/* before the build: its .config when cached, else what it will be configured from */
	unbuilt_check(c, &l->tree, l->o->watch, c->run.cached ? config : fragment, !c->run.cached,
		      NULL);
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
	if (c->run.status == PV_EPATCH) {
		lab_progress(l, "%s %s: %s", tag, c->name, c->run.why);
		return 0;
	}
	ret = build(l, c, tag);
	if (ret == PV_EINTERRUPTED || ret == PV_ENOTOOL || ret == PV_EINVALID)
		return ret;
	if (ret)
		return 0;
	if (!c->run.cached) {
		l->built = xrealloc(l->built, (l->nbuilt + 1) * sizeof(*l->built));
		l->built[l->nbuilt++] = xstrdup(c->run.image);
	}
	c->run.log = xstrfmt("%s/boots/%s-%zu-%s.log", l->cache, l->stamp, i + 1, c->name);
	c->run.record = xstrfmt("%s/boots/%s-%zu-%s.json", l->cache, l->stamp, i + 1, c->name);
	if (c->run.guest_cc && (ret = guest_alt(l, c))) {
		c->run.status = ret;
		c->run.why = xstrdup(pv_error_last()->message);
		lab_progress(l, "%s %s: cannot boot: %s", tag, c->name, c->run.why);
		return ret == PV_EBOOT ? 0 : ret;
	}
	lab_progress(l, "%s %s: booting (%s) ...", tag, c->name, l->accel);
	ret = boot_run(c->run.image, c->run.guest_cc ? l->alt_initrd : l->initrd, c->run.log, l->accel,
		       l->o->timeout, c->run.smp ? 2 : 1, c->run.qemu_args, &c->run.boot);
	if (l->o->booted)
		l->o->booted(l->o->hook_data, l, c);
	if (ret)
		return ret;
	record_time(l, "boot", c->run.boot.seconds, c->run.state);
	candidate_judge(c);
	lab_progress(l, "%s %s: %.1fs: %s%s", tag, c->name, c->run.boot.seconds, c->run.why,
		     c->run.status ? "" : c->run.ok ? " (as expected)" : " (NOT as expected)");
	return 0;
}
