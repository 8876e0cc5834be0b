/* libFuzzer target: mails, mboxes and diffs (patch.c, patchid.c), and git apply in memory. */
#include <stdint.h>
#include <stdlib.h>

#include "patchver/stable/patch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch_set set = { 0 };

	patch_parse(&set, (const char *)data, size);
	patch_set_free(&set);
	return 0;
}
