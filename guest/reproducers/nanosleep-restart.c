/*
 * nanosleep's remaining time after a restart (080344b98805, v2.6.25-rc1):
 * a sleep stopped and continued is restarted by the kernel
 * (restart_syscall); when the restarted sleep is then interrupted by a
 * handled signal, the remaining time must reach the caller's timespec.
 * 04c227140fed (v2.6.24-rc1) kept a pointer to a kernel stack variable
 * for the restart instead: the update goes to a dead stack frame, and the
 * caller keeps the remaining time of the first interruption.
 *
 * Exit 0: the remaining time was updated; 1: it was not (the bug); 125:
 * the sleep was not interrupted as planned (cannot test).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void on_usr1(int sig)
{
	(void)sig;
}

/* The child: sleep 20 s, report what nanosleep returned and left in rem. */
static void sleeper(int out)
{
	struct sigaction sa;
	struct timespec req = { 20, 0 }, rem = { -1, -1 };
	long v[3];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;        /* no SA_RESTART: the handled signal ends the sleep */
	sigaction(SIGUSR1, &sa, NULL);
	v[0] = nanosleep(&req, &rem);
	v[1] = errno;
	v[2] = (long)rem.tv_sec;
	if (write(out, v, sizeof(v)) != (ssize_t)sizeof(v))
		_exit(2);
	_exit(0);
}

int main(void)
{
	int pipefd[2];
	long v[3] = { 0, 0, 0 };
	pid_t child;

	if (pipe(pipefd) < 0 || (child = fork()) < 0)
		return 125;
	if (child == 0)
		sleeper(pipefd[1]);
	/* stop and continue it (the kernel restarts the sleep), then interrupt it */
	sleep(1);
	kill(child, SIGSTOP);
	sleep(1);
	kill(child, SIGCONT);
	sleep(3);
	kill(child, SIGUSR1);
	if (read(pipefd[0], v, sizeof(v)) != (ssize_t)sizeof(v))
		return 125;
	waitpid(child, NULL, 0);
	printf("nanosleep(20 s) = %ld (%s), remaining %ld s after about 5 s\n", v[0],
	       v[0] ? strerror((int)v[1]) : "no error", v[2]);
	if (v[0] != -1 || v[1] != EINTR) {
		printf("cannot test: the sleep was not interrupted\n");
		return 125;
	}
	if (v[2] >= 18) {
		printf("BUG: the remaining time is the first interruption's, not updated after the "
		       "restart\n");
		return 1;
	}
	return 0;
}
