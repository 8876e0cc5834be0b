/*
 * Everything the quick path does not answer (dispatch.h): the history
 * opened through libgit2, and the mode the options ask for run on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/lab/lab.h"
#include "patchver/cli/audit_report.h"
#include "patchver/cli/backport_report.h"
#include "patchver/cli/bisect_report.h"
#include "patchver/cli/boot_record.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/dispatch.h"
#include "patchver/cli/index_report.h"
#include "patchver/cli/query_history.h"
#include "patchver/cli/triage_report.h"
#include "patchver/cli/verify_report.h"

#define LAZY_REVS 16    /* more revs than this: one load of the history serves them all */

static enum history_index index_mode(const struct options *o, enum job job)
{
	if (o->no_index)
		return HISTORY_INDEX_OFF;
	/* one query answers without one: building costs more than the query */
	if (job == JOB_INDEX || job == JOB_NAMES_STDIN || job_reads_everything(job))
		return HISTORY_INDEX_BUILD;
	return HISTORY_INDEX_USE;
}

static int run_triage(const struct options *o, struct history *h, const char **revs,
		      size_t nrevs)
{
	struct triage_opts t = { o->json || o->cve_json, o->triage, o->patch_id, o->range,
				 o->evidence, o->cve_json, o->cve_repo, o->dyad, o->cve_record,
				 o->cve_id, o->cna_org_id, o->introducers };

	if (o->patch)
		return triage_patch_file(h, &t, o->patch);
	if (o->use_stdin)
		return triage_stdin(h, &t, stdin);
	return triage_revs(h, &t, revs, nrevs);
}

/* The lab machine as the options describe it: tree, accelerator, boots, reproducer. */
static struct lab_opts lab_of_options(const struct options *o)
{
	struct repro_opts r = { o->reproducer, o->guest_files, o->repro_timeout, o->bug,
				o->configs, o->strict_config };
	struct lab_opts l = { 0 };

	l.kernel_tree = o->kernel_tree;
	l.accel = o->accel;
	l.timeout = o->boot_timeout;
	l.keep = o->keep;
	l.jobs = o->jobs;
	l.quiet = o->json || o->cve_json;   /* JSON: stderr keeps errors and warnings */
	l.repro = r;
	l.booted = boot_record_write;
	l.timed = boot_record_time;
	l.recorded = boot_record_median;
	return l;
}

static int run_verify(const struct options *o, struct history *h, const char *fix)
{
	struct verify_opts v = {
		.lab = lab_of_options(o),
		.series_dir = o->patch_series,
		.candidates = o->candidates, .expects = o->expects,
		.max_states = o->max_states, .all_releases = o->all_releases,
		.dry_run = o->dry_run, .measure = o->measure, .measure_ask = "--measure",
		.introducers = o->introducers,
	};

	if (o->cve_json)
		return verify_report_cve(h, fix, &v, o->affected_from_boot, o->cve_repo);
	return verify_report(h, fix, &v, o->json);
}

static int run_bisect(const struct options *o, struct history *h)
{
	struct bisect_opts b = {
		.lab = lab_of_options(o),
		.good = o->good, .bad = o->bad, .fix = o->fix,
		.tests = o->tests, .series = o->series, .commits = o->commits,
		.repeat = o->repeat ? o->repeat : 1,
		.resume = o->resume, .dry_run = o->dry_run,
	};

	return bisect_report(h, &b, o->json);
}

/*
 * PATCHVER_AUDIT_ALL=1 judges "needed" for the commits that are no fix
 * too, so that bench/picks.py can fit the classes on every commit.
 */
static int run_audit(const struct options *o, struct history *h)
{
	const char *all = getenv("PATCHVER_AUDIT_ALL");
	struct audit_report_opts a = { o->json, o->audit, o->series, o->only,
				       all && !strcmp(all, "1") };
	return audit_report(h, &a);
}

static int prepare_tree(const struct options *o)
{
	struct lab_opts lo = { 0 };
	int ret;

	lo.kernel_tree = o->kernel_tree;
	gitstart_init();
	ret = verify_report_prepare_tree(&lo);
	gitstart_shutdown();
	return ret;
}

/* The history's job: the index, a lab run, the audit, a triage or names. */
static int run_job(const struct options *o, const struct command_line *cl, struct history *h)
{
	struct report_opts ropts = { cl->mode, o->json, o->match };

	switch (cl->job) {
	case JOB_INDEX:
		return report_index(h, o->json);
	case JOB_VERIFY_BOOT:
		return run_verify(o, h, cl->nrevs ? cl->revs[0] : NULL);
	case JOB_BISECT_BOOT:
		return run_bisect(o, h);
	case JOB_AUDIT:
		return run_audit(o, h);
	case JOB_TRIAGE:
		return run_triage(o, h, cl->revs, cl->nrevs);
	case JOB_BACKPORT: {
		struct backport_report_opts b = { o->json, cl->nrevs ? cl->revs[0] : NULL,
						  o->patch, o->onto };
		return backport_report(h, &b);
	}
	case JOB_NAMES_STDIN:
		return report_stdin(h, &ropts, stdin);
	case JOB_NAMES:
		return report_revs(h, &ropts, cl->revs, cl->nrevs);
	case JOB_VERSION:
	case JOB_CACHE_CLEAN:
	case JOB_PREPARE_TREE:
		break;
	}
	return error(EXIT_INTERNAL, "job %d reached the history", (int)cl->job);
}

int patchver_dispatch(const struct options *o, const struct command_line *cl)
{
	struct history_opts hopts = { 0 };
	struct history h;
	int ret;

	diag_install();
	if (cl->job == JOB_CACHE_CLEAN)
		return diag_exit(verify_report_cache_clean());
	if (cl->job == JOB_PREPARE_TREE)
		return diag_exit(prepare_tree(o));
	hopts.path = o->dir;
	hopts.release_glob = o->match ? o->match : DEFAULT_RELEASE_GLOB;
	hopts.index = index_mode(o, cl->job);
	/*
	 * a few names: git's cut walk reads less than the whole history; the
	 * full report's stable backports need every stable line's commits
	 */
	hopts.lazy_ok = cl->job == JOB_NAMES && cl->nrevs <= LAZY_REVS && cl->mode != REPORT_FULL;
	hopts.scan_pack = cl->job == JOB_AUDIT;
	/* an index built now keeps the backports found by patch-id too */
	hopts.patch_id = backport_patch_id;
	gitstart_init();
	if ((ret = history_open(&h, &hopts)) == 0)
		ret = h.tags.nr ? run_job(o, cl, &h) :
		      error(EXIT_NO_TAGS, "repository '%s' has no tags", o->dir ? o->dir : ".");
	history_close(&h);
	gitstart_shutdown();
	return diag_exit(ret);
}
