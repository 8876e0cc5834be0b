#ifndef PATCHVER_BASE_PROC_H
#define PATCHVER_BASE_PROC_H

#include <stdbool.h>

/*
 * Running make, cc and QEMU: each child in its own process group, its
 * output appended to a log, killed (the whole group) on timeout or when
 * patchver gets SIGINT/SIGTERM, so that nothing outlives patchver.
 */
struct proc_result {
	int exit_code;          /* -1 if killed */
	bool timed_out;
	bool interrupted;       /* patchver itself was asked to stop */
	bool stopped;           /* proc_run_watched: the watcher ended it */
	double seconds;
};

/* Catch SIGINT/SIGTERM: they stop the running child, then the caller. */
void proc_install_signals(void);

/* Was patchver asked to stop? */
bool proc_interrupted(void);

/*
 * Run argv (PATH searched) in cwd (NULL: here), output appended to log
 * (NULL: discarded), timeout in seconds (0: none).  Returns 0 when it ran
 * and its end was seen; -1 (errno set) when it could not be started, or
 * when waiting for it failed (its exit status is then unknown, r->exit_code
 * stays -1, and the process group has been killed).
 */
int proc_run(char *const argv[], const char *cwd, const char *log, int timeout,
	     struct proc_result *r);

/*
 * proc_run, and every half second done(ctx) is asked whether the child
 * has finished its job though it has not exited (a guest whose kernel
 * panicked and hangs): if so, it is killed, and r->stopped set.
 */
int proc_run_watched(char *const argv[], const char *cwd, const char *log, int timeout,
		     bool (*done)(void *ctx), void *ctx, struct proc_result *r);

/*
 * proc_run without a timeout, its failures as PV_E* codes with the
 * message set (error.h): code when argv cannot start, PV_EINTERRUPTED
 * when patchver was asked to stop ("interrupted while <what>"); else 0,
 * *r saying how it ended.
 */
int proc_run_to_end(char *const argv[], const char *cwd, const char *log, int code,
		    const char *what, struct proc_result *r);

/* ... and code ("<what> failed (exit N); see <log>") when it exits non-zero. */
int proc_run_ok(char *const argv[], const char *cwd, const char *log, int code,
		const char *what);

/* First line a command prints on stdout ("gcc (Debian 12.2.0-14) 12.2.0"). */
char *proc_first_line(char *const argv[]);

#endif
