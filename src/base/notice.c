/*
 * Notices of long work, handed to the handler cli/ installs (notice.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "patchver/base/notice.h"

static pv_notice_fn *handler;
static void *handler_data;

pv_notice_fn *pv_notice_handler(pv_notice_fn *fn, void *data)
{
	pv_notice_fn *old = handler;

	handler = fn;
	handler_data = data;
	return old;
}

void pv_notice(enum pv_notice_kind kind, const char *fmt, ...)
{
	char message[1024];
	va_list ap;

	if (!handler)
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	handler(kind, message, handler_data);
}
