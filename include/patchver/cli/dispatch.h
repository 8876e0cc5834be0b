#ifndef PATCHVER_CLI_DISPATCH_H
#define PATCHVER_CLI_DISPATCH_H

#include "patchver/cli/options.h"

/*
 * Run what the options ask for (checked by options_check, or --cache-clean,
 * --prepare-tree) on the history, through libgit2; returns the exit code.
 *
 * This is the whole program but the quick path's answers, and it is built
 * into patchver-full.so: the front (main.c) loads it only for a run the
 * release index alone cannot answer, so that those answers do not pay the
 * 5 ms of loading libgit2, libcrypto and what they pull in.
 */
#define DISPATCH_SYMBOL "patchver_dispatch"
typedef int dispatch_fn(const struct options *o, const struct command_line *cl);

__attribute__((visibility("default")))
int patchver_dispatch(const struct options *o, const struct command_line *cl);

#endif
