#ifndef PATCHVER_ENGINE_OID_H
#define PATCHVER_ENGINE_OID_H

#include <stddef.h>
#include <stdint.h>

/*
 * Object ids as raw 20 bytes, for the modules that must not need libgit2
 * (the front): hex both ways, and git's sorted id tables (a pack's .idx,
 * the commit-graph's OID lookup).
 */

/* A 20-byte id from exactly 40 hex digits (either case): 0, or -1. */
int oid_from_hex(const char *hex, size_t len, unsigned char *id);

/*
 * A 20-byte object id in hex, cut to size - 1 digits as git_oid_tostr
 * cuts it; returns out.  For modules that must not need libgit2.
 */
char *oid_to_hex(char *out, size_t size, const unsigned char *id);

/*
 * git's sorted tables of 20-byte ids (a pack index, a commit-graph): a
 * 256-entry fanout of big-endian counts, then nr ids in order.  The
 * position of id, or PV_NONE.  Ids are uniform, so a guess from the
 * id's next bytes lands within a few dozen entries: a gallop from there
 * touches a page or two of the table where a bisection touches six.
 */
#define OID_TABLE_LEN 20
uint32_t oid_table_find(const unsigned char *fanout, const unsigned char *ids, uint32_t nr,
			const unsigned char *id);

#endif
