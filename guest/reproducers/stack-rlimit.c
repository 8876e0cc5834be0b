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
 * test: `ulimit -s 15; ls`), five times.  Exit 1: the kernel killed one
 * (SIGKILL: the bug); 0: they ran, or exec refused them without a kill
 * (said); 125: none could tell (the program itself faulting for want of
 * stack, which the stack's random offset makes happen now and then, is no
 * answer).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * One exec under the small limit: 1 the new process was killed by the
 * kernel (SIGKILL), 0 it ran or exec refused it, -1 anything else (the
 * program itself dying for want of stack is not the kernel's kill).
 */
static int try_exec(char **argv)
{
	struct rlimit small = { 15 * 1024, 15 * 1024 };
	char *child_argv[] = { argv[0], "child", NULL };
	int status;
	pid_t pid;

	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		char *no_env[] = { NULL };
		int first;

		/* the system call itself: today's glibc calls prlimit64 (2.6.36) and gives up */
		if (syscall(SYS_setrlimit, RLIMIT_STACK, &small) < 0) {
			printf("cannot test: setrlimit(RLIMIT_STACK): %s\n", strerror(errno));
			fflush(stdout);
			_exit(125);
		}
		/* no environment: the arguments' share of the limit stays small */
		execve("/proc/self/exe", child_argv, no_env);
		first = errno;
		execve(argv[0], child_argv, no_env);
		printf("exec refused: /proc/self/exe: %s; %s: %s\n", strerror(first), argv[0],
		       strerror(errno));
		fflush(stdout);
		_exit(3);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status)) {
		printf("exec under a 15 KiB stack limit: killed by signal %d\n", WTERMSIG(status));
		return WTERMSIG(status) == SIGKILL ? 1 : -1;
	}
	printf("exec under a 15 KiB stack limit: exit %d\n", WEXITSTATUS(status));
	return WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int killed = 0, ran = 0;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return 0;       /* started under the small limit: that is all */
	/* five tries: the stack's random offset may make the program itself fault */
	for (int i = 0; i < 5; i++) {
		int r = try_exec(argv);
		killed += r == 1;
		ran += r == 0;
	}
	if (killed) {
		printf("BUG: %d of 5 processes started under a 15 KiB stack limit were killed by "
		       "the kernel\n", killed);
		return 1;
	}
	return ran ? 0 : 125;
}
