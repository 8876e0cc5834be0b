#ifndef PATCHVER_NOTICE_H
#define PATCHVER_NOTICE_H

/*
 * What a long piece of work has to say on the way — a warning, a note, a
 * progress line — goes to the handler cli/ installs; with none installed
 * it is dropped, so a caller that wants silence installs nothing.  The
 * layers below cli/ never write to stdout or stderr themselves.
 */
enum pv_notice_kind {
	PV_NOTICE_WARNING,   /* something is wrong, the answer stands */
	PV_NOTICE_NOTE,      /* what the program does and why (rebuilding an index) */
	PV_NOTICE_PROGRESS,  /* a step of long work, worded in full by its caller */
};

typedef void pv_notice_fn(enum pv_notice_kind kind, const char *message, void *data);

/* Install fn (NULL: drop notices); returns the handler it replaces. */
pv_notice_fn *pv_notice_handler(pv_notice_fn *fn, void *data);

void pv_notice(enum pv_notice_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
