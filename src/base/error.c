/*
 * One-line error reporting.
 */
#include <stdarg.h>
#include <stdio.h>

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
