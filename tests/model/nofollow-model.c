/*
 * The seed bug as a one-check reproducer: mkdir d; ln -s d a;
 * open("a/", O_NOFOLLOW) must succeed (the trailing slash asks to follow).
 * Exit 1 with ELOOP (the bug), 0 when it opens, 125 when it cannot set up.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	int fd;

	if (mkdir("d", 0755) < 0 || symlink("d", "a") < 0)
		return 125;
	fd = open("a/", O_RDONLY | O_NOFOLLOW);
	printf("open(\"a/\", O_NOFOLLOW): %s\n", fd < 0 ? strerror(errno) : "ok");
	return fd < 0 && errno == ELOOP ? 1 : 0;
}
