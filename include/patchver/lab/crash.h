#ifndef PATCHVER_LAB_CRASH_H
#define PATCHVER_LAB_CRASH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Kernel crash reports on a console, the way syzbot reads them: which
 * lines start a report (BUG:, Oops, WARNING:, Kernel panic, general
 * protection fault, KASAN:, ...), and a report's title: its first line
 * without what changes from build to build or boot to boot (addresses,
 * +0x../0x.. offsets, line numbers, CPU and PID numbers), so that a fix
 * that only moves code is not mistaken for the crash being gone.
 */

/* Does this console line start a crash report?  (Timestamps tolerated.) */
bool crash_line(const char *line);

/* The normalised title of a crash line, into out (always terminated). */
void crash_title(const char *line, char *out, size_t n);

#endif
