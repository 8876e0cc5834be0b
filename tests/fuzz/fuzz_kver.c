/* libFuzzer target: kernel version parsing and order (kver.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/kver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = malloc(size + 1), *b;
	struct kver va, vb;

	memcpy(a, data, size);
	a[size] = '\0';
	/* two versions separated by a newline: their order must be antisymmetric */
	b = strchr(a, '\n');
	if (b)
		*b++ = '\0';
	if (kver_parse(a, &va) && b && kver_parse(b, &vb)) {
		int ab = kver_cmp(&va, &vb), ba = kver_cmp(&vb, &va);
		if ((ab < 0) != (ba > 0) || (ab == 0) != (ba == 0))
			abort();
	}
	free(a);
	return 0;
}
