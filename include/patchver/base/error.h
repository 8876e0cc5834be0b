#ifndef PATCHVER_ERROR_H
#define PATCHVER_ERROR_H

#include <git2/errors.h>

/*
 * Exit codes: scripts rely on these; man/patchver.1 documents them.
 * An answer that is "none" (a commit in no release) is not an error.
 */
enum {
	EXIT_OK = 0,
	EXIT_USAGE = 2,          /* bad option or argument */
	EXIT_NOREPO = 3,         /* not a git repository, or unreadable */
	EXIT_UNKNOWN_REV = 4,    /* rev does not resolve */
	EXIT_AMBIGUOUS = 5,      /* short sha matches several commits */
	EXIT_NOT_COMMIT = 6,     /* rev names a tree, blob, or tag of one */
	EXIT_CANNOT_DESCRIBE = 7,/* --describe: no tag contains the commit */
	EXIT_NO_TAGS = 8,        /* repository has no tags at all */
	EXIT_CORRUPT = 9,        /* missing or corrupt object in the history */
	EXIT_INPUT = 10,         /* unreadable or invalid input file */
	EXIT_NO_MATCH = 11,      /* --patch: no commit has its patch-id or subject */
	EXIT_NOT_CONFIRMED = 12, /* --verify-boot: a candidate did not behave as expected */
	EXIT_BUILD = 13,         /* --verify-boot: a kernel did not configure or build */
	EXIT_BOOT = 14,          /* --verify-boot: a guest timed out, panicked or never ran /init */
	EXIT_PATCH = 15,         /* --verify-boot: a patch does not apply to the tree */
	EXIT_NO_TOOL = 16,       /* --verify-boot: qemu, a compiler or the kernel source is missing */
	EXIT_INTERRUPTED = 130,  /* SIGINT/SIGTERM: children stopped, cache left usable */
	EXIT_INTERNAL = 70,      /* out of memory, internal error */
};

/*
 * Print "patchver: <message>" on stderr (one line); returns code so that
 * callers can write `return error(EXIT_X, ...)`.
 */
int error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The last libgit2 error message, or "unknown error".  Inline, so that a
 * program built from modules that never call libgit2 (the quick path's
 * front, cli/main.c) does not link it for error().
 */
static inline const char *git_errmsg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown error";
}

#endif
