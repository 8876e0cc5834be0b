#ifndef PATCHVER_LAB_KCONFIG_H
#define PATCHVER_LAB_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Kernel config fragments: the era's base fragment (guest/kernel.config,
 * guest/compat/<era>/kernel.config) and what --config asks for on top:
 * a profile of guest/configs/ (or guest/compat/<era>/configs/) by name,
 * a fragment file, or one option CONFIG_X=V.  Merged into one fragment
 * per era; after the configure step, each requested option is checked
 * against the .config, and the ones that did not stick (unknown in that
 * era, a dependency not met) are named.
 */
struct kconfig_request {
	char **args;                /* as given */
	size_t nargs;
	char variant[17];           /* hash of the requests: the object directory's suffix, "" if none */
};

/* Check every --config argument.  0, or PV_EINVALID naming the bad one. */
int kconfig_request_init(struct kconfig_request *r, char *const *args, const char *guest);
void kconfig_request_free(struct kconfig_request *r);

/*
 * The merged fragment for era (base, then the requests), written into
 * dir; its path (caller frees), or NULL if it cannot be written.
 */
char *kconfig_merge(const struct kconfig_request *r, const char *guest, const char *era,
		    const char *base, const char *dir);

/*
 * The requested options (lines CONFIG_X=V, "# CONFIG_X is not set") of
 * the merged fragment after its base that dotconfig does not have; a
 * NULL-terminated list (caller frees with strv_free), or NULL when all stuck.
 */
char **kconfig_unstuck(const char *merged, const char *dotconfig);

/* Does dotconfig set option (e.g. "CONFIG_SMP") to y? */
bool kconfig_enabled(const char *dotconfig, const char *option);

#endif
