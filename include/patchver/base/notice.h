#ifndef PATCHVER_BASE_NOTICE_H
#define PATCHVER_BASE_NOTICE_H

#include <stdarg.h>
#include <stddef.h>

/*
 * What a long piece of work has to say on the way — a warning, a note, a
 * progress line, a count of steps done — goes to the handler cli/
 * installs; with none installed it is dropped, so a caller that wants
 * silence installs nothing.  The layers below cli/ never write to stdout
 * or stderr themselves.
 */
enum pv_notice_kind {
	PV_NOTICE_WARNING,   /* something is wrong, the answer stands */
	PV_NOTICE_NOTE,      /* what the program does and why (rebuilding an index) */
	PV_NOTICE_PROGRESS,  /* a step of long work, a line worded in full by its caller */
	PV_NOTICE_COUNT,     /* done of total steps of what: drawn in place, or not at all */
};

struct pv_notice {
	enum pv_notice_kind kind;
	const char *message;   /* WARNING, NOTE, PROGRESS: one line, no newline */
	const char *what;      /* COUNT: the work ("audit") */
	const char *unit;      /* COUNT: what its steps are ("commits") */
	size_t done, total;    /* COUNT */
};

typedef void pv_notice_fn(const struct pv_notice *notice, void *data);

/* Install fn (NULL: drop notices); returns the handler it replaces. */
pv_notice_fn *pv_notice_handler(pv_notice_fn *fn, void *data);

void pv_notice(enum pv_notice_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pv_vnotice(enum pv_notice_kind kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* done of total steps (unit) of the work what: a PV_NOTICE_COUNT. */
void pv_progress(const char *what, const char *unit, size_t done, size_t total);

#endif
