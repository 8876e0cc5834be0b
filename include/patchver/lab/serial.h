#ifndef PATCHVER_LAB_SERIAL_H
#define PATCHVER_LAB_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What a guest printed on its serial console: the markers of guest/init.c
 * (BEGIN, the reproducer's START and END with how it ended), PATCHVER-CHECK
 * lines of a multi-check reproducer, the console lines printed after START
 * (the reproducer's output and the kernel's), and the first crash report
 * among them.  Only what follows START counts for a reproducer's verdict:
 * an old kernel's warning at boot must not make every state bad.  A boot
 * test (no reproducer) also reads the first crash report before START.
 */
struct guest_check {
	char name[64];
	bool pass;
	char err[24];           /* "ELOOP", "0" */
	char expect[24];
};

enum repro_end { REPRO_NOT_ENDED, REPRO_EXIT, REPRO_SIGNAL, REPRO_TIMEOUT };

/* Console lines kept after START (for --bug regex: and the tail of a row). */
#define SERIAL_MAX_LINES 20000

struct serial_report {
	bool began;             /* PATCHVER-BEGIN seen: /init ran */
	bool started;           /* PATCHVER-REPRO-START: the reproducer ran */
	bool panic;             /* "Kernel panic", anywhere */
	bool panic_after_start;
	char kernel[64];
	enum repro_end end;
	int exit_code;          /* REPRO_EXIT */
	char signal[16];        /* REPRO_SIGNAL: "SIGSEGV" */
	int timeout;            /* REPRO_TIMEOUT: seconds */
	char crash[192];        /* the first crash report after START: its title, or "" */
	char boot_crash[192];   /* the first one before START */
	struct guest_check *checks;
	size_t nchecks;
	int pass, fail;         /* of the checks */
	char **output;          /* console lines after START, markers excluded */
	size_t noutput;
};

/* Parse the text of a serial log (any bytes; CR and garbage tolerated). */
void serial_parse(const char *text, size_t len, struct serial_report *r);
/* Parse a log file; false if it cannot be read. */
bool serial_parse_file(const char *path, struct serial_report *r);
void serial_free(struct serial_report *r);

const struct guest_check *serial_check(const struct serial_report *r, const char *name);

#endif
