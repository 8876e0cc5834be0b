#ifndef PATCHVER_ORIGIN_H
#define PATCHVER_ORIGIN_H

#include "patchver/engine/history.h"
#include "patchver/stable/triage.h"

/*
 * Where the code a fix changes came from: its hunks grouped by origin,
 * each group with its introducers and how sure they are (see triage.h).
 * Needs t->ev (message and blame evidence, first releases set) and
 * t->blame; fills t->groups, the headline first.
 */
void origin_group(struct triage *t, const struct history *h, enum evidence_mode mode);

#endif
