/* Unit tests: the serial-log parser, crash titles and the --bug oracle. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/lab/boot.h"
#include "patchver/lab/crash.h"
#include "patchver/lab/input.h"
#include "patchver/lab/oracle.h"
#include "patchver/lab/serial.h"

static void parse(const char *text, struct serial_report *r)
{
	serial_parse(text, strlen(text), r);
}

static void markers(void)
{
	struct serial_report r;
	const struct guest_check *c;

	/* a multi-check run, with CRs and kernel noise in front of a line */
	parse("Linux version 6.1.192\r\nRun /init as init process\r\n"
	      "PATCHVER-BEGIN kernel=6.1.192\r\nPATCHVER-REPRO-START\r\n"
	      "PATCHVER-CHECK nofollow_slash_symlink_dir FAIL errno=ELOOP expect=0\r\n"
	      "[    1.234] random: crng init done PATCHVER-CHECK nofollow_symlink PASS errno=ELOOP expect=ELOOP\n"
	      "\nPATCHVER-REPRO-END exit=1\nreboot: Restarting system\n", &r);
	CHECK(r.began && r.started && r.end == REPRO_EXIT && r.exit_code == 1 && !r.panic);
	CHECK_STR(r.kernel, "6.1.192");
	CHECK(r.nchecks == 2 && r.pass == 1 && r.fail == 1);
	c = serial_check(&r, "nofollow_slash_symlink_dir");
	CHECK(c && !c->pass);
	CHECK_STR(c ? c->err : NULL, "ELOOP");
	CHECK(!serial_check(&r, "missing"));
	CHECK(r.noutput == 3);      /* two checks and the blank line before END */
	serial_free(&r);

	/* how a reproducer ends */
	parse("PATCHVER-REPRO-START\nPATCHVER-REPRO-END signal=SEGV\n", &r);
	CHECK(r.end == REPRO_SIGNAL);
	CHECK_STR(r.signal, "SIGSEGV");
	serial_free(&r);
	parse("PATCHVER-REPRO-START\nPATCHVER-REPRO-END timeout=60\n", &r);
	CHECK(r.end == REPRO_TIMEOUT && r.timeout == 60);
	serial_free(&r);
	/* an END without a START, or a second END, does not count */
	parse("PATCHVER-REPRO-END exit=0\nPATCHVER-REPRO-START\n", &r);
	CHECK(r.started && r.end == REPRO_NOT_ENDED);
	serial_free(&r);
	parse("PATCHVER-REPRO-START\nPATCHVER-REPRO-END exit=3\nPATCHVER-REPRO-END exit=0\n", &r);
	CHECK(r.end == REPRO_EXIT && r.exit_code == 3);
	serial_free(&r);

	/* only what comes after START: a boot-time WARNING is not the bug */
	parse("WARNING: CPU: 0 PID: 1 at arch/x86/kernel/x.c:12 boot_thing+0x1/0x2\n"
	      "PATCHVER-BEGIN kernel=x\nPATCHVER-REPRO-START\nhello\n"
	      "PATCHVER-REPRO-END exit=0\n", &r);
	CHECK(!*r.crash && r.noutput == 1);
	serial_free(&r);

	/* a panic before /init */
	parse("Kernel panic - not syncing: VFS: Unable to mount root fs\n", &r);
	CHECK(r.panic && !r.panic_after_start && !r.began && r.nchecks == 0);
	serial_free(&r);

	/* garbage: malformed lines are ignored, nothing overflows */
	{
		char big[5000];
		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		memcpy(big, "PATCHVER-REPRO-START\nPATCHVER-CHECK ", 36);
		parse(big, &r);
		CHECK(r.nchecks == 0 && r.noutput == 1);
		serial_free(&r);
	}
	parse("PATCHVER-REPRO-START\nPATCHVER-CHECK name MAYBE errno=0 expect=0\n"
	      "PATCHVER-REPRO-END exit=99999999999\nPATCHVER-CHECK\n\n\n", &r);
	CHECK(r.nchecks == 0 && r.end == REPRO_NOT_ENDED);
	serial_free(&r);
	serial_parse("PATCHVER-BEGIN\0PATCHVER-REPRO-START\n", 36, &r);
	CHECK(r.began && !r.started);
	serial_free(&r);
}

static void title(const char *line, const char *want)
{
	char out[192];

	CHECK(crash_line(line));
	crash_title(line, out, sizeof(out));
	CHECK_STR(out, want);
}

static void titles(void)
{
	/* 6.1 */
	title("[   12.345678] WARNING: CPU: 1 PID: 57 at kernel/sys.c:2412 __do_sys_prctl+0x1c/0x80",
	      "WARNING: at kernel/sys.c __do_sys_prctl");
	title("kernel BUG at kernel/sys.c:2415!", "kernel BUG at kernel/sys.c!");
	title("BUG: kernel NULL pointer dereference, address: 0000000000000008",
	      "BUG: kernel NULL pointer dereference, address: ADDR");
	title("general protection fault, probably for non-canonical address 0xdffffc0000000001: "
	      "0000 [#1] PREEMPT SMP KASAN",
	      "general protection fault, probably for non-canonical address ADDR: 0000 PREEMPT SMP KASAN");
	title("BUG: KASAN: use-after-free in do_thing+0x12/0x340", "BUG: KASAN: use-after-free in do_thing");
	title("Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b",
	      "Kernel panic - not syncing: Attempted to kill init! exitcode=ADDR");
	/* 2.6.3x */
	title("WARNING: at fs/namei.c:1624 do_filp_open+0x5a/0x6a0()",
	      "WARNING: at fs/namei.c do_filp_open()");
	title("<1>BUG: unable to handle kernel NULL pointer dereference at 0000000000000010",
	      "BUG: unable to handle kernel NULL pointer dereference at ADDR");
	title("Oops: 0002 [#1] SMP", "Oops: 0002 SMP");
	/* the same crash one line lower, at another address: one title */
	{
		char a[192], b[192];
		crash_title("WARNING: CPU: 0 PID: 60 at kernel/sys.c:2412 f+0x1c/0x80", a, sizeof(a));
		crash_title("WARNING: CPU: 1 PID: 61 at kernel/sys.c:2413 f+0x2c/0x90", b, sizeof(b));
		CHECK_STR(a, b);
	}
	/* not crash lines */
	CHECK(!crash_line("DEBUG: nothing"));
	CHECK(!crash_line("PATCHVER-CHECK a PASS errno=0 expect=0"));
	CHECK(!crash_line("[    0.1] Booting the kernel."));
	{
		char small[8];
		crash_title("WARNING: at fs/namei.c:1624 do_filp_open+0x5a/0x6a0()", small, sizeof(small));
		CHECK(strlen(small) < sizeof(small));
	}
}

static enum boot_answer judge(const char *bug, const char *log, bool timed_out, const char *why)
{
	struct bug_spec b;
	struct serial_report r;
	enum boot_answer a = ANSWER_SKIP;
	char *w = NULL;

	CHECK(oracle_parse(&b, bug) == 0);
	parse(log, &r);
	a = oracle_judge(&b, &r, timed_out, &w);
	if (why)
		CHECK(w && strstr(w, why));
	if (why && (!w || !strstr(w, why)))
		fprintf(stderr, "  why: %s\n", w ? w : "(null)");
	free(w);
	serial_free(&r);
	oracle_free(&b);
	return a;
}

#define RUN(body) "PATCHVER-BEGIN kernel=6.1\nPATCHVER-REPRO-START\n" body
#define OOPS "WARNING: CPU: 0 PID: 60 at kernel/sys.c:2412 f+0x1c/0x80\n"

/* The error just recorded: about the bug, its message starting with want. */
static bool refused_bug(const char *want)
{
	const struct pv_error *e = pv_error_last();

	return e->about == LAB_INPUT_BUG && !strncmp(e->message, want, strlen(want));
}

static void oracle(void)
{
	struct bug_spec b;

	/* exit: git bisect run's convention */
	CHECK(judge("exit", RUN("PATCHVER-REPRO-END exit=0\n"), false, "exit 0") == ANSWER_CLEAN);
	CHECK(judge("exit", RUN("PATCHVER-REPRO-END exit=1\n"), false, "exit 1") == ANSWER_BUG);
	CHECK(judge("exit", RUN("PATCHVER-REPRO-END exit=125\n"), false, "125") == ANSWER_SKIP);
	CHECK(judge("exit", RUN("PATCHVER-REPRO-END signal=SEGV\n"), false, "SIGSEGV") == ANSWER_BUG);
	CHECK(judge("exit", RUN("PATCHVER-REPRO-END timeout=5\n"), false, "timeout") == ANSWER_BUG);
	CHECK(judge("exit", RUN("Kernel panic - not syncing: x\n"), false, "Kernel panic") == ANSWER_BUG);
	CHECK(judge("exit", "Kernel panic - not syncing: x\n", false, "before") == ANSWER_SKIP);
	CHECK(judge("exit", "", true, "boot timed out") == ANSWER_SKIP);
	/* oops: only after START, with its title */
	CHECK(judge("oops", RUN(OOPS "PATCHVER-REPRO-END exit=0\n"), false,
		    "WARNING: at kernel/sys.c f") == ANSWER_BUG);
	CHECK(judge("oops", OOPS RUN("PATCHVER-REPRO-END exit=0\n"), false, "no crash") == ANSWER_CLEAN);
	CHECK(judge("oops", RUN("PATCHVER-REPRO-END timeout=5\n"), false, NULL) == ANSWER_SKIP);
	CHECK(judge("oops", RUN("PATCHVER-REPRO-END exit=125\n" OOPS), false, NULL) == ANSWER_SKIP);
	/* regex */
	CHECK(judge("regex:refcount_t: (underflow|overflow)", RUN("refcount_t: underflow; x\n"
		    "PATCHVER-REPRO-END exit=0\n"), false, "underflow") == ANSWER_BUG);
	CHECK(judge("regex:^leak$", RUN("no leak\nPATCHVER-REPRO-END exit=0\n"), false, NULL) ==
	      ANSWER_CLEAN);
	/* hang */
	CHECK(judge("hang", RUN("PATCHVER-REPRO-END timeout=5\n"), false, "timeout") == ANSWER_BUG);
	CHECK(judge("hang", RUN(""), true, NULL) == ANSWER_BUG);
	CHECK(judge("hang", RUN("PATCHVER-REPRO-END exit=3\n"), false, NULL) == ANSWER_CLEAN);
	/* CHECK:ERRNO */
	CHECK(judge("a:ELOOP", RUN("PATCHVER-CHECK a FAIL errno=ELOOP expect=0\n"
		    "PATCHVER-REPRO-END exit=1\n"), false, "a ELOOP") == ANSWER_BUG);
	CHECK(judge("a:ELOOP", RUN("PATCHVER-CHECK a FAIL errno=ENOTDIR expect=0\n"
		    "PATCHVER-REPRO-END exit=1\n"), false, "not ELOOP") == ANSWER_CLEAN);
	CHECK(judge("b:ELOOP", RUN("PATCHVER-CHECK a PASS errno=0 expect=0\n"
		    "PATCHVER-REPRO-END exit=0\n"), false, "did not run") == ANSWER_SKIP);
	/* what --bug refuses: an invalid input, about the bug, its value first */
	CHECK(oracle_parse(&b, "regex:(") == PV_EINVALID && refused_bug("'regex:(': the regex does not compile"));
	oracle_free(&b);
	CHECK(oracle_parse(&b, "regex:") == PV_EINVALID && refused_bug("'regex:': the regex is empty"));
	oracle_free(&b);
	CHECK(oracle_parse(&b, "panic") == PV_EINVALID && refused_bug("'panic': not a kind of bug"));
	oracle_free(&b);
	CHECK(oracle_parse(&b, "a:b:c") == PV_EINVALID && refused_bug("'a:b:c': not a kind of bug"));
	oracle_free(&b);
}

/* A child that "panics" and hangs is stopped soon after, not at its timeout. */
static void panic_watch(void)
{
	char log[] = "/tmp/patchver-panic.XXXXXX";
	char *hangs[] = { "sh", "-c", "echo booting; sleep 1; echo 'Kernel panic - not syncing: "
			  "IO-APIC + timer does not work'; sleep 60", NULL };
	char *ends[] = { "sh", "-c", "echo 'Kernel panic - not syncing: x'; exit 0", NULL };
	char *quiet[] = { "sh", "-c", "echo fine; sleep 2", NULL };
	struct boot_panic_watch w = { .log = log };
	struct proc_result r;
	int fd = mkstemp(log);

	CHECK(fd >= 0);
	close(fd);
	CHECK(proc_run_watched(hangs, NULL, log, 50, boot_panic_seen, &w, &r) == 0);
	CHECK(r.stopped && !r.timed_out && r.seconds < 1 + BOOT_PANIC_GRACE + 3);
	memset(&w, 0, sizeof(w));
	w.log = log;
	unlink(log);
	CHECK(proc_run_watched(ends, NULL, log, 50, boot_panic_seen, &w, &r) == 0);
	CHECK(!r.stopped && r.exit_code == 0);      /* it ended by itself: nothing to stop */
	memset(&w, 0, sizeof(w));
	w.log = log;
	unlink(log);
	CHECK(proc_run_watched(quiet, NULL, log, 50, boot_panic_seen, &w, &r) == 0);
	CHECK(!r.stopped && !w.panicked && r.exit_code == 0);
	unlink(log);
}

int main(void)
{
	markers();
	panic_watch();
	titles();
	oracle();
	return check_done();
}
