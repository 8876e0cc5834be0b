/*
 * --measure: where the bug shows, by booting, beside where the text puts it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/measure.h"

void measure_shape(const int *seen, size_t n, int control_seen, struct measure_shape *s)
{
	size_t known = 0, bugs = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		known += seen[i] >= 0;
		if (seen[i] == 1 && !bugs++)
			s->first_bug = i;
		if (seen[i] == 1)
			s->last_bug = i;
	}
	if (!known) {
		s->kind = MEASURE_NOTHING_BOOTED;
		return;
	}
	if (control_seen == 1) {
		s->kind = MEASURE_CONTROL;
		return;
	}
	if (!bugs) {
		s->kind = MEASURE_NEVER;
		return;
	}
	for (size_t i = s->first_bug; i < s->last_bug; i++)
		if (seen[i] == 0) {
			s->kind = MEASURE_NON_MONOTONIC;
			return;
		}
	for (size_t i = 0; i < n; i++) {
		s->starts_later |= i < s->first_bug && seen[i] == 0;
		s->stops_earlier |= i > s->last_bug && seen[i] == 0;
	}
	s->kind = s->starts_later || s->stops_earlier ? MEASURE_BOUNDED : MEASURE_AGREE;
}

static const char *tag_name(const struct history *h, uint32_t tag)
{
	return h->tags.v[tag].shortname;
}

/* The mainline release before tag (not stable), or PV_NONE. */
static uint32_t release_before(const struct history *h, uint32_t tag)
{
	const struct tag_table *tt = &h->tags;
	uint32_t prev = PV_NONE;

	for (size_t i = 0; i < tt->nreleases; i++) {
		uint32_t r = tt->releases[i];
		if (tags_cmp_version(tt, r, tag) >= 0)
			break;
		if (!kver_is_stable(&tt->v[r].ver))
			prev = r;
	}
	return prev;
}

/* "v1 bug, v2 none, v3 bug": the answers that make a shape non-monotonic. */
static char *answers(const struct history *h, const struct measure_input *in)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < in->n; i++)
		if (in->states[i].seen >= 0)
			sbuf_addf(&sb, "%s%s %s", sb.len ? ", " : "", tag_name(h, in->states[i].tag),
				  in->states[i].seen ? "bug" : "none");
	return sb.buf ? sb.buf : xstrdup("");
}

/* The nearest state before (or after) index i that ran and did not show the bug. */
static uint32_t quiet_neighbour(const struct measure_input *in, size_t i, bool before)
{
	if (before) {
		while (i-- > 0)
			if (in->states[i].seen == 0)
				return in->states[i].tag;
	} else {
		while (++i < in->n)
			if (in->states[i].seen == 0)
				return in->states[i].tag;
	}
	return PV_NONE;
}

static void say_commit(struct sbuf *sb, const struct history *h, const char *what, uint32_t c)
{
	char *subject = history_subject(h, c);

	sbuf_addf(sb, " (%s %.12s: %s)", what, git_oid_tostr_s(&h->dag.oids[c]), subject);
	free(subject);
}

/* A boundary's confirmation, or why it is not one: said after the line. */
static void say_boundary(struct sbuf *sb, const struct bisect_boot_result *r, const char *which)
{
	const struct bisect_finding *f = &r->reg;

	if (f->confirmed)
		sbuf_addf(sb, "; %s confirmed: %d/%d boots with it, %d/%d with it reverted", which,
			  f->confirm_new, f->confirm_n, f->confirm_old, f->confirm_n);
	else if (f->ambiguous)
		sbuf_addf(sb, "; %s: %zu candidates (skipped states), not one", which,
			  f->ncandidates);
	else if (f->confirm_why)
		sbuf_addf(sb, "; %s not confirmed: %s", which, f->confirm_why);
}

static void compose(const struct history *h, const struct measure_input *in, struct measure *m)
{
	struct sbuf sb = SBUF_INIT;
	const struct measure_shape *s = &m->shape;

	sbuf_addf(&sb, "[%s] the bug shows from %s", m->label, tag_name(h, m->first));
	if (m->first_commit != PV_NONE)
		say_commit(&sb, h, "first bad commit", m->first_commit);
	else if (s->starts_later)
		sbuf_addf(&sb, " at the latest (%s did not show it%s%s%s)",
			  tag_name(h, quiet_neighbour(in, s->first_bug, true)),
			  in->narrow_ask ? "; " : "", in->narrow_ask ? in->narrow_ask : "",
			  in->narrow_ask ? " finds where it starts" : "");
	if (!s->starts_later && s->first_bug == 0)
		sbuf_addf(&sb, ", as the text says");
	else if (!s->starts_later)
		sbuf_addf(&sb, " (the text says from %s, which could not be built or booted)",
			  tag_name(h, m->text_first));
	if (in->control_tag != PV_NONE && in->control_seen == 0)
		sbuf_addf(&sb, " (the control %s does not show it)", tag_name(h, in->control_tag));
	if (!s->starts_later && in->culprit != PV_NONE)
		sbuf_addf(&sb, "; the message names %.12s (%s)",
			  git_oid_tostr_s(&h->dag.oids[in->culprit]),
			  in->culprit_release != PV_NONE ? tag_name(h, in->culprit_release) : "?");
	if (s->starts_later) {
		uint32_t before = release_before(h, m->first);
		if (in->culprit != PV_NONE)
			sbuf_addf(&sb, "; the message names %.12s (%s)",
				  git_oid_tostr_s(&h->dag.oids[in->culprit]),
				  in->culprit_release != PV_NONE ? tag_name(h, in->culprit_release) : "?");
		else
			sbuf_addf(&sb, "; the text says from %s", tag_name(h, m->text_first));
		if (before == m->text_first)
			sbuf_addf(&sb, ": %s carries its code but did not show this reproducer's bug",
				  tag_name(h, before));
		else if (before != PV_NONE && tags_cmp_version(&h->tags, before, m->text_first) > 0)
			sbuf_addf(&sb, ": releases %s … %s carry its code but did not show this "
				  "reproducer's bug", tag_name(h, m->text_first), tag_name(h, before));
	}
	if (s->stops_earlier && m->stop_tag != PV_NONE) {
		sbuf_addf(&sb, "; it no longer shows from %s", tag_name(h, m->stop_tag));
		if (m->stop_commit != PV_NONE)
			say_commit(&sb, h, "commit", m->stop_commit);
		sbuf_addf(&sb, ", before the fix");
	} else if (s->stops_earlier) {
		sbuf_addf(&sb, "; it did not show in %s, before the fix%s%s%s",
			  tag_name(h, quiet_neighbour(in, s->last_bug, false)),
			  in->narrow_ask ? " (" : "", in->narrow_ask ? in->narrow_ask : "",
			  in->narrow_ask ? " finds where it stops)" : "");
	}
	if (m->have_start)
		say_boundary(&sb, &m->start, "start");
	if (m->have_stop)
		say_boundary(&sb, &m->stop, "stop");
	m->line = sb.buf;
}

static int narrow(struct history *h, struct lab *l, uint32_t old, uint32_t new, bool fix_phase,
		  struct bisect_boot_result *r, bool *have)
{
	struct bisect_boundary q = { old, new, fix_phase };
	int ret;

	if (old == PV_NONE || new == PV_NONE)
		return 0;
	lab_progress(l, "measure: the bug %s between %s and %s: both booted again, then bisected",
		     fix_phase ? "stops" : "starts", tag_name(h, old), tag_name(h, new));
	ret = bisect_boot_boundary(h, l, &q, NULL, r);
	*have = true;
	/* a boundary that does not hold is said in the finding; the run goes on */
	return ret == PV_EUNCONFIRMED || ret == PV_EINVALID ? 0 : ret;
}

/* A boundary's answer, when the search found one release and the boots confirm it. */
static bool found(const struct bisect_boot_result *r)
{
	return r->reg.done && !r->reg.ambiguous && !r->reg.flaky && r->reg.confirmed &&
	       r->reg.first_new_tag != PV_NONE;
}

int measure_run(struct history *h, struct lab *l, const struct measure_input *in,
		struct measure *m)
{
	int *seen = xcalloc(in->n + 1, sizeof(*seen));
	struct measure_shape *s = &m->shape;
	char *list;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->first = m->last = m->first_commit = m->stop_commit = m->stop_tag = PV_NONE;
	m->text_first = in->n ? in->states[0].tag : PV_NONE;
	m->text_last = in->n ? in->states[in->n - 1].tag : PV_NONE;
	for (size_t i = 0; i < in->n; i++)
		seen[i] = in->states[i].seen;
	measure_shape(seen, in->n, in->control_seen, s);
	free(seen);
	switch (s->kind) {
	case MEASURE_NOTHING_BOOTED:
		m->note = xstrdup("no affected release booted: nothing measured");
		return 0;
	case MEASURE_NEVER:
		m->note = xstrdup("the bug never showed: nothing measured");
		return 0;
	case MEASURE_CONTROL:
		m->note = xstrfmt("the bug shows on the control %s too: this reproducer shows "
				  "something older than the text's culprit; no range claimed",
				  tag_name(h, in->control_tag));
		return 0;
	case MEASURE_NON_MONOTONIC:
		list = answers(h, in);
		m->note = xstrfmt("the bug shows, stops and shows again (%s): not narrowed", list);
		free(list);
		return 0;
	default:
		break;
	}
	m->first = in->states[s->first_bug].tag;
	m->last = in->states[s->last_bug].tag;
	if (s->stops_earlier)
		m->stop_tag = quiet_neighbour(in, s->last_bug, false);
	if (in->narrow && s->starts_later) {
		ret = narrow(h, l, quiet_neighbour(in, s->first_bug, true), m->first, false, &m->start,
			     &m->have_start);
		if (!ret && found(&m->start)) {
			m->first = m->start.reg.first_new_tag;
			m->first_commit = m->start.reg.commit;
		}
	}
	if (!ret && in->narrow && s->stops_earlier) {
		ret = narrow(h, l, m->last, m->stop_tag, true, &m->stop, &m->have_stop);
		if (!ret && found(&m->stop)) {
			m->stop_tag = m->stop.reg.first_new_tag;
			m->stop_commit = m->stop.reg.commit;
		}
	}
	m->narrowed = m->have_start || m->have_stop;
	m->builds = m->start.builds + m->stop.builds;
	m->boots = m->start.boots + m->stop.boots;
	m->label = xstrdup(s->kind == MEASURE_AGREE ? "confirmed by boot" : "measured by boot");
	compose(h, in, m);
	return ret;
}

bool measure_covers(const struct history *h, const struct measure *m, uint32_t tag)
{
	const struct tag_table *tt = &h->tags;

	if (m->first == PV_NONE)
		return true;
	if (tags_cmp_version(tt, tag, m->first) < 0)
		return false;
	return m->stop_tag != PV_NONE ? tags_cmp_version(tt, tag, m->stop_tag) < 0 : true;
}

void measure_free(struct measure *m)
{
	bisect_boot_result_free(&m->start);
	bisect_boot_result_free(&m->stop);
	free(m->label);
	free(m->line);
	free(m->note);
	memset(m, 0, sizeof(*m));
}
