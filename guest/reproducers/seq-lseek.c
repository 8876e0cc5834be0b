/*
 * A seq_file read after an lseek() past its end must be the end of file
 * (f01d1d546abb, v2.6.29-rc4): traverse() walked the records to the end
 * but left its caller a stale record index, so the next read() printed a
 * record again.  /proc/mounts is a seq_file on every kernel the lab boots.
 *
 * Exit 0: the read returns 0 (end of file); 1: it returns data (the
 * bug); 125: /proc/mounts cannot be opened or seeked (cannot test).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[4096];
	off_t at;
	ssize_t n;
	int fd = open("/proc/mounts", O_RDONLY);

	if (fd < 0)
		return 125;
	at = lseek(fd, 1 << 20, SEEK_SET);
	if (at < 0) {
		printf("lseek(/proc/mounts, 1 MiB) fails: cannot test\n");
		return 125;
	}
	n = read(fd, buf, sizeof(buf));
	printf("lseek(/proc/mounts, 1 MiB) = %ld, then read() = %ld\n", (long)at, (long)n);
	if (n > 0) {
		printf("BUG: read past the end returned a record: %.*s\n",
		       (int)(n > 80 ? 80 : n), buf);
		return 1;
	}
	return 0;
}
