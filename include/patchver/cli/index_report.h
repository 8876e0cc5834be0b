#ifndef PATCHVER_CLI_INDEX_REPORT_H
#define PATCHVER_CLI_INDEX_REPORT_H

#include <stdbool.h>

#include "patchver/engine/history.h"

/* patchver --index: where the release index is, what it holds, what this run did. */
int report_index(const struct history *h, bool json);

#endif
