/* Unit tests: upstream references in backport messages. */
#include "check.h"
#include "patchver/stable/upstream.h"

static const char *ref(const char *msg)
{
	static char hex[41];
	return upstream_ref(msg, hex) ? hex : "";
}

int main(void)
{
	CHECK_STR(ref("vfs: fix\n\ncommit 002baeecf53677d2034113e34197ec221f42e037 upstream.\n\nbody"),
		  "002baeecf53677d2034113e34197ec221f42e037");
	CHECK_STR(ref("x\n\n[ Upstream commit 002BAEECF536 ]\n"), "002baeecf536");
	CHECK_STR(ref("x\n\n[ upstream commit 002baeecf536 ]\n"), "002baeecf536");
	CHECK_STR(ref("x\n\nbody\n(cherry picked from commit 3e297b613491f0d4928aa652a2cd266aa06dc409)\n"),
		  "3e297b613491f0d4928aa652a2cd266aa06dc409");
	CHECK_STR(ref("  commit 3e297b6134 upstream\n"), "3e297b6134");
	/* not references */
	CHECK_STR(ref("Fix the commit 3e297b6134 regression\n"), "");
	CHECK_STR(ref("commit 3e297b upstream.\n"), "");          /* too short */
	CHECK_STR(ref("commit 3e297b6134zz upstream.\n"), "");    /* not hex */
	CHECK_STR(ref("Fixes: 3e297b613491 (\"Restore ...\")\n"), "");
	CHECK_STR(ref(""), "");
	return check_done();
}
