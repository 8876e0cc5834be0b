/*
 * One-line errors: recorded below cli/, said by cli/.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "patchver/base/error.h"

/* "patchver: <prefix><message>" on stderr, one line. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "patchver: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	return code;
}

void pv_bug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("internal error: ", fmt, ap);
	va_end(ap);
	abort();
}

static _Thread_local struct pv_error last_error;

static int record(int code, int about, const char *fmt, va_list ap)
{
	last_error.code = code;
	last_error.about = about;
	vsnprintf(last_error.message, sizeof(last_error.message), fmt, ap);
	return code;
}

int pv_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int pv_error_set_about(int code, int about, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(code, about, fmt, ap);
	va_end(ap);
	return code;
}

int pv_error_wrap(int code, const char *fmt, ...)
{
	char message[PV_ERROR_MAX], prefix[PV_ERROR_MAX];
	va_list ap;

	/* vsnprintf may not read the buffer it writes */
	snprintf(message, sizeof(message), "%s", last_error.message);
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	return pv_error_set(code, "%s%s", prefix, message);
}

const struct pv_error *pv_error_last(void)
{
	return &last_error;
}
