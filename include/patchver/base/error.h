#ifndef PATCHVER_BASE_ERROR_H
#define PATCHVER_BASE_ERROR_H

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
	EXIT_NOT_TESTED = 17,    /* --verify-boot: no state with the fix compiles its files */
	EXIT_INTERRUPTED = 130,  /* SIGINT/SIGTERM: children stopped, cache left usable */
	EXIT_INTERNAL = 70,      /* out of memory, internal error */
};

/*
 * Errors below cli/ follow libgit2's model: a function returns a negative
 * PV_E* code and records its one-line message with pv_error_set(); it
 * prints nothing and chooses no exit code.  cli/ reads pv_error_last(),
 * says the message and maps the code to an exit code (cli/diag.h).
 * Each code is a kind of failure a caller may act on, so a new one needs
 * a reason beyond its wording.
 */
enum pv_error_code {
	PV_OK = 0,
	PV_EINTERNAL = -1,    /* out of memory, a broken invariant */
	PV_EINVALID = -2,     /* the caller's request makes no sense */
	PV_ENOREPO = -3,      /* not a git repository, or unreadable */
	PV_ENOTFOUND = -4,    /* a revision does not resolve */
	PV_EAMBIGUOUS = -5,   /* a short sha or name means several objects */
	PV_ENOTCOMMIT = -6,   /* a revision names a tree, a blob or a tag of one */
	PV_ENOTAGS = -7,      /* the repository has no release tags */
	PV_ECORRUPT = -8,     /* a missing or corrupt object in the history */
	PV_EINPUT = -9,       /* an unreadable or invalid input file */
	PV_ENOMATCH = -10,    /* no commit has the patch's patch-id or subject */
	PV_EBUILD = -11,      /* a kernel does not configure or build */
	PV_EBOOT = -12,       /* a guest timed out, panicked or never ran its init */
	PV_EPATCH = -13,      /* a patch does not apply to a tree */
	PV_ENOTOOL = -14,     /* a program or a kernel source the work needs is missing */
	PV_EINTERRUPTED = -15,/* SIGINT/SIGTERM arrived */
	PV_EUNCONFIRMED = -16,/* a booted kernel contradicts what the caller said of it */
	PV_EDECLINED = -17,   /* a shortcut cannot answer surely: the caller takes the long way */
	PV_EWRITE = -18,      /* a file of patchver's own (its cache) cannot be written */
};

#define PV_ERROR_MAX 4096     /* room for a compiler's few lines under its error */

struct pv_error {
	int code;             /* a PV_E* code; PV_OK when none was set */
	/*
	 * Which of the caller's inputs the message is about, as the layer
	 * that set it numbers them (0: none; the lab: enum lab_input).  The
	 * message then starts with the input's value, and cli/ puts the
	 * option that gave it first ("--bug 'x': ...").
	 */
	int about;
	char message[PV_ERROR_MAX];
};

/* Record code and a one-line message for this thread; returns code. */
int pv_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same about one of the caller's inputs (struct pv_error's about). */
int pv_error_set_about(int code, int about, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Record code with a prefix (fmt) put before the last recorded message:
 * the caller's context around a failure it passes on ("--series ",
 * "history of tag %s is broken below %s: ").  Returns code.
 */
int pv_error_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* This thread's last recorded error; code PV_OK when there is none. */
const struct pv_error *pv_error_last(void);

/* A broken invariant of patchver's own, never a user's input: say it and abort. */
void pv_bug(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * cli/ only: print "patchver: <message>" on stderr (one line); returns
 * code so that callers can write `return error(EXIT_X, ...)`.
 */
int error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
