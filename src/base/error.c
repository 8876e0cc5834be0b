/*
 * One-line errors: recorded below cli/, said by cli/.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "patchver/base/error.h"

int error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("patchver: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static _Thread_local struct pv_error last_error;

int pv_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	last_error.code = code;
	last_error.serial++;
	va_start(ap, fmt);
	vsnprintf(last_error.message, sizeof(last_error.message), fmt, ap);
	va_end(ap);
	return code;
}

const struct pv_error *pv_error_last(void)
{
	return &last_error;
}

void pv_bug(const char *fmt, ...)
{
	va_list ap;

	fputs("patchver: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void pv_error_clear(void)
{
	last_error.code = PV_OK;
	last_error.message[0] = '\0';
}
