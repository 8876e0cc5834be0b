/*
 * Errors and notices of the layers below, said on stderr (diag.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/notice.h"
#include "patchver/lab/input.h"
#include "patchver/cli/diag.h"

/* The documented exit code of each kind of failure (man/patchver.1). */
static const struct {
	int code, exit_code;
} exit_of[] = {
	{ PV_EINTERNAL, EXIT_INTERNAL },
	{ PV_EINVALID, EXIT_USAGE },
	{ PV_ENOREPO, EXIT_NOREPO },
	{ PV_ENOTFOUND, EXIT_UNKNOWN_REV },
	{ PV_EAMBIGUOUS, EXIT_AMBIGUOUS },
	{ PV_ENOTCOMMIT, EXIT_NOT_COMMIT },
	{ PV_ENOTAGS, EXIT_NO_TAGS },
	{ PV_ECORRUPT, EXIT_CORRUPT },
	{ PV_EINPUT, EXIT_INPUT },
	{ PV_ENOMATCH, EXIT_NO_MATCH },
	{ PV_EBUILD, EXIT_BUILD },
	{ PV_EBOOT, EXIT_BOOT },
	{ PV_EPATCH, EXIT_PATCH },
	{ PV_ENOTOOL, EXIT_NO_TOOL },
	{ PV_EINTERRUPTED, EXIT_INTERRUPTED },
	{ PV_EUNCONFIRMED, EXIT_NOT_CONFIRMED },
};

int diag_exit_code(int code)
{
	for (size_t i = 0; i < sizeof(exit_of) / sizeof(exit_of[0]); i++)
		if (exit_of[i].code == code)
			return exit_of[i].exit_code;
	return EXIT_INTERNAL;
}

/*
 * The option that gave the input an error is about: said before its
 * message (the message starts with the value), or instead of it where
 * the option changes the sentence.
 */
static const struct {
	int about;
	const char *before, *after, *instead;
} input_words[] = {
	{ LAB_INPUT_BUG, "--bug ", "", NULL },
	{ LAB_INPUT_CONFIG, "--config ", "", NULL },
	{ LAB_INPUT_STRICT_CONFIG, "--strict-config: ", "", NULL },
	{ LAB_INPUT_GUEST_FILE, "--guest-file ", "", NULL },
	{ LAB_INPUT_KERNEL_SOURCE, "", " or give --kernel-tree DIR", NULL },
	{ LAB_INPUT_CANDIDATE, "--candidate ", "", NULL },
	{ LAB_INPUT_EXPECT, "--expect ", "", NULL },
	{ LAB_INPUT_GOOD, "--good ", "", NULL },
	{ LAB_INPUT_BAD, "--bad ", "", NULL },
	{ LAB_INPUT_FIX, "--fix ", "", NULL },
	{ LAB_INPUT_FIX_HISTORY, "", ": give --kernel-tree with that history, or --patch-series "
	  "that models the bug", NULL },
	{ LAB_INPUT_ENDS_NOT_TAGS, "", "", "--good and --bad are not both release tags: "
	  "bisect their commits with --commits" },
	{ LAB_INPUT_MEASURE, "--measure: ", ": give --kernel-tree with it", NULL },
};

static void say_error(const struct pv_error *e)
{
	for (size_t i = 0; e->about && i < sizeof(input_words) / sizeof(input_words[0]); i++) {
		if (input_words[i].about != e->about)
			continue;
		if (input_words[i].instead)
			fprintf(stderr, "patchver: %s\n", input_words[i].instead);
		else
			fprintf(stderr, "patchver: %s%s%s\n", input_words[i].before, e->message,
				input_words[i].after);
		return;
	}
	fprintf(stderr, "patchver: %s\n", e->message);
}

int diag_exit(int ret)
{
	/*
	 * One broken history fails many answers with the same words (each
	 * names the commit where the walk broke): said once, the first time.
	 */
	static char said[PV_ERROR_MAX];
	const struct pv_error *e = pv_error_last();

	if (ret >= 0)
		return ret;
	if (e->code == ret && strcmp(e->message, said)) {
		say_error(e);
		snprintf(said, sizeof(said), "%s", e->message);
	} else if (e->code != ret) {
		/* a code without its message: a bug below, still never a silent failure */
		fprintf(stderr, "patchver: internal error: failure %d without its message%s%s\n", ret,
			e->code != PV_OK ? "; the last one recorded: " : "",
			e->code != PV_OK ? e->message : "");
	}
	return diag_exit_code(ret);
}

/* Counts are drawn in place on a terminal, and only there. */
static bool show_counts;

static void say_notice(const struct pv_notice *n, void *data)
{
	(void)data;
	switch (n->kind) {
	case PV_NOTICE_WARNING:
		fprintf(stderr, "patchver: warning: %s\n", n->message);
		break;
	case PV_NOTICE_NOTE:
		fprintf(stderr, "patchver: %s\n", n->message);
		break;
	case PV_NOTICE_PROGRESS:
		fprintf(stderr, "%s\n", n->message);
		break;
	case PV_NOTICE_COUNT:
		if (!show_counts)
			break;
		fprintf(stderr, "\rpatchver: %s: %zu/%zu %s", n->what, n->done, n->total, n->unit);
		if (n->done == n->total)
			fputc('\n', stderr);
		break;
	}
}

void diag_install(void)
{
	show_counts = isatty(2);
	pv_notice_handler(say_notice, NULL);
}

void diag_show_counts(bool show)
{
	show_counts = show && isatty(2);
}
