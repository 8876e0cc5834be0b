#ifndef PATCHVER_CLI_DIAG_H
#define PATCHVER_CLI_DIAG_H

#include <stdbool.h>

/*
 * What the layers below record — errors (base/error.h) and notices
 * (base/notice.h) — said on stderr, and a failure's exit code.
 */

/*
 * The process's exit code for ret: ret itself when it is one (>= 0).
 * For a PV_E* code, says the recorded message ("patchver: <message>")
 * unless it was said already, and returns the code's documented exit
 * code (base/error.h's EXIT_*).
 */
int diag_exit(int ret);

/* The exit code of a PV_E* code, saying nothing. */
int diag_exit_code(int code);

/*
 * Say notices on stderr from now on: "patchver: warning: ..." and the
 * like; counts of steps only when stderr is a terminal.
 */
void diag_install(void);

/* Draw counts of steps (on a terminal) or not: a JSON run keeps stderr for errors. */
void diag_show_counts(bool show);

#endif
