#ifndef PATCHVER_LAB_REPRO_H
#define PATCHVER_LAB_REPRO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The reproducer a guest runs, and the files that go with it.  Checked
 * and prepared on the host before any kernel is built; never run here:
 *   - a C source (*.c): compiled `cc -static -O2`, cached by content
 *     (source, compiler, flags) in <cache>/repro/;
 *   - a script whose #! names sh (/bin/sh, /bin/ash, busybox sh, env sh):
 *     run by busybox-static's sh in the guest; bash and others refused;
 *   - a static x86-64 ELF: copied as is; one with a PT_INTERP header
 *     (dynamically linked) refused.
 * Everything refused is PV_EINVALID with one line naming the file.
 */
/* What the user says of the reproducer (--reproducer, --bug, --config, ...). */
struct repro_opts {
	const char *reproducer;     /* a path, or a name in guest/reproducers/; NULL: none */
	char **guest_files;         /* --guest-file SRC[:DEST] */
	int repro_timeout;          /* seconds; the guest kills the reproducer after */
	const char *bug;            /* --bug; NULL: the reproducer's .bug file, else "exit" */
	char **configs;             /* --config */
	bool strict_config;         /* an option that did not stick is an error */
};

struct guest_file {
	char *src;                  /* on the host */
	char *dest;                 /* absolute path in the guest */
};

struct repro {
	char *source;               /* the file; NULL: none, a boot test */
	char *binary;               /* what goes to /.patchver/repro; NULL: none */
	bool script;
	bool compiled;              /* from C, this run or cached */
	bool cached;                /* the compile was cached */
	char *busybox;              /* the host's static busybox, for the guest's /bin */
	struct guest_file *files;
	size_t nfiles;
};

/*
 * Check and prepare source (a path; NULL: no program) in cache; files: --guest-file
 * SRC[:DEST] arguments (NULL-terminated, may be NULL); cc_version: the
 * first line of `cc --version`, part of a compiled binary's cache key.
 * 0 or PV_EINVALID.
 */
int repro_prepare(struct repro *r, const char *source, char *const *files, const char *cache,
		  const char *cc_version);

/*
 * Only compile the C source (guest/init.c, or a reproducer for an old
 * kernel's guest) with cc ("cc", "musl-gcc"), cached as a reproducer is;
 * cc_version names the compiler in the cache key.  0 or PV_EINVALID.
 */
int repro_compile(struct repro *r, const char *source, const char *cc, const char *cache,
		  const char *cc_version);
void repro_free(struct repro *r);

/* Is this ELF file dynamically linked (a PT_INTERP header)?  -1: not ELF64/x86-64. */
int repro_elf_dynamic(const char *path, char *why, size_t n);

/* The host's busybox if it is static, else NULL after a message in why. */
char *repro_find_busybox(char *why, size_t n);

#endif
