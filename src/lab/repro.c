/*
 * Reproducers: checked and prepared on the host, run only in the guest.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/lab/digest.h"
#include "patchver/lab/input.h"
#include "patchver/lab/repro.h"

#define CFLAGS "-static -O2 -D_GNU_SOURCE -pthread"

int repro_elf_dynamic(const char *path, char *why, size_t n)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int ret = -1;

	if (!f || fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		snprintf(why, n, "not an ELF file");
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
		snprintf(why, n, "not an x86-64 binary (the guest kernels run 64-bit x86 only)");
		goto out;
	}
	if (eh.e_phentsize != sizeof(ph) || eh.e_phnum > 4096) {
		snprintf(why, n, "a malformed ELF program header table");
		goto out;
	}
	ret = 0;
	for (unsigned i = 0; i < eh.e_phnum && !ret; i++) {
		if (fseek(f, (long)(eh.e_phoff + i * sizeof(ph)), SEEK_SET) < 0 ||
		    fread(&ph, sizeof(ph), 1, f) != 1) {
			snprintf(why, n, "a truncated ELF program header table");
			ret = -1;
		} else if (ph.p_type == PT_INTERP) {
			snprintf(why, n, "dynamically linked (it has a PT_INTERP header): link it "
				 "with -static");
			ret = 1;
		}
	}
out:
	if (f)
		fclose(f);
	return ret;
}

char *repro_find_busybox(char *why, size_t n)
{
	static const char *const paths[] = { "/bin/busybox", "/usr/bin/busybox" };
	char detail[160];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (access(paths[i], X_OK) < 0)
			continue;
		if (repro_elf_dynamic(paths[i], detail, sizeof(detail)) == 0)
			return xstrdup(paths[i]);
		snprintf(why, n, "%s is %s: install busybox-static", paths[i], detail);
		return NULL;
	}
	snprintf(why, n, "busybox not found: install busybox-static");
	return NULL;
}

/* Is the #! line one busybox's sh runs?  Its interpreter in *interp. */
static bool sh_shebang(const char *line, char *interp, size_t n)
{
	char a[256] = "", b[256] = "";
	const char *base;

	sscanf(line + 2, " %255s %255s", a, b);
	snprintf(interp, n, "%s%s%s", a, *b ? " " : "", b);
	base = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
	if (!strcmp(base, "sh") || !strcmp(base, "ash"))
		return true;
	/* #!/usr/bin/env sh, #!/bin/busybox sh */
	return (!strcmp(base, "env") || !strcmp(base, "busybox")) &&
	       (!strcmp(b, "sh") || !strcmp(b, "ash"));
}

/* <cache>/repro/<sha256 of source, compiler, flags>: where its binary is kept. */
static char *compile_dir(const char *source, const char *cache, const char *cc_version)
{
	EVP_MD_CTX *ctx = digest_new();
	char hex[25];

	digest_file(ctx, source);
	digest_str(ctx, CFLAGS);
	digest_str(ctx, cc_version);
	digest_hex(ctx, hex, 12);
	return xstrfmt("%s/repro/%s", cache, hex);
}

/* The compiler's messages, "\n  | " before each line: they belong under the error. */
static void add_log(struct sbuf *sb, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	while (f && fgets(line, sizeof(line), f))
		sbuf_addf(sb, "\n  | %.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
}

/* cc -static: the compiler's messages on stderr when it fails. */
static int compile(struct repro *r, const char *cc, const char *cache, const char *cc_version)
{
	char *dir = compile_dir(r->source, cache, cc_version), *log = xstrfmt("%s/cc.log", dir);
	char *tmp = xstrfmt("%s/repro.tmp", dir), *parent = xstrfmt("%s/repro", cache);
	char *argv[] = { (char *)cc, "-static", "-O2", "-D_GNU_SOURCE", "-pthread", "-o", tmp,
			 r->source, NULL };
	struct proc_result pr;
	struct stat st;
	int ret = 0;

	r->binary = xstrfmt("%s/repro", dir);
	r->compiled = true;
	if (stat(r->binary, &st) == 0) {
		r->cached = true;
		goto out;
	}
	mkdir(cache, 0755);
	mkdir(parent, 0755);
	mkdir(dir, 0755);
	unlink(log);
	if (proc_run(argv, NULL, log, 300, &pr) < 0)
		ret = pv_error_set(PV_ENOTOOL, "cannot run %s: %s", cc, strerror(errno));
	else if (pr.interrupted)
		ret = pv_error_set(PV_EINTERRUPTED, "interrupted while compiling %s", r->source);
	else if (pr.exit_code != 0) {
		struct sbuf why = SBUF_INIT;
		add_log(&why, log);
		ret = pv_error_set(PV_EINVALID, "reproducer %s does not compile (%s " CFLAGS "):%s",
				   r->source, cc, sbuf_str(&why));
		sbuf_free(&why);
	} else if (rename(tmp, r->binary) < 0)
		ret = pv_error_set(PV_ENOTOOL, "cannot write %s: %s", r->binary, strerror(errno));
out:
	free(dir);
	free(log);
	free(tmp);
	free(parent);
	return ret;
}

/* What kind of reproducer: C, script or static ELF; refused otherwise. */
static int classify(struct repro *r, const char *cache, const char *cc_version)
{
	size_t len = strlen(r->source);
	char line[512] = "", why[256], interp[512];
	FILE *f = fopen(r->source, "rb");
	int dyn;

	if (f && !fgets(line, sizeof(line), f))
		line[0] = '\0';
	if (f)
		fclose(f);
	if (len > 2 && !strcmp(r->source + len - 2, ".c"))
		return compile(r, "cc", cache, cc_version);
	r->binary = xstrdup(r->source);
	if (!strncmp(line, "#!", 2)) {
		if (!sh_shebang(line, interp, sizeof(interp)))
			return pv_error_set(PV_EINVALID, "reproducer %s: a '#!%s' script; the guest runs "
				     "scripts with busybox sh (ash): start it with #!/bin/sh",
				     r->source, interp);
		r->script = true;
		return 0;
	}
	if (memcmp(line, ELFMAG, SELFMAG))
		return pv_error_set(PV_EINVALID, "reproducer %s: neither a C source (*.c), a script "
			     "(#!/bin/sh) nor a static x86-64 ELF binary", r->source);
	dyn = repro_elf_dynamic(r->source, why, sizeof(why));
	if (dyn != 0)
		return pv_error_set(PV_EINVALID, "reproducer %s: %s", r->source, why);
	return 0;
}

/* --guest-file SRC[:DEST]: DEST absolute, default /tmp/<name of SRC>. */
static int add_file(struct repro *r, const char *arg)
{
	const char *colon = strrchr(arg, ':');
	char *src = colon ? xstrndup(arg, (size_t)(colon - arg)) : xstrdup(arg);
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char *dest = colon ? xstrdup(colon + 1) : xstrfmt("/tmp/%s", base);
	struct stat st;

	if (stat(src, &st) < 0 || !S_ISREG(st.st_mode) || access(src, R_OK) < 0) {
		pv_error_set_about(PV_EINVALID, LAB_INPUT_GUEST_FILE, "%s: %s", arg,
				   stat(src, &st) < 0 ? strerror(errno) : "not a readable regular file");
		goto fail;
	}
	if (dest[0] != '/' || strstr(dest, "/../") || !strcmp(dest + strlen(dest) - 1, "/") ||
	    !strncmp(dest, "/.patchver", 10) || !strcmp(dest, "/init")) {
		pv_error_set_about(PV_EINVALID, LAB_INPUT_GUEST_FILE, "%s: the guest path must be an "
				   "absolute file path (not /init, not under /.patchver)", arg);
		goto fail;
	}
	r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof(*r->files));
	r->files[r->nfiles].src = src;
	r->files[r->nfiles++].dest = dest;
	return 0;
fail:
	free(src);
	free(dest);
	return PV_EINVALID;
}

int repro_compile(struct repro *r, const char *source, const char *cc, const char *cache,
		  const char *cc_version)
{
	memset(r, 0, sizeof(*r));
	r->source = xstrdup(source);
	return compile(r, cc, cache, cc_version);
}

int repro_prepare(struct repro *r, const char *source, char *const *files, const char *cache,
		  const char *cc_version)
{
	struct stat st;
	char why[256];
	int ret;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; files && files[i]; i++)
		if ((ret = add_file(r, files[i])))
			return ret;
	r->busybox = repro_find_busybox(why, sizeof(why));
	if (!source)
		return 0;       /* a boot test: the guest runs no program */
	r->source = xstrdup(source);
	if (stat(source, &st) < 0 || !S_ISREG(st.st_mode))
		return pv_error_set(PV_EINVALID, "reproducer %s: %s", source,
			     stat(source, &st) < 0 ? strerror(errno) : "not a regular file");
	if ((ret = classify(r, cache, cc_version)))
		return ret;
	if (!r->busybox && r->script)
		return pv_error_set(PV_ENOTOOL, "reproducer %s is a script, and %s", source, why);
	return 0;
}

void repro_free(struct repro *r)
{
	for (size_t i = 0; i < r->nfiles; i++) {
		free(r->files[i].src);
		free(r->files[i].dest);
	}
	free(r->files);
	free(r->source);
	free(r->binary);
	free(r->busybox);
	memset(r, 0, sizeof(*r));
}
