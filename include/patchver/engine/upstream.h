#ifndef PATCHVER_ENGINE_UPSTREAM_H
#define PATCHVER_ENGINE_UPSTREAM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How stable backports name the upstream commit they carry:
 *   "commit <sha> upstream."                  (Greg KH's stable queue)
 *   "[ Upstream commit <sha> ]"               (Sasha Levin's AUTOSEL, netdev)
 *   "(cherry picked from commit <sha>)"       (git cherry-pick -x)
 *   "This patch is modified from commit <sha>" (a reworked backport)
 * The id may be wrapped onto the next line ("... from commit\n<sha> with").
 */

/*
 * Find the first upstream reference in a commit message; writes the hex
 * (7 to 40 digits, lower case) to hex.  False if there is none.
 */
bool upstream_ref(const char *message, char hex[41]);

/*
 * Every upstream reference of a message, in order, repeats dropped: at
 * most max of them into out; returns how many there are.
 */
size_t upstream_refs(const char *message, char (*out)[41], size_t max);

/*
 * What a revert names: "This reverts commit <sha>." (the hex into hex), or
 * else the quoted subject of a 'Revert "<subject>"' subject line (stable's
 * reverts often name no id; a copy into *subject, caller frees).  False
 * when the message is not a revert.
 */
bool upstream_revert(const char *message, char hex[41], char **subject);

#endif
