/*
 * The command line (options.h): popt's tables, and the checks that the
 * options given go together.
 */
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/revsyntax.h"
#include "patchver/cli/options.h"

struct options opt;

/* What popt reads for the options parsed into opt's values, freed after. */
static struct {
	char *evidence, *max_states, *releases, *affected_from;
} arg;

static int pick_mode(enum report_mode *mode)
{
	int n = !!opt.describe + !!opt.name_rev + !!opt.tags_containing + !!opt.first_release;

	if (n > 1)
		return error(EXIT_USAGE, "--describe, --name-rev, --tags-containing and "
			     "--first-release are mutually exclusive");
	*mode = opt.describe ? REPORT_DESCRIBE :
		opt.name_rev ? REPORT_NAME_REV :
		opt.tags_containing ? REPORT_TAGS :
		opt.first_release ? REPORT_FIRST : REPORT_FULL;
	return 0;
}

/* --evidence all|message|blame|text into opt.evidence */
static int parse_evidence(void)
{
	static const char *const names[] = { "all", "message", "blame", "text" };

	opt.evidence = EVIDENCE_ALL;
	for (int i = 0; arg.evidence && i < 4; i++)
		if (!strcmp(arg.evidence, names[i])) {
			opt.evidence = (enum evidence_mode)i;
			return 0;
		}
	if (!arg.evidence)
		return 0;
	return error(EXIT_USAGE, "--evidence: '%s' is not message, blame, text or all", arg.evidence);
}

/* A..B with both ends: the shape a range must have before any history is read. */
static int check_range(const char *option, const char *range)
{
	if (!range || rev_range_to(range))
		return 0;
	return error(EXIT_USAGE, "%s wants A..B, not '%s'", option, range);
}

static int check_audit_options(size_t nrevs)
{
	if (!opt.audit)
		return opt.only ? error(EXIT_USAGE, "--only goes with --audit") : 0;
	if (!opt.series)
		return error(EXIT_USAGE, "--audit needs --series X.Y[,X.Y...]");
	if (nrevs || opt.verify_boot || opt.bisect_boot || opt.patch || opt.triage || opt.use_stdin)
		return error(EXIT_USAGE, "--audit takes no revisions and no other mode");
	if (opt.only && strcmp(opt.only, "missing") && strcmp(opt.only, "possible") &&
	    strcmp(opt.only, "present") && strcmp(opt.only, "unneeded") && strcmp(opt.only, "all"))
		return error(EXIT_USAGE, "--only: '%s' is none of missing, possible, present, "
			     "unneeded, all", opt.only);
	return 0;
}

/* Does s start with the pattern: 'x' a hex digit, 'd' a decimal one, others themselves? */
static bool shaped_prefix(const char *s, const char *pattern)
{
	for (; *pattern; s++, pattern++)
		if (!*s || (*pattern == 'x' ? !isxdigit((unsigned char)*s) :
			    *pattern == 'd' ? !isdigit((unsigned char)*s) : *s != *pattern))
			return false;
	return true;
}

/* ... and has nothing after it */
static bool shaped(const char *s, const char *pattern)
{
	return shaped_prefix(s, pattern) && strlen(s) == strlen(pattern);
}

/* The CVE schema's ^CVE-[0-9]{4}-[0-9]{4,19}$ */
static bool cve_id_ok(const char *id)
{
	size_t digits;

	if (!shaped_prefix(id, "CVE-dddd-"))
		return false;
	digits = strspn(id + 9, "0123456789");
	return digits >= 4 && digits <= 19 && !id[9 + digits];
}

/* --cve-record [--cve-id CVE-YYYY-NNNN] [--cna-org-id UUID] */
static int check_cve_record(const struct command_line *cl)
{
	const char *id = opt.cve_id;

	if (!opt.cve_record)
		return opt.cve_id || opt.cna_org_id ?
		       error(EXIT_USAGE, "--cve-id and --cna-org-id go with --cve-record") : 0;
	if (!opt.triage || opt.json || opt.cve_json || opt.dyad || opt.patch_id)
		return error(EXIT_USAGE, "--cve-record writes whole records for --triage: give "
			     "--triage, without --json, --cve-json, --dyad or --patch-id");
	if (id && !cve_id_ok(id))
		return error(EXIT_USAGE, "--cve-id: '%s' is not a CVE id (CVE-YYYY-NNNN)", id);
	if (id && cl->nrevs + (opt.patch != NULL) != 1)
		return error(EXIT_USAGE, "--cve-id names one record: give one fix");
	/* the schema's orgId: a version 4 UUID, xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx */
	if (opt.cna_org_id && (!shaped(opt.cna_org_id, "xxxxxxxx-xxxx-4xxx-xxxx-xxxxxxxxxxxx") ||
			       !strchr("89abAB", opt.cna_org_id[19])))
		return error(EXIT_USAGE, "--cna-org-id: '%s' is not a version 4 UUID (as the CVE "
			     "schema's orgId)", opt.cna_org_id);
	return 0;
}

/* --backport FIX --onto REV, or --patch FILE --backport --onto REV. */
static int check_backport_options(const struct command_line *cl)
{
	if (!opt.backport)
		return opt.onto ? error(EXIT_USAGE, "--onto names the release for --backport") : 0;
	if (!opt.onto || !*opt.onto)
		return error(EXIT_USAGE, "--backport needs --onto REV: the release to apply the fix to");
	if (cl->nrevs + (opt.patch != NULL) != 1)
		return error(EXIT_USAGE, "--backport takes one fix: a revision, or --patch FILE");
	if (opt.triage || opt.patch_id || opt.verify_boot || opt.bisect_boot || opt.audit ||
	    opt.use_stdin || opt.index || opt.cve_json || cl->mode != REPORT_FULL)
		return error(EXIT_USAGE, "--backport goes with no other mode");
	return 0;
}

/* Options that belong to one mode only. */
static int check_bisect_options(size_t nrevs)
{
	if (!opt.bisect_boot) {
		if (opt.good || opt.bad || opt.fix || opt.tests || opt.commits || opt.repeat ||
		    opt.resume)
			return error(EXIT_USAGE, "--good, --bad, --fix, --test, --commits, --repeat "
				     "and --resume go with --bisect-boot");
		return 0;
	}
	if (!opt.good || !opt.bad)
		return error(EXIT_USAGE, "--bisect-boot needs --good REV and --bad REV");
	if (nrevs || opt.verify_boot || opt.patch || opt.triage || opt.use_stdin)
		return error(EXIT_USAGE, "--bisect-boot takes no revisions and no other mode");
	if (opt.repeat < 0 || opt.repeat > 100)
		return error(EXIT_USAGE, "--repeat: %d is not a number of boots (1-100)", opt.repeat);
	if (opt.series && (strchr(opt.series, '/') || !strchr(opt.series, '.')))
		return error(EXIT_USAGE, "--series with --bisect-boot names a stable series "
			     "(X.Y), not '%s'", opt.series);
	return 0;
}

/* --max-states, --releases, --dry-run: the plan of --verify-boot. */
static int check_plan_options(void)
{
	char *end = NULL;
	long n;

	if (!opt.verify_boot && (arg.max_states || arg.releases))
		return error(EXIT_USAGE, "--max-states and --releases go with --verify-boot");
	if (opt.dry_run && !opt.verify_boot && !opt.bisect_boot)
		return error(EXIT_USAGE, "--dry-run goes with --verify-boot or --bisect-boot: it "
			     "prints their plan");
	if (!opt.verify_boot && (opt.measure || arg.affected_from))
		return error(EXIT_USAGE, "%s goes with --verify-boot (it measures by booting)",
			     opt.measure ? "--measure" : "--affected-from");
	if (arg.affected_from && strcmp(arg.affected_from, "text") &&
	    strcmp(arg.affected_from, "boot"))
		return error(EXIT_USAGE, "--affected-from: '%s' is not a choice: give text (the "
			     "triage's range) or boot (the measured one)", arg.affected_from);
	if (arg.affected_from && !opt.cve_json)
		return error(EXIT_USAGE, "--affected-from chooses --cve-json's affected range: give "
			     "--cve-json");
	if (opt.measure && opt.candidates)
		return error(EXIT_USAGE, "--measure bisects the triage's states; --candidate names "
			     "its own");
	opt.affected_from_boot = arg.affected_from && !strcmp(arg.affected_from, "boot");
	opt.all_releases = arg.releases != NULL;
	if (arg.releases && strcmp(arg.releases, "all"))
		return error(EXIT_USAGE, "--releases: '%s' is not a choice: give all (every affected "
			     "release), or leave it out for the plan", arg.releases);
	if ((arg.max_states || arg.releases) && opt.candidates)
		return error(EXIT_USAGE, "--max-states and --releases choose the triage's states; "
			     "--candidate names its own");
	if (arg.max_states && arg.releases)
		return error(EXIT_USAGE, "--max-states bounds the plan; --releases all has none");
	if (!arg.max_states)
		return 0;
	errno = 0;
	n = strtol(arg.max_states, &end, 10);
	if (errno || end == arg.max_states || *end || n < 2 || n > 100000)
		return error(EXIT_USAGE, "--max-states: '%s' is not a number of states (at least 2: "
			     "a release with and without the fix)", arg.max_states);
	opt.max_states = (int)n;
	return 0;
}

#define DEFAULT_REPRO_TIMEOUT 60
#define BOOT_ALLOWANCE 10           /* seconds a guest needs at least to boot (TCG: 1-4 s) */

/* The reproducer's options, and the two timeouts that must fit together. */
static int check_lab_options(void)
{
	bool lab = opt.verify_boot || opt.bisect_boot;

	if (!lab && (opt.reproducer || opt.guest_files || opt.repro_timeout || opt.configs ||
		     opt.strict_config || opt.bug))
		return error(EXIT_USAGE, "--reproducer, --guest-file, --repro-timeout, --config, "
			     "--strict-config and --bug go with --verify-boot or --bisect-boot");
	if (opt.repro_timeout < 0 || opt.repro_timeout > 86400)
		return error(EXIT_USAGE, "--repro-timeout: %d is not a number of seconds (1-86400)",
			     opt.repro_timeout);
	if (opt.boot_timeout < 0)
		return error(EXIT_USAGE, "--boot-timeout: %d is not a number of seconds",
			     opt.boot_timeout);
	if (!opt.repro_timeout)
		opt.repro_timeout = DEFAULT_REPRO_TIMEOUT;
	if (!opt.boot_timeout)
		opt.boot_timeout = opt.repro_timeout + 60 > 120 ? opt.repro_timeout + 60 : 120;
	else if (opt.boot_timeout < opt.repro_timeout + BOOT_ALLOWANCE)
		return error(EXIT_USAGE, "--boot-timeout %d must exceed --repro-timeout (%d) plus "
			     "%d s for the boot", opt.boot_timeout, opt.repro_timeout, BOOT_ALLOWANCE);
	return 0;
}

/*
 * The options, one table per mode; popt prints each table's heading and
 * its options together in --help.  Short placeholders keep popt's
 * description column wide.
 */
static struct poptOption query_options[] = {
	{ "describe", 0, POPT_ARG_NONE, &opt.describe, 0,
	  "print what `git describe --contains` prints", NULL },
	{ "name-rev", 0, POPT_ARG_NONE, &opt.name_rev, 0,
	  "as `git name-rev --tags --name-only` prints", NULL },
	{ "tags-containing", 0, POPT_ARG_NONE, &opt.tags_containing, 0,
	  "every release containing it, by series", NULL },
	{ "first-release", 0, POPT_ARG_NONE, &opt.first_release, 0,
	  "only the first release (version order)", NULL },
	{ "match", 0, POPT_ARG_STRING, &opt.match, 0,
	  "tags that are releases (default " DEFAULT_RELEASE_GLOB ")", "GLOB" },
	{ "stdin", 0, POPT_ARG_NONE, &opt.use_stdin, 0, "revs from standard input", NULL },
	{ "index", 0, POPT_ARG_NONE, &opt.index, 0,
	  "build or refresh the release index", NULL },
	{ "no-index", 0, POPT_ARG_NONE, &opt.no_index, 0,
	  "neither read nor write the release index", NULL },
	POPT_TABLEEND
};

static struct poptOption triage_options[] = {
	{ "triage", 0, POPT_ARG_NONE, &opt.triage, 0,
	  "is the fix for stable? introducers, verdict", NULL },
	{ "evidence", 0, POPT_ARG_STRING, &arg.evidence, 0,
	  "what may decide: message|blame|text|all", "MODE" },
	{ "cve-json", 0, POPT_ARG_NONE, &opt.cve_json, 0,
	  "CVE JSON 5 \"affected\" entries, as the CNA's", NULL },
	{ "dyad", 0, POPT_ARG_NONE, &opt.dyad, 0,
	  "the CNA's dyad lines (vulnerable:fixed pairs)", NULL },
	{ "cve-record", 0, POPT_ARG_NONE, &opt.cve_record, 0,
	  "a whole CVE JSON 5 record a fix, a line each", NULL },
	{ "cve-id", 0, POPT_ARG_STRING, &opt.cve_id, 0,
	  "--cve-record's id (default CVE-0000-0000)", "CVE-YYYY-NNNN" },
	{ "cna-org-id", 0, POPT_ARG_STRING, &opt.cna_org_id, 0,
	  "--cve-record's orgId (the kernel CNA's)", "UUID" },
	{ "cve-repo", 0, POPT_ARG_STRING, &opt.cve_repo, 0,
	  "the CVE entries' repo (default: origin's URL)", "URL" },
	{ "introducer", 0, POPT_ARG_ARGV, &opt.introducers, 0,
	  "a given introducer (repeat; none: the root)", "SHA" },
	{ "patch", 0, POPT_ARG_STRING, &opt.patch, 0,
	  "mail, mbox or diff ('-': stdin): its commit", "FILE" },
	{ "range", 0, POPT_ARG_STRING, &opt.range, 0, "look for the patch in A..B only", "A..B" },
	{ "patch-id", 0, POPT_ARG_NONE, &opt.patch_id, 0,
	  "patch-ids as `git patch-id --stable` prints", NULL },
	POPT_TABLEEND
};

static struct poptOption backport_options[] = {
	{ "backport", 0, POPT_ARG_NONE, &opt.backport, 0,
	  "does the fix apply to --onto, after what", NULL },
	{ "onto", 0, POPT_ARG_STRING, &opt.onto, 0, "the release to backport to", "REV" },
	POPT_TABLEEND
};

static struct poptOption boot_options[] = {
	{ "verify-boot", 0, POPT_ARG_NONE, &opt.verify_boot, 0,
	  "boot the triage's kernels with and without the fix", NULL },
	{ "candidate", 0, POPT_ARG_ARGV, &opt.candidates, 0,
	  "boot this state instead (a rev, then patches or commits)", "NAME=ITEMS" },
	{ "expect", 0, POPT_ARG_ARGV, &opt.expects, 0,
	  "what a --candidate must show: pass or CHECK:ERRNO", "NAME=RESULT" },
	{ "patch-series", 0, POPT_ARG_STRING, &opt.patch_series, 0,
	  "the model's patches for a tree without the fix's history", "DIR" },
	{ "max-states", 0, POPT_ARG_STRING, &arg.max_states, 0,
	  "the plan boots at most N states (default 24)", "N" },
	{ "releases", 0, POPT_ARG_STRING, &arg.releases, 0,
	  "all: every affected release, no plan", "all" },
	{ "dry-run", 0, POPT_ARG_NONE, &opt.dry_run, 0,
	  "print the plan, build and boot nothing", NULL },
	{ "measure", 0, POPT_ARG_NONE, &opt.measure, 0,
	  "bisect where boots and text disagree", NULL },
	{ "affected-from", 0, POPT_ARG_STRING, &arg.affected_from, 0,
	  "--cve-json's range: text or boot", "FROM" },
	POPT_TABLEEND
};

static struct poptOption repro_options[] = {
	{ "reproducer", 0, POPT_ARG_STRING, &opt.reproducer, 0,
	  "C, #!/bin/sh or static ELF, or a shipped one's name (none: boot test)", "FILE" },
	{ "bug", 0, POPT_ARG_STRING, &opt.bug, 0,
	  "exit, oops, hang, boot, regex:RE or CHECK:ERRNO", "KIND" },
	{ "guest-file", 0, POPT_ARG_ARGV, &opt.guest_files, 0,
	  "a file for the guest (default /tmp/NAME)", "SRC[:DEST]" },
	{ "repro-timeout", 0, POPT_ARG_INT, &opt.repro_timeout, 0,
	  "seconds the guest gives it (default 60)", "N" },
	{ "config", 0, POPT_ARG_ARGV, &opt.configs, 0,
	  "CONFIG_X=V, a fragment file or a guest/configs profile", "FRAGMENT" },
	{ "strict-config", 0, POPT_ARG_NONE, &opt.strict_config, 0,
	  "an option that does not stick is an error", NULL },
	POPT_TABLEEND
};

static struct poptOption bisect_options[] = {
	{ "bisect-boot", 0, POPT_ARG_NONE, &opt.bisect_boot, 0,
	  "find the first bad release, then commit, by booting", NULL },
	{ "good", 0, POPT_ARG_STRING, &opt.good, 0, "a rev where the test passes", "REV" },
	{ "bad", 0, POPT_ARG_STRING, &opt.bad, 0, "a later rev where it fails", "REV" },
	{ "fix", 0, POPT_ARG_STRING, &opt.fix, 0,
	  "a rev after --bad where it passes again: find the fix", "REV" },
	{ "test", 0, POPT_ARG_STRING, &opt.tests, 0,
	  "the guest checks that decide (default all)", "CHECKS" },
	{ "commits", 0, POPT_ARG_NONE, &opt.commits, 0,
	  "then bisect the commits between the releases", NULL },
	{ "repeat", 0, POPT_ARG_INT, &opt.repeat, 0, "boots per step (default 1)", "N" },
	{ "resume", 0, POPT_ARG_NONE, &opt.resume, 0, "reuse an interrupted run's log", NULL },
	POPT_TABLEEND
};

static struct poptOption audit_options[] = {
	{ "audit", 0, POPT_ARG_STRING, &opt.audit, 0,
	  "every commit of A..B against stable series", "A..B" },
	{ "series", 0, POPT_ARG_STRING, &opt.series, 0,
	  "stable series (--audit, --bisect-boot)", "X.Y,..." },
	{ "only", 0, POPT_ARG_STRING, &opt.only, 0,
	  "list missing, possible, present, unneeded or all commits",
	  "WHICH" },
	POPT_TABLEEND
};

static struct poptOption lab_options[] = {
	{ "kernel-tree", 0, POPT_ARG_STRING, &opt.kernel_tree, 0,
	  "kernel source to build (default Debian's linux-source)", "DIR" },
	{ "accel", 0, POPT_ARG_STRING, &opt.accel, 0,
	  "kvm or tcg (default kvm where usable)", "ACCEL" },
	{ "boot-timeout", 0, POPT_ARG_INT, &opt.boot_timeout, 0,
	  "seconds before QEMU is killed (default 120)", "N" },
	{ "keep", 0, POPT_ARG_NONE, &opt.keep, 0, "keep the built kernel images", NULL },
	{ "jobs", 'j', POPT_ARG_INT, &opt.jobs, 0,
	  "make -jN (default: one per CPU; with $DISTCC_HOSTS: distcc)", "N" },
	{ "prepare-tree", 0, POPT_ARG_NONE, &opt.prepare_tree, 0,
	  "import the kernel tree into the cache, say where", NULL },
	{ "cache-clean", 0, POPT_ARG_NONE, &opt.cache_clean, 0,
	  "remove built images and boot logs", NULL },
	POPT_TABLEEND
};

static struct poptOption options[] = {
	{ NULL, 'C', POPT_ARG_STRING, &opt.dir, 0,
	  "repository (default: as git finds it)", "DIR" },
	{ "json", 0, POPT_ARG_NONE, &opt.json, 0, "JSON output (schema: man patchver)", NULL },
	{ "version", 'V', POPT_ARG_NONE, &opt.version, 0, "print the version", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, query_options, 0,
	  "Query (patchver [--describe|...] REV...):", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, triage_options, 0, "Triage:", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, backport_options, 0,
	  "Backport (--backport FIX --onto REV):", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, boot_options, 0, "Boot (--verify-boot FIX):", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, bisect_options, 0, "Bisect (--bisect-boot):", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, repro_options, 0,
	  "Reproducer (boot, bisect):", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, audit_options, 0, "Audit:", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, lab_options, 0,
	  "Kernels and cache (boot, bisect):", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

/*
 * --series DIR with --verify-boot was the model's patch series before it
 * had a name of its own: still taken, with a note.
 */
static void deprecated_series(void)
{
	if (!opt.verify_boot || !opt.series || opt.patch_series)
		return;
	fprintf(stderr, "patchver: --series DIR with --verify-boot is deprecated: "
		"use --patch-series DIR\n");
	opt.patch_series = opt.series;
	opt.series = NULL;
}

/* --introducer: one fix's triage at a time; "none" alone. */
static int check_introducers(const struct command_line *cl)
{
	size_t n = 0;

	for (char **p = opt.introducers; p && *p; p++, n++)
		if (!**p)
			return error(EXIT_USAGE, "--introducer: an empty id");
	if (!n)
		return 0;
	if (opt.use_stdin)
		return error(EXIT_USAGE, "--introducer with --stdin: give each fix's introducers on "
			     "its line, after the fix");
	if ((!opt.triage && !opt.verify_boot) || opt.patch || opt.patch_id)
		return error(EXIT_USAGE, "--introducer goes with --triage or --verify-boot of one "
			     "commit");
	if (opt.candidates)
		return error(EXIT_USAGE, "--introducer places the triage's releases; --candidate "
			     "names its own states");
	if (cl->nrevs != 1)
		return error(EXIT_USAGE, "--introducer names the introducers of one fix: give one "
			     "revision, not %zu", cl->nrevs);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(opt.introducers[i], "none") && n > 1)
			return error(EXIT_USAGE, "--introducer none says the bug is as old as the "
				     "history: no other introducer goes with it");
	return 0;
}

static int check_options(struct command_line *cl)
{
	size_t nrevs = cl->nrevs;
	int ret;

	if ((ret = pick_mode(&cl->mode)) || (ret = check_backport_options(cl)) ||
	    (ret = check_bisect_options(nrevs)) ||
	    (ret = check_audit_options(nrevs)) || (ret = check_range("--range", opt.range)) ||
	    (ret = check_range("--audit", opt.audit)))
		return ret;
	if (opt.index && (opt.no_index || nrevs || opt.use_stdin || opt.patch || opt.triage ||
			  opt.verify_boot || opt.bisect_boot || opt.audit || opt.patch_id))
		return error(EXIT_USAGE, "--index takes no revisions and no other mode%s",
			     opt.no_index ? " (and not --no-index)" : "");
	if (!nrevs && !opt.use_stdin && !opt.patch && !(opt.verify_boot && opt.candidates) &&
	    !opt.bisect_boot && !opt.audit && !opt.index)
		return error(EXIT_USAGE, "no revision given (see patchver --help)");
	if ((nrevs && opt.use_stdin) || (opt.patch && (nrevs || opt.use_stdin)))
		return error(EXIT_USAGE, "give revisions as arguments, with --stdin, or --patch, "
			     "not several");
	if (opt.verify_boot && (nrevs > 1 || (!nrevs && !opt.candidates) || opt.patch ||
				opt.triage || opt.patch_id || cl->mode != REPORT_FULL ||
				opt.use_stdin))
		return error(EXIT_USAGE, "--verify-boot takes one revision, the fix "
			     "(none with --candidate)");
	if ((opt.candidates || opt.expects) && !opt.verify_boot)
		return error(EXIT_USAGE, "--candidate and --expect go with --verify-boot");
	if ((ret = check_lab_options()) || (ret = check_plan_options()))
		return ret;
	if (opt.expects && !opt.candidates)
		return error(EXIT_USAGE, "--expect names a --candidate; for the triage's "
			     "candidates, --bug says how the bug shows");
	if (opt.accel && strcmp(opt.accel, "kvm") && strcmp(opt.accel, "tcg"))
		return error(EXIT_USAGE, "--accel: '%s' is neither kvm nor tcg", opt.accel);
	if ((opt.triage || opt.patch_id) && (cl->mode != REPORT_FULL || (opt.use_stdin &&
									     opt.patch_id)))
		return error(EXIT_USAGE, "--triage takes revisions, --stdin or --patch, "
			     "--patch-id revisions or --patch, and no other mode");
	if ((arg.evidence || opt.cve_json) && !opt.triage && !(opt.cve_json && opt.verify_boot))
		return error(EXIT_USAGE, "%s goes with --triage%s", arg.evidence ? "--evidence" :
			     "--cve-json", arg.evidence ? "" : " or --verify-boot");
	if (opt.cve_repo && !opt.cve_json && !opt.cve_record)
		return error(EXIT_USAGE, "--cve-repo names --cve-json's repository: give --cve-json");
	if (opt.dyad && (!opt.triage || opt.json || opt.cve_json || opt.patch_id))
		return error(EXIT_USAGE, "--dyad writes dyad's lines for --triage: give --triage, "
			     "without --json, --cve-json or --patch-id");
	if ((ret = check_cve_record(cl)))
		return ret;
	if (opt.cve_repo && !*opt.cve_repo)
		return error(EXIT_USAGE, "--cve-repo: an empty URL");
	if ((ret = check_introducers(cl)))
		return ret;
	return parse_evidence();
}

/* The one place the job is read off the options (they go together: checked above). */
static enum job job_of_options(void)
{
	if (opt.index)
		return JOB_INDEX;
	if (opt.verify_boot)
		return JOB_VERIFY_BOOT;
	if (opt.bisect_boot)
		return JOB_BISECT_BOOT;
	if (opt.audit)
		return JOB_AUDIT;
	if (opt.backport)
		return JOB_BACKPORT;
	if (opt.patch || opt.triage || opt.patch_id)
		return JOB_TRIAGE;
	return opt.use_stdin ? JOB_NAMES_STDIN : JOB_NAMES;
}

int options_parse(struct command_line *cl, int argc, const char **argv)
{
	int rc;

	memset(cl, 0, sizeof(*cl));
	cl->ctx = poptGetContext("patchver", argc, argv, options, 0);
	poptSetOtherOptionHelp(cl->ctx, "[OPTION...] [REV...]");
	while ((rc = poptGetNextOpt(cl->ctx)) > 0)
		;
	if (rc < -1)
		return error(EXIT_USAGE, "%s: %s (see patchver --help)",
			     poptBadOption(cl->ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
	deprecated_series();
	cl->revs = poptGetArgs(cl->ctx);
	while (cl->revs && cl->revs[cl->nrevs])
		cl->nrevs++;
	/* these take the rest as it is */
	if (opt.version || opt.cache_clean || opt.prepare_tree) {
		cl->job = opt.version ? JOB_VERSION : opt.cache_clean ? JOB_CACHE_CLEAN :
			  JOB_PREPARE_TREE;
		return 0;
	}
	if ((rc = check_options(cl)))
		return rc;
	cl->job = job_of_options();
	return 0;
}

void options_free(struct command_line *cl)
{
	poptFreeContext(cl->ctx);
	free(opt.dir);
	free(opt.match);
	free(opt.patch);
	free(opt.range);
	free(arg.evidence);
	free(opt.kernel_tree);
	free(opt.accel);
	free(opt.series);
	free(opt.patch_series);
	free(opt.bug);
	free(opt.good);
	free(opt.bad);
	free(opt.fix);
	free(opt.tests);
	free(opt.audit);
	free(opt.only);
	free(opt.onto);
	strv_free(opt.candidates);
	strv_free(opt.introducers);
	strv_free(opt.expects);
	free(opt.reproducer);
	free(arg.max_states);
	free(arg.releases);
	free(arg.affected_from);
	strv_free(opt.guest_files);
	strv_free(opt.configs);
}
