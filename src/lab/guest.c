/*
 * The guest (guest.h): the reproducer, guest/init.c and how the bug
 * shows, checked before anything is built; the initramfs they go in; the
 * other guest of kernels whose sub-era names another compiler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/lab/guest.h"
#include "patchver/lab/initramfs.h"
#include "patchver/lab/input.h"
#include "patchver/lab/lab.h"

/* "timeout=60\nscript=1\nprogram=1\n": what guest/init.c reads from /.patchver/conf. */
static char *guest_conf(const struct lab *l)
{
	return xstrfmt("timeout=%d\nscript=%d\nprogram=%d\n",
		       l->o->repro.repro_timeout > 0 ? l->o->repro.repro_timeout : 60,
		       l->repro.script ? 1 : 0, l->repro.binary ? 1 : 0);
}

int guest_write_initramfs(const struct lab *l, const char *init, const char *repro,
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

int guest_prepare(struct lab *l)
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

/* No busybox: Debian's is glibc's. */
int guest_alt(struct lab *l, const struct candidate *c)
{
	char *init, *version;
	char *cmd[] = { c->run.guest_cc, "--version", NULL };
	int ret = 0;

	if (l->alt_cc && !strcmp(l->alt_cc, c->run.guest_cc))
		return 0;
	if (l->repro.script)
		return pv_error_set(PV_EBOOT, "a script needs busybox-static, whose glibc start-up "
				    "does not run on %s: give a C reproducer", c->run.state);
	if (!boot_have_tool(c->run.guest_cc))
		return pv_error_set(PV_EBOOT, "%s not found: %s's guest is built with it (install "
				    "musl-tools)", c->run.guest_cc, c->run.state);
	repro_free(&l->alt_init);
	repro_free(&l->alt_repro);
	version = proc_first_line(cmd);
	init = xstrfmt("%s/init.c", l->guest);
	ret = repro_compile(&l->alt_init, init, c->run.guest_cc, l->cache, version ? version : "");
	if (!ret && l->repro.compiled)
		ret = repro_compile(&l->alt_repro, l->repro.source, c->run.guest_cc, l->cache,
				    version ? version : "");
	if (ret == PV_EINVALID)
		ret = pv_error_wrap(PV_EBOOT, "the guest of this kernel does not build: ");
	free(l->alt_initrd);
	l->alt_initrd = xstrfmt("%s/guest/initramfs-%s.cpio.gz", l->cache, c->run.guest_cc);
	if (!ret)
		ret = guest_write_initramfs(l, l->alt_init.binary, l->repro.compiled ?
				      l->alt_repro.binary : l->repro.binary, NULL, l->alt_initrd);
	free(l->alt_cc);
	l->alt_cc = ret ? NULL : xstrdup(c->run.guest_cc);
	free(init);
	free(version);
	return ret;
}

void guest_close(struct lab *l)
{
	repro_free(&l->repro);
	repro_free(&l->init);
	repro_free(&l->alt_repro);
	repro_free(&l->alt_init);
	free(l->alt_cc);
	free(l->alt_initrd);
	oracle_free(&l->bug);
	kconfig_request_free(&l->kreq);
}
