/*
 * --bug: how a bug shows, and one boot's answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/input.h"
#include "patchver/lab/oracle.h"

int oracle_parse(struct bug_spec *b, const char *text)
{
	static const struct { const char *name; enum bug_kind kind; } kinds[] = {
		{ "exit", BUG_EXIT }, { "oops", BUG_OOPS }, { "hang", BUG_HANG }, { "boot", BUG_BOOT },
	};
	const char *colon = strchr(text, ':');
	int rc;

	memset(b, 0, sizeof(*b));
	snprintf(b->text, sizeof(b->text), "%s", text);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(text, kinds[i].name)) {
			b->kind = kinds[i].kind;
			return 0;
		}
	if (!strncmp(text, "regex:", 6)) {
		char msg[256];
		b->kind = BUG_REGEX;
		if (!text[6])
			return pv_error_set_about(PV_EINVALID, LAB_INPUT_BUG, "'%s': the regex is empty",
						  text);
		if ((rc = regcomp(&b->re, text + 6, REG_EXTENDED | REG_NOSUB))) {
			regerror(rc, &b->re, msg, sizeof(msg));
			return pv_error_set_about(PV_EINVALID, LAB_INPUT_BUG,
						  "'%s': the regex does not compile: %s", text, msg);
		}
		b->have_re = true;
		return 0;
	}
	if (!colon || colon == text || !colon[1] || (size_t)(colon - text) >= sizeof(b->check) ||
	    strlen(colon + 1) >= sizeof(b->err) || strchr(colon + 1, ':'))
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_BUG, "'%s': not a kind of bug; give "
					  "exit, oops, hang, boot, regex:RE or CHECK:ERRNO", text);
	b->kind = BUG_CHECK;
	memcpy(b->check, text, (size_t)(colon - text));
	strcpy(b->err, colon + 1);
	return 0;
}

void oracle_free(struct bug_spec *b)
{
	if (b->have_re)
		regfree(&b->re);
	memset(b, 0, sizeof(*b));
}

char *oracle_status(const struct serial_report *s)
{
	switch (s->end) {
	case REPRO_EXIT:
		return xstrfmt("exit %d", s->exit_code);
	case REPRO_SIGNAL:
		return xstrfmt("killed by %s", s->signal);
	case REPRO_TIMEOUT:
		return xstrfmt("timeout (%d s)", s->timeout);
	default:
		return xstrdup(s->started ? "never reported back" : "never started");
	}
}

/* The first console line after START that matches. */
static const char *matching_line(const struct bug_spec *b, const struct serial_report *s)
{
	for (size_t i = 0; i < s->noutput; i++)
		if (regexec(&b->re, s->output[i], 0, NULL, 0) == 0)
			return s->output[i];
	return NULL;
}

static enum boot_answer judge_exit(const struct serial_report *s, char **why)
{
	char *status = oracle_status(s);
	enum boot_answer a;

	if (s->end == REPRO_NOT_ENDED && s->panic_after_start) {
		a = ANSWER_BUG;
		*why = xstrdup(*s->crash ? s->crash : "kernel panic");
	} else if (s->end == REPRO_NOT_ENDED) {
		a = ANSWER_SKIP;
		*why = xstrfmt("the reproducer %s", status);
	} else {
		a = s->end == REPRO_EXIT && s->exit_code == 0 ? ANSWER_CLEAN : ANSWER_BUG;
		*why = xstrdup(status);
	}
	free(status);
	return a;
}

/* Console kinds: the crash, or the regex, after START; else clean when it ran to the end. */
static enum boot_answer judge_console(const struct bug_spec *b, const struct serial_report *s,
				      char **why)
{
	const char *line = b->kind == BUG_REGEX ? matching_line(b, s) : NULL;
	char *status;

	if (b->kind == BUG_OOPS && *s->crash) {
		*why = xstrdup(s->crash);
		return ANSWER_BUG;
	}
	if (line) {
		*why = xstrfmt("console: %s", line);
		return ANSWER_BUG;
	}
	status = oracle_status(s);
	*why = xstrfmt("%s; reproducer %s", b->kind == BUG_OOPS ? "no crash report" :
		       "no console line matches", status);
	free(status);
	return s->end == REPRO_EXIT || s->end == REPRO_SIGNAL ? ANSWER_CLEAN : ANSWER_SKIP;
}

static enum boot_answer judge_check(const struct bug_spec *b, const struct serial_report *s,
				    char **why)
{
	const struct guest_check *c = serial_check(s, b->check);

	if (!c) {
		*why = xstrfmt("check %s did not run", b->check);
		return ANSWER_SKIP;
	}
	if (!c->pass && !strcmp(c->err, b->err)) {
		*why = xstrfmt("fails as the bug says: %s %s", b->check, b->err);
		return ANSWER_BUG;
	}
	*why = c->pass ? xstrfmt("%s passes", b->check)
		       : xstrfmt("%s fails with %s, not %s", b->check, c->err, b->err);
	return ANSWER_CLEAN;
}

/*
 * A boot test: the kernel must reach the start marker, and print no crash
 * report on the way or after it.  Not getting there is the failure itself.
 */
static enum boot_answer judge_boot(const struct serial_report *s, bool timed_out, char **why)
{
	const char *crash = *s->boot_crash ? s->boot_crash : s->crash;

	if (!s->started)
		*why = xstrfmt("boot test: %s", *crash ? crash : timed_out ? "boot timed out before "
			       "the start marker" : s->panic ? "kernel panic before the start marker" :
			       "the kernel stopped before the start marker");
	else if (*crash)
		*why = xstrfmt("boot test: %s", crash);
	else if (s->panic_after_start)
		*why = xstrdup("boot test: kernel panic");
	else
		*why = xstrdup("boot test: reached the start marker, no crash report");
	return !s->started || *crash || s->panic_after_start ? ANSWER_BUG : ANSWER_CLEAN;
}

enum boot_answer oracle_judge(const struct bug_spec *b, const struct serial_report *s,
			      bool timed_out, char **why)
{
	*why = NULL;
	if (b->kind == BUG_BOOT)
		return judge_boot(s, timed_out, why);
	if (!s->started) {
		*why = xstrdup(timed_out ? "boot timed out" : s->panic ? "kernel panic before "
			       "the reproducer ran" : "the reproducer never ran");
		return ANSWER_SKIP;
	}
	if (s->end == REPRO_EXIT && s->exit_code == 125) {
		*why = xstrdup("the reproducer cannot test this state (exit 125)");
		return ANSWER_SKIP;
	}
	switch (b->kind) {
	case BUG_HANG:
		if (s->end == REPRO_NOT_ENDED || s->end == REPRO_TIMEOUT) {
			*why = oracle_status(s);
			return ANSWER_BUG;
		}
		*why = oracle_status(s);
		return ANSWER_CLEAN;
	case BUG_OOPS:
	case BUG_REGEX:
		return judge_console(b, s, why);
	case BUG_CHECK:
		if (s->end == REPRO_NOT_ENDED) {
			*why = oracle_status(s);
			return ANSWER_SKIP;
		}
		return judge_check(b, s, why);
	case BUG_EXIT:
	default:
		return judge_exit(s, why);
	}
}
