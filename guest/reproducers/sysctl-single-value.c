/*
 * Reproducer: writing a single value to a multi-valued sysctl.
 *
 * 00b7c3395aec ("sysctl: refactor integer handling proc code", 2.6.35
 * merge window) made write("1\n") to /proc/sys/kernel/printk (four
 * integers) fail with EINVAL; 563b0467101 ("proc_dointvec: write a single
 * value") fixed it.  Needs CONFIG_PROC_SYSCTL (--config CONFIG_PROC_SYSCTL=y
 * on an allnoconfig kernel).
 *
 * Exit: 0 the write works, 1 it fails (the bug), 125 no /proc/sys (cannot
 * test).  The original value is written back, so the console keeps its
 * log level for whatever the kernel prints next.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SYSCTL "/proc/sys/kernel/printk"

static int put(const char *text)
{
	int fd = open(SYSCTL, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(text) ? 0 : 1;
}

int main(void)
{
	char saved[128] = "";
	int fd = open(SYSCTL, O_RDONLY), ret;
	ssize_t n;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (fd < 0) {
		printf("cannot open %s: %s (CONFIG_PROC_SYSCTL?)\n", SYSCTL, strerror(errno));
		return 125;
	}
	n = read(fd, saved, sizeof(saved) - 1);
	close(fd);
	saved[n > 0 ? n : 0] = '\0';
	ret = put("7\n");
	if (ret < 0) {
		printf("cannot open %s for writing: %s\n", SYSCTL, strerror(errno));
		return 125;
	}
	printf("write(\"7\\n\") to %s: %s\n", SYSCTL, ret ? strerror(errno) : "ok");
	if (*saved)
		put(saved);
	return ret ? 1 : 0;
}
