/*
 * One-line error reporting.
 */
#include <stdarg.h>
#include <stdio.h>
#include <git2.h>

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

const char *git_errmsg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown error";
}
