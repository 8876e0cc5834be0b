/* open-nofollow PATH: open(PATH, O_RDONLY | O_NOFOLLOW); exit 0, or 1 with the error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int fd = argc > 1 ? open(argv[1], O_RDONLY | O_NOFOLLOW) : -1;

	if (fd < 0) {
		printf("open-nofollow %s: %s\n", argc > 1 ? argv[1] : "", strerror(errno));
		return 1;
	}
	return 0;
}
