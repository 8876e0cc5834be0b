#ifndef PATCHVER_CLI_QUERY_HISTORY_H
#define PATCHVER_CLI_QUERY_HISTORY_H

#include <stdbool.h>
#include <stdio.h>

#include "patchver/engine/history.h"
#include "patchver/cli/query_report.h"

/*
 * Answering "where is this commit?" for revs given on the command line or
 * on standard input, from the history (what the release index alone
 * cannot answer), in the output a mode asks for (query_report.h).
 */

/* Returns 0 or the first EXIT_* code met; every rev is still answered. */
int report_revs(struct history *h, const struct report_opts *opts,
		const char **revs, size_t nrevs);

/*
 * Revs one per line from in (blank lines and '#' comments skipped),
 * each answered as soon as it is read.  In REPORT_NAME_REV mode the input
 * is text annotated as by git name-rev --annotate-stdin instead.
 */
int report_stdin(struct history *h, const struct report_opts *opts, FILE *in);

#endif
