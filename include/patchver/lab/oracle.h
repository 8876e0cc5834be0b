#ifndef PATCHVER_LAB_ORACLE_H
#define PATCHVER_LAB_ORACLE_H

#include <regex.h>
#include <stdbool.h>

#include "patchver/lab/serial.h"

/*
 * How a bug shows in a boot (--bug), and what one boot says of it:
 *
 *   exit         the reproducer's status, as `git bisect run` reads one:
 *                0 clean, 125 cannot test, 1-127 or a signal the bug;
 *                killed at --repro-timeout: the bug ("timeout")
 *   oops         a kernel crash report printed after the start marker
 *   regex:RE     a console line after the start marker matches RE (ERE)
 *   hang         the reproducer never reports back
 *   CHECK:ERRNO  a multi-check reproducer's PATCHVER-CHECK line fails
 *                with ERRNO (the seed's nofollow checks)
 *   boot         a boot test (the default without a reproducer): the
 *                kernel does not reach the start marker, or prints a
 *                crash report before or after it
 *
 * Under every kind but boot, status 125 and a boot that never ran the
 * reproducer (no kernel, a panic before the start marker) cannot tell.
 */
enum bug_kind { BUG_EXIT, BUG_OOPS, BUG_REGEX, BUG_HANG, BUG_CHECK, BUG_BOOT };

struct bug_spec {
	enum bug_kind kind;
	char text[128];             /* as given, for reports */
	char check[64], err[24];    /* BUG_CHECK */
	regex_t re;                 /* BUG_REGEX */
	bool have_re;
};

enum boot_answer { ANSWER_CLEAN, ANSWER_BUG, ANSWER_SKIP };

/* Parse --bug.  0, or PV_EINVALID with a message naming the text. */
int oracle_parse(struct bug_spec *b, const char *text);
void oracle_free(struct bug_spec *b);

/*
 * One boot's answer; *why (caller frees) says what decided it: the
 * status, the crash title, the matching line.  timed_out: QEMU was killed
 * at --boot-timeout.
 */
enum boot_answer oracle_judge(const struct bug_spec *b, const struct serial_report *s,
			      bool timed_out, char **why);

/* "exit 1", "signal SIGSEGV", "timeout (60 s)", "still running": the END marker. */
char *oracle_status(const struct serial_report *s);

#endif
