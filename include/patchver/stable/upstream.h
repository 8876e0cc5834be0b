#ifndef PATCHVER_UPSTREAM_H
#define PATCHVER_UPSTREAM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How stable backports name the upstream commit they carry:
 *   "commit <sha> upstream."            (Greg KH's stable queue)
 *   "[ Upstream commit <sha> ]"         (Sasha Levin's AUTOSEL, netdev)
 *   "(cherry picked from commit <sha>)" (git cherry-pick -x)
 */

/*
 * Find the first upstream reference in a commit message; writes the hex
 * (7 to 40 digits, lower case) to hex.  False if there is none.
 */
bool upstream_ref(const char *message, char hex[41]);

#endif
