/* Unit tests: the serial-log parser of --verify-boot. */
#include <stdlib.h>

#include "check.h"
#include "patchver/lab/serial.h"

static void parse(const char *text, struct serial_report *r)
{
	serial_parse(text, strlen(text), r);
}

int main(void)
{
	struct serial_report r;
	const struct guest_check *c;

	/* a good run, with CRs and kernel noise in front of a line */
	parse("Linux version 6.1.192\r\nRun /init as init process\r\n"
	      "PATCHVER-BEGIN kernel=6.1.192\r\n"
	      "PATCHVER-CHECK nofollow_slash_symlink_dir FAIL errno=ELOOP expect=0\r\n"
	      "[    1.234] random: crng init done PATCHVER-CHECK nofollow_symlink PASS errno=ELOOP expect=ELOOP\n"
	      "PATCHVER-SUMMARY pass=1 fail=1\nreboot: Restarting system\n", &r);
	CHECK(r.began && r.summary && !r.panic);
	CHECK_STR(r.kernel, "6.1.192");
	CHECK(r.nchecks == 2 && r.pass == 1 && r.fail == 1);
	c = serial_check(&r, "nofollow_slash_symlink_dir");
	CHECK(c && !c->pass);
	CHECK_STR(c ? c->err : NULL, "ELOOP");
	CHECK_STR(c ? c->expect : NULL, "0");
	c = serial_check(&r, "nofollow_symlink");
	CHECK(c && c->pass);
	CHECK(!serial_check(&r, "missing"));
	serial_free(&r);

	/* a panic before /init */
	parse("Kernel panic - not syncing: VFS: Unable to mount root fs\n", &r);
	CHECK(r.panic && !r.began && !r.summary && r.nchecks == 0);
	serial_free(&r);

	/* a log cut in the middle: began, never finished */
	parse("PATCHVER-BEGIN kernel=x\nPATCHVER-CHECK a PASS errno=0 exp", &r);
	CHECK(r.began && !r.summary && r.nchecks == 1);
	serial_free(&r);

	/* garbage: malformed lines are ignored, nothing overflows */
	{
		char big[5000];
		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		memcpy(big, "PATCHVER-CHECK ", 15);
		parse(big, &r);
		CHECK(r.nchecks == 0);
		serial_free(&r);
	}
	parse("PATCHVER-CHECK name MAYBE errno=0 expect=0\nPATCHVER-SUMMARY pass=x\n"
	      "PATCHVER-CHECK\n\n\n", &r);
	CHECK(r.nchecks == 0 && !r.summary);
	serial_free(&r);
	serial_parse("PATCHVER-BEGIN\0PATCHVER-SUMMARY pass=1 fail=0\n", 46, &r);
	CHECK(r.began);
	serial_free(&r);
	/* counts that overflow an int, or are negative: no summary (found by fuzzing) */
	parse("PATCHVER-SUMMARY pass=33333333333333333333 fail=1\n", &r);
	CHECK(!r.summary && r.pass == 0 && r.fail == 0);
	serial_free(&r);
	parse("PATCHVER-SUMMARY pass=-5 fail=1\n", &r);
	CHECK(!r.summary);
	serial_free(&r);
	parse("PATCHVER-SUMMARY pass=2 fail=1\n", &r);
	CHECK(r.summary && r.pass == 2 && r.fail == 1);
	serial_free(&r);
	return check_done();
}
