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

void pv_vnotice(enum pv_notice_kind kind, const char *fmt, va_list ap)
{
	struct pv_notice n = { kind, NULL, NULL, NULL, 0, 0 };
	char message[1024];

	if (!handler)
		return;
	vsnprintf(message, sizeof(message), fmt, ap);
	n.message = message;
	handler(&n, handler_data);
}

void pv_notice(enum pv_notice_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pv_vnotice(kind, fmt, ap);
	va_end(ap);
}

void pv_progress(const char *what, const char *unit, size_t done, size_t total)
{
	struct pv_notice n = { PV_NOTICE_COUNT, NULL, what, unit, done, total };

	if (handler)
		handler(&n, handler_data);
}
