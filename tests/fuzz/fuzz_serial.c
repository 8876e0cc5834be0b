/* libFuzzer target: the guest's serial log (serial.c) and its crash titles (crash.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/lab/serial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serial_report r;

	serial_parse((const char *)data, size, &r);
	if (r.pass + r.fail != (int)r.nchecks || strlen(r.crash) >= sizeof(r.crash) ||
	    r.noutput > SERIAL_MAX_LINES)
		abort();
	serial_free(&r);
	return 0;
}
