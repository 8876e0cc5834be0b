/*
 * The guest's /init: prepares a small system, runs the reproducer between
 * two markers, reports how it ended, and reboots (QEMU runs with
 * -no-reboot, so that ends the boot).  Built static on the host; runs
 * only inside the guest.
 *
 *   PATCHVER-BEGIN kernel=<release>
 *   PATCHVER-REPRO-START
 *   ... what the reproducer prints, and what the kernel prints meanwhile ...
 *   PATCHVER-REPRO-END exit=<N> | signal=<SIG> | timeout=<seconds>
 *
 * /.patchver/conf holds "timeout=<seconds>", "script=0|1" and
 * "program=0|1"; the reproducer is /.patchver/repro (a static ELF, or a
 * script that busybox's sh runs), absent for a boot test (program=0: the
 * init waits a second between the markers and reports exit=0); files for
 * /tmp wait in /.patchver/tmp until /tmp is mounted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STAGED "/.patchver/tmp"

static void say(const char *what, const char *detail)
{
	printf("PATCHVER-NOTE %s: %s\n", what, detail);
}

static bool mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) < 0 && errno != EBUSY) {
		say(type, strerror(errno));
		return false;
	}
	return true;
}

/*
 * Kernels before 2.6.32 have no devtmpfs: the few nodes a reproducer
 * expects, made by hand (the initramfs brings /dev/console).
 */
static void make_dev_nodes(void)
{
	static const struct { const char *path; int major, minor; } nodes[] = {
		{ "/dev/null", 1, 3 }, { "/dev/zero", 1, 5 }, { "/dev/full", 1, 7 },
		{ "/dev/random", 1, 8 }, { "/dev/urandom", 1, 9 }, { "/dev/tty", 5, 0 },
		{ "/dev/ttyS0", 4, 64 },
	};

	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		mknod(nodes[i].path, S_IFCHR | 0666, makedev(nodes[i].major, nodes[i].minor));
}

/* "SEGV" for SIGSEGV: glibc has sigabbrev_np, musl (the old kernels' guest) does not. */
static const char *signal_name(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" }, { SIGILL, "ILL" },
		{ SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" }, { SIGBUS, "BUS" }, { SIGFPE, "FPE" },
		{ SIGKILL, "KILL" }, { SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
		{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" }, { SIGCHLD, "CHLD" },
		{ SIGSYS, "SYS" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
	};
	static char other[16];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(other, sizeof(other), "%d", sig);
	return other;
}

static int conf_int(const char *key, int dflt)
{
	FILE *f = fopen("/.patchver/conf", "r");
	char line[128];
	size_t len = strlen(key);
	int v = dflt;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == '=')
			v = atoi(line + len + 1);
	if (f)
		fclose(f);
	return v;
}

static int copy_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char dest[4096];
	char buf[65536];
	ssize_t n;
	int in, out;

	(void)ftw;
	snprintf(dest, sizeof(dest), "/tmp%s", path + strlen(STAGED));
	if (type == FTW_D)
		return mkdir(dest, 0755) < 0 && errno != EEXIST ? -1 : 0;
	if (type != FTW_F)
		return 0;
	in = open(path, O_RDONLY);
	out = open(dest, O_WRONLY | O_CREAT | O_TRUNC, st->st_mode & 07777);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return 0;
}

static void run_busybox_install(void)
{
	pid_t pid;

	if (access("/bin/busybox", X_OK) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		execl("/bin/busybox", "busybox", "--install", "-s", "/bin", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Wait for pid until deadline, polling: tinyconfig kernels have no
 * POSIX_TIMERS, so alarm() cannot end a wait there; nanosleep always works.
 */
static bool wait_until(pid_t pid, int *status, double deadline)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };

	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);
		if (got == pid)
			return true;
		if (got < 0 && errno != EINTR)
			return false;
		if (seconds() >= deadline)
			return false;
		nanosleep(&tick, NULL);
	}
}

/* Run the reproducer in its own process group; its status, or -1 on timeout. */
static int run_repro(int timeout, int script, int *status)
{
	pid_t pid = fork();
	bool ended;

	if (pid < 0)
		return -2;
	if (pid == 0) {
		setsid();
		if (chdir("/tmp") < 0)
			_exit(125);
		if (script)
			execl("/bin/sh", "sh", "/.patchver/repro", (char *)NULL);
		else
			execl("/.patchver/repro", "repro", (char *)NULL);
		printf("PATCHVER-NOTE exec: %s\n", strerror(errno));
		_exit(125);
	}
	ended = wait_until(pid, status, seconds() + timeout);
	kill(-pid, SIGKILL);               /* what it left behind, or itself */
	if (ended)
		return 0;
	/* a process stuck in the kernel may not die: do not wait for ever */
	wait_until(pid, status, seconds() + 5);
	return -1;
}

int main(void)
{
	struct utsname u;
	int timeout, script, program, status = 0, r = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	if (!mount_fs("devtmpfs", "/dev"))
		make_dev_nodes();
	mount_fs("tmpfs", "/tmp");
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/tmp", 1);
	run_busybox_install();
	nftw(STAGED, copy_one, 16, FTW_PHYS);
	timeout = conf_int("timeout", 60);
	script = conf_int("script", 0);
	program = conf_int("program", 1);
	uname(&u);
	printf("PATCHVER-BEGIN kernel=%s\n", u.release);
	printf("PATCHVER-REPRO-START\n");
	if (program)
		r = run_repro(timeout, script, &status);
	else
		sleep(1);       /* a boot test: what the kernel prints right after boot counts */
	fflush(stdout);
	if (r == -1)
		printf("\nPATCHVER-REPRO-END timeout=%d\n", timeout);
	else if (r < 0)
		printf("\nPATCHVER-REPRO-END exit=125\n");
	else if (WIFSIGNALED(status))
		printf("\nPATCHVER-REPRO-END signal=%s\n", signal_name(WTERMSIG(status)));
	else
		printf("\nPATCHVER-REPRO-END exit=%d\n", WEXITSTATUS(status));
	sync();
	reboot(RB_AUTOBOOT);   /* with -no-reboot, QEMU exits */
	return 0;
}
