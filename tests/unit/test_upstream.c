/* Unit tests: upstream references in backport messages. */
#include <stdlib.h>

#include "check.h"
#include "patchver/engine/upstream.h"

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
	/* 2.6.34.1's KVM backports (87557bf5f6a9) */
	CHECK_STR(ref("x\n\n(Cherry-picked from commit 0d945bd9351199744c1e89d57a70615b6ee9f394)\n"),
		  "0d945bd9351199744c1e89d57a70615b6ee9f394");
	/* not references */
	CHECK_STR(ref("Fix the commit 3e297b6134 regression\n"), "");
	CHECK_STR(ref("commit 3e297b upstream.\n"), "");          /* too short */
	CHECK_STR(ref("commit 3e297b6134zz upstream.\n"), "");    /* not hex */
	CHECK_STR(ref("Fixes: 3e297b613491 (\"Restore ...\")\n"), "");
	CHECK_STR(ref(""), "");
	/* a reworked backport, the id wrapped onto the next line (4584740e4ec in 2.6.34.2) */
	CHECK_STR(ref("ssb: x\n\nThis patch is modified from commit\n"
		      "da1fdb02d9200ff28b6f3a380d21930335fe5429 with some pieces from other\n"),
		  "da1fdb02d9200ff28b6f3a380d21930335fe5429");
	CHECK_STR(ref("x\n\n[ Upstream commit\n  002baeecf536 ]\n"), "002baeecf536");
	/* every reference, in order, repeats dropped */
	{
		char refs[3][41];
		size_t n = upstream_refs("x\n\ncommit 1111111111 upstream.\ncommit 2222222222 upstream.\n"
					 "(cherry picked from commit 1111111111)\n", refs, 3);
		CHECK(n == 2);
		CHECK_STR(refs[0], "1111111111");
		CHECK_STR(refs[1], "2222222222");
		CHECK(upstream_refs("commit 1111111111 upstream.\ncommit 2222222222 upstream.\n",
				    refs, 1) == 2);
		CHECK_STR(refs[0], "1111111111");
	}
	/* reverts: by id, or by the quoted subject alone (4f824cdefb3 in 2.6.34.3) */
	{
		char hex[41], *subject;
		CHECK(upstream_revert("Revert \"a: b\"\n\nThis reverts commit 4584740e4ec1a2b3.\n", hex, &subject));
		CHECK_STR(hex, "4584740e4ec1a2b3");
		CHECK(subject == NULL);
		CHECK(upstream_revert("Revert \"ssb: Handle \"Netbook\" devices\"\n\nTurns out\n", hex, &subject));
		CHECK_STR(hex, "");
		CHECK_STR(subject, "ssb: Handle \"Netbook\" devices");
		free(subject);
		CHECK(!upstream_revert("Reverting to the old way\n", hex, &subject));
		CHECK(!upstream_revert("Revert \"unterminated\n", hex, &subject));
	}
	return check_done();
}
