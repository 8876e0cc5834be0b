#ifndef PATCHVER_SERIAL_H
#define PATCHVER_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What a guest printed on its serial console: the test program's
 * PATCHVER-* lines, and whether the kernel panicked or never ran /init.
 */
struct guest_check {
	char name[64];
	bool pass;
	char err[24];           /* "ELOOP", "0" */
	char expect[24];
};

/* A summary count above this is garbage, not a count of checks. */
#define SERIAL_MAX_COUNT 100000

struct serial_report {
	bool began;             /* PATCHVER-BEGIN seen: /init ran */
	bool summary;           /* PATCHVER-SUMMARY seen: the test finished */
	bool panic;             /* "Kernel panic" */
	char kernel[64];
	struct guest_check *checks;
	size_t nchecks;
	int pass, fail;
};

/* Parse the text of a serial log (any bytes; CR and garbage tolerated). */
void serial_parse(const char *text, size_t len, struct serial_report *r);
/* Parse a log file; false if it cannot be read. */
bool serial_parse_file(const char *path, struct serial_report *r);
void serial_free(struct serial_report *r);

const struct guest_check *serial_check(const struct serial_report *r, const char *name);

#endif
