/*
 * Child processes with timeouts and clean teardown.
 *
 * The one piece of global state outside the CLI's options lives here: a
 * signal handler can reach nothing else, and it must know which process
 * group to kill.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"

static volatile sig_atomic_t child_pgid;
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
	if (child_pgid > 0)
		kill(-child_pgid, SIGKILL);
}

void proc_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool proc_interrupted(void)
{
	return stop_requested != 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void child(char *const argv[], const char *cwd, const char *log)
{
	int in = open("/dev/null", O_RDONLY);
	int out = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644)
		      : open("/dev/null", O_WRONLY);

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (in < 0 || out < 0 || (cwd && chdir(cwd) < 0))
		_exit(127);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	execvp(argv[0], argv);
	dprintf(2, "patchver: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int proc_run(char *const argv[], const char *cwd, const char *log, int timeout,
	     struct proc_result *r)
{
	return proc_run_watched(argv, cwd, log, timeout, NULL, NULL, r);
}

int proc_run_watched(char *const argv[], const char *cwd, const char *log, int timeout,
		     bool (*done)(void *ctx), void *ctx, struct proc_result *r)
{
	unsigned ticks = 0;
	double start = now();
	int status = 0, wait_errno = 0;
	bool reaped = false;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->exit_code = -1;
	if (stop_requested) {
		r->interrupted = true;
		return 0;
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(argv, cwd, log);
	setpgid(pid, pid);      /* also here: no race with the kill below */
	child_pgid = pid;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid) {
			reaped = true;
			break;
		}
		/*
		 * Any error but EINTR (ECHILD: the child was reaped elsewhere,
		 * SIGCHLD ignored) means its status can never be known.
		 */
		if (w < 0 && errno != EINTR) {
			wait_errno = errno;
			break;
		}
		if (timeout && now() - start > timeout && !r->timed_out) {
			r->timed_out = true;
			kill(-pid, SIGKILL);
		}
		if (done && ++ticks % 25 == 0 && !r->stopped && done(ctx)) {
			r->stopped = true;     /* the watcher has seen enough: not a timeout */
			kill(-pid, SIGKILL);
		}
		usleep(20000);
	}
	/* the group may have stragglers (make's children): end them too */
	kill(-pid, SIGKILL);
	child_pgid = 0;
	r->seconds = now() - start;
	r->interrupted = stop_requested != 0;
	if (!reaped) {
		errno = wait_errno;
		return -1;
	}
	if (WIFEXITED(status) && !r->timed_out)
		r->exit_code = WEXITSTATUS(status);
	return 0;
}

char *proc_first_line(char *const argv[])
{
	char path[] = "/tmp/patchver-probe.XXXXXX", line[512] = "";
	struct proc_result r;
	int fd = mkstemp(path);
	FILE *f;

	if (fd < 0)
		return xstrdup("unknown");
	close(fd);
	if (proc_run(argv, NULL, path, 20, &r) == 0 && (f = fopen(path, "r"))) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	unlink(path);
	line[strcspn(line, "\n")] = '\0';
	return xstrdup(*line ? line : "unknown");
}

int proc_run_to_end(char *const argv[], const char *cwd, const char *log, int code,
		    const char *what, struct proc_result *r)
{
	if (proc_run(argv, cwd, log, 0, r) < 0)
		return pv_error_set(code, "cannot run %s: %s", argv[0], strerror(errno));
	if (r->interrupted)
		return pv_error_set(PV_EINTERRUPTED, "interrupted while %s", what);
	return 0;
}

int proc_run_ok(char *const argv[], const char *cwd, const char *log, int code,
		const char *what)
{
	struct proc_result r;
	int ret = proc_run_to_end(argv, cwd, log, code, what, &r);

	if (!ret && r.exit_code != 0)
		return pv_error_set(code, "%s failed (exit %d); see %s", what, r.exit_code,
			     log ? log : "its output");
	return ret;
}
