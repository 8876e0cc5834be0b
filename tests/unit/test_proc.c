/*
 * Unit tests: child processes.  Every waitpid() outcome is answered: an
 * exit code, a kill on timeout, and a status that can never be known (the
 * child reaped elsewhere) reported as an error, never read uninitialised.
 * The children are true, false and sleep: nothing else runs here.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include "check.h"
#include "patchver/base/proc.h"

int main(void)
{
	char *ok[] = { "true", NULL }, *no[] = { "false", NULL };
	char *slow[] = { "sleep", "5", NULL }, *missing[] = { "patchver-no-such-program", NULL };
	struct proc_result r;

	CHECK(proc_run(ok, NULL, NULL, 0, &r) == 0 && r.exit_code == 0 && !r.timed_out);
	CHECK(proc_run(no, NULL, NULL, 0, &r) == 0 && r.exit_code == 1);
	/* exec fails in the child: 127, as a shell says */
	CHECK(proc_run(missing, NULL, NULL, 0, &r) == 0 && r.exit_code == 127);
	CHECK(proc_run(slow, NULL, NULL, 1, &r) == 0 && r.timed_out && r.exit_code == -1);
	CHECK(r.seconds >= 1.0 && r.seconds < 4.5);

	/* SIGCHLD ignored: the kernel reaps the child, waitpid fails with ECHILD */
	signal(SIGCHLD, SIG_IGN);
	errno = 0;
	CHECK(proc_run(ok, NULL, NULL, 0, &r) == -1);
	CHECK(errno == ECHILD);
	CHECK(r.exit_code == -1 && !r.timed_out);
	signal(SIGCHLD, SIG_DFL);
	CHECK(proc_run(ok, NULL, NULL, 0, &r) == 0 && r.exit_code == 0);
	return check_done();
}
