/*
 * The default reproducer (the seed's bug): checks how open() treats
 * trailing slashes and symlinks (the 2.6.34-rc O_NOFOLLOW regression and
 * its neighbours), one parseable line per check:
 *
 *   PATCHVER-CHECK <name> PASS|FAIL errno=<E> expect=<E>
 *
 * errno=0 means the call succeeded.  Exit status: 0 when every check
 * passes, 1 when one fails, 125 when the setup fails (cannot test).  It
 * runs in the guest's /tmp (a tmpfs), as root, started by guest/init.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct check {
	const char *name;
	const char *path;
	int flags;
	int expect;             /* 0: must succeed */
};

static const struct check checks[] = {
	/* the seed: a trailing slash asks to follow, even with O_NOFOLLOW */
	{ "nofollow_slash_symlink_dir", "a/", O_RDONLY | O_NOFOLLOW, 0 },
	{ "nofollow_symlink", "a", O_RDONLY | O_NOFOLLOW, ELOOP },
	{ "directory_slash_symlink_dir", "a/", O_RDONLY | O_DIRECTORY, 0 },
	{ "nofollow_directory_slash_symlink_dir", "a/", O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0 },
	{ "follow_slash_symlink_dir", "a/", O_RDONLY, 0 },
	{ "slash_on_regular_file", "f/", O_RDONLY, ENOTDIR },
	{ "create_with_slash", "n/", O_WRONLY | O_CREAT, EISDIR },
	/* 3e297b613491: the LOOKUP_DIRECTORY hint after following a symlink */
	{ "slash_symlink_to_file", "l/", O_RDONLY, ENOTDIR },
	{ "nofollow_slash_symlink_to_file", "l/", O_RDONLY | O_NOFOLLOW, ENOTDIR },
	{ "directory_on_regular_file", "f", O_RDONLY | O_DIRECTORY, ENOTDIR },
	{ "slash_dangling_symlink", "x/", O_RDONLY, ENOENT },
	{ "plain_dir_slash", "d/", O_RDONLY | O_NOFOLLOW, 0 },
};

static int setup(void)
{
	if (mkdir("d", 0755) < 0 || symlink("d", "a") < 0 ||
	    close(open("f", O_WRONLY | O_CREAT, 0644)) < 0 || symlink("f", "l") < 0 ||
	    symlink("nowhere", "x") < 0) {
		printf("PATCHVER-ERROR setup: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int main(void)
{
	int pass = 0, fail = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (setup() < 0)
		return 125;
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct check *c = &checks[i];
		int fd = open(c->path, c->flags, 0644);
		int err = fd < 0 ? errno : 0;
		int ok = err == c->expect;

		if (fd >= 0)
			close(fd);
		printf("PATCHVER-CHECK %s %s errno=%s expect=%s\n", c->name,
		       ok ? "PASS" : "FAIL", err ? strerrorname_np(err) : "0",
		       c->expect ? strerrorname_np(c->expect) : "0");
		ok ? pass++ : fail++;
	}
	printf("PATCHVER-SUMMARY pass=%d fail=%d\n", pass, fail);
	return fail ? 1 : 0;
}
