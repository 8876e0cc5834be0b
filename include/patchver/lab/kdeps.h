#ifndef PATCHVER_LAB_KDEPS_H
#define PATCHVER_LAB_KDEPS_H

#include <stdbool.h>

#include "patchver/lab/kobj.h"

/*
 * Kconfig, as far as "can this option be turned on here" goes: an
 * entry's "depends on" (its own, its menus', its "if" blocks'), its
 * prompt and default, across the files the top Kconfig (the arch's
 * before 2.6.26) sources; help text skipped.  Expressions are evaluated
 * against a configuration's text: &&, ||, !, (), =, !=.
 */

/* CONFIG_X's value in config's text: 2 (y), 1 (m), 0 (n or unset). */
int kdeps_value(const char *config, const char *option);

/*
 * The options option's Kconfig entry depends on (its own "depends on",
 * its menus' and "if" blocks') that config does not meet, NULL-terminated
 * (caller frees); NULL when all are met, or *found false when no Kconfig
 * file of the tree defines option.
 */
char **kdeps_unmet(kobj_read_fn read, void *ctx, const char *option, const char *config,
		   bool *found);

/*
 * Does option take y without being asked for: no prompt, "def_bool y" or
 * "default y" (what allnoconfig leaves on, whatever a fragment says)?
 * Its dependencies are not read.
 */
bool kdeps_default_on(kobj_read_fn read, void *ctx, const char *option);

#endif
