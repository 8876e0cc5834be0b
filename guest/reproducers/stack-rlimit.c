/*
 * A process started under a small stack limit must run (803bf5ec2599,
 * v2.6.33-rc8): exec reserves 20 pages of stack beyond the arguments
 * whatever RLIMIT_STACK says (b6a2fea39318, v2.6.23-rc1), and since
 * fc63cf237078 (v2.6.32-rc7) made setup_arg_pages() return its errors,
 * that reservation failing kills every process started with
 * `ulimit -s 15`.  Before fc63cf237078 the error was ignored: nothing
 * a user could see.
 *
 * The program execs itself under a 15 KiB stack limit (the fix's own
 * test: `ulimit -s 15; ls`).  Exit 0: the child ran; 1: it was killed
 * (the bug); 125: cannot test.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rlimit small = { 15 * 1024, 15 * 1024 };
	char *child_argv[] = { argv[0], "child", NULL };
	int status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return 0;       /* started under the small limit: that is all */
	if ((pid = fork()) < 0)
		return 125;
	if (pid == 0) {
		if (setrlimit(RLIMIT_STACK, &small) < 0)
			_exit(125);
		execv("/proc/self/exe", child_argv);
		execv(argv[0], child_argv);
		_exit(errno == ENOMEM || errno == E2BIG ? 3 : 125);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 125;
	if (WIFSIGNALED(status)) {
		printf("BUG: exec under a 15 KiB stack limit: the new process was killed by "
		       "signal %d\n", WTERMSIG(status));
		return 1;
	}
	printf("exec under a 15 KiB stack limit: exit %d%s\n", WEXITSTATUS(status),
	       WEXITSTATUS(status) == 3 ? " (exec refused: the process was not started)" : "");
	return WEXITSTATUS(status) == 125 ? 125 : 0;
}
