/*
 * A kernel-shaped history: release cycles of merge window (topic branches,
 * nested topics, an octopus), weekly rc tags and a final tag, stable
 * branches carrying backports of the next window's fixes, plus every odd
 * tag git must cope with (tree and blob tags, a tag of a tag, lightweight
 * tags, tags without a tagger date, non-release tags) and clock skew.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define DAY 86400
#define NFIX_MAX 4096

static const struct person linus = { "Linus Torvalds", "torvalds@linux-foundation.org", 0 };
static const struct person greg = { "Greg Kroah-Hartman", "gregkh@suse.de", 0 };
static const struct person devs[] = {
	{ "Al Viro", "viro@zeniv.linux.org.uk", 0 },
	{ "Jan Kara", "jack@suse.cz", 0 },
	{ "Andrew Morton", "akpm@linux-foundation.org", 0 },
	{ "David S. Miller", "davem@davemloft.net", 0 },
	{ "Ingo Molnar", "mingo@elte.hu", 0 },
	{ "Takashi Iwai", "tiwai@suse.de", 0 },
	{ "J\xc3\xb6rn Engel", "joern@logfs.org", 0 },
	{ "Theodore Ts'o", "tytso@mit.edu", 0 },
};
#define NDEVS (sizeof(devs) / sizeof(devs[0]))

static const char *paths[] = {
	"fs/namei.c", "fs/open.c", "fs/ext3/inode.c", "fs/ext4/super.c",
	"mm/mmap.c", "mm/slab.c", "kernel/sched.c", "kernel/fork.c",
	"net/core/dev.c", "net/ipv4/tcp.c", "drivers/net/e1000.c",
	"drivers/usb/core/hub.c", "sound/pci/hda.c", "include/linux/fs.h",
	"arch/x86/kernel/setup.c", "Makefile",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))
#define LINES 40

struct fix {
	git_oid oid;
	int file, line;
	const char *text, *subject;
};

struct kgen {
	struct gen *g;
	struct branch master;
	struct fix fixes[NFIX_MAX];
	size_t nfixes;
	int skews;
};

static const struct person *dev(struct gen *g)
{
	return &devs[gen_rand(g) % NDEVS];
}

/* One ordinary change: rewrite a random line of a random file. */
static git_oid change(struct kgen *k, struct branch *b, const char *what,
		      int64_t date, bool is_fix)
{
	struct gen *g = k->g;
	int fi = gen_range(g, 0, NPATHS - 1), li = gen_range(g, 0, LINES - 1);
	const char *text = gen_printf("%s: %s line %d rev %zu", paths[fi], what, li,
				      g->ncommits);
	const char *subject = gen_printf("%s: %s %s", paths[fi], is_fix ? "fix" : "update",
					 what);
	const struct person *a = dev(g);
	int64_t cdate = date;
	git_oid oid;

	/* about one commit in 150 is dated days before its parent */
	if (b->has_head && gen_range(g, 0, 149) == 0) {
		cdate = b->last_date - gen_range(g, 2, 5) * DAY;
		k->skews++;
	}
	file_set_line(state_file(&b->st, paths[fi]), (size_t)li, text);
	oid = gen_commit(g, b, gen_printf("%s\n\nChange %s.\n%s\nSigned-off-by: %s <%s>\n",
					  subject, what,
					  is_fix ? "\nCc: stable@kernel.org\n" : "",
					  a->name, a->email),
			 a, cdate - 3600, a, cdate, NULL, 0);
	if (is_fix && k->nfixes < NFIX_MAX) {
		struct fix *f = &k->fixes[k->nfixes++];
		f->oid = oid;
		f->file = fi;
		f->line = li;
		f->text = text;
		f->subject = subject;
	}
	return oid;
}

static void topic(struct kgen *k, struct branch *t, const char *name, int len,
		  int64_t from, int64_t to, bool nested)
{
	struct gen *g = k->g;
	int64_t step = (to - from) / (len + 1);

	branch_fork(t, name, &k->master);
	for (int i = 0; i < len; i++) {
		change(k, t, gen_printf("%s %d", name, i), from + step * (i + 1),
		       gen_range(g, 0, 7) == 0);
		if (nested && i == len / 2) {
			struct branch sub, *subp = &sub;
			branch_fork(&sub, gen_printf("%s-sub", name), t);
			for (int s = 0; s < 3; s++)
				change(k, &sub, gen_printf("%s-sub %d", name, s),
				       from + step * (i + 1) + 600 * (s + 1), false);
			gen_merge(g, t, &subp, 1,
				  gen_printf("Merge branch '%s-sub' into %s\n", name, name),
				  dev(g), from + step * (i + 1) + 3000);
		}
	}
}

static const char *version(int minor, int rc)
{
	return rc ? gen_printf("v2.6.%d-rc%d", minor, rc) : gen_printf("v2.6.%d", minor);
}

/* rc and final tags in their many forms */
static void release_tag(struct kgen *k, int cycle, int minor, int rc)
{
	struct gen *g = k->g;
	const char *name = version(minor, rc);
	git_oid *head = &k->master.head;
	int64_t date = k->master.last_date + 3600;

	if (rc && (cycle + rc) % 7 == 0) {
		gen_lightweight(g, name, head);
	} else if (cycle == 0) {
		/* the earliest tags were made without a tagger line */
		git_oid t = gen_tag_object(g, name, head, GIT_OBJECT_COMMIT, NULL, 0,
					   gen_printf("Linux %s\n", name + 1));
		gen_ref(g, gen_printf("refs/tags/%s", name), &t);
		g->ntags++;
	} else if (!rc && cycle == 2) {
		/* a tag of a tag: v2.6.14 -> v2.6.14-pre -> commit */
		git_oid inner = gen_tag_object(g, gen_printf("%s-pre", name), head,
					       GIT_OBJECT_COMMIT, &linus, date - 600,
					       "pre-release\n");
		git_oid outer = gen_tag_object(g, name, &inner, GIT_OBJECT_TAG, &linus,
					       date, gen_printf("Linux %s\n", name + 1));
		gen_ref(g, gen_printf("refs/tags/%s-pre", name), &inner);
		gen_ref(g, gen_printf("refs/tags/%s", name), &outer);
		g->ntags += 2;
	} else {
		gen_tag(g, name, head, &linus, date);
	}
}

static void stable_series(struct kgen *k, const git_oid *base, int minor,
			  size_t fix_from, int64_t start, int cycle)
{
	struct gen *g = k->g;
	struct branch st;
	int ntags = 3 + cycle % 3;
	size_t f = fix_from;

	branch_init(&st, "stable");
	/* fork at the release commit: its state is master's as of the tag */
	st.head = *base;
	st.has_head = true;
	state_copy(&st.st, &k->master.base);
	for (int n = 1; n <= ntags; n++) {
		int64_t date = start + n * 10 * DAY;
		int nb = gen_range(g, 1, 3);
		for (int b = 0; b < nb && f < k->nfixes; b++, f += 2) {
			struct fix *fx = &k->fixes[f];
			const char *up = gen_hex(&fx->oid);
			const char *body;
			int style = (int)((f + (size_t)cycle) % 3);

			file_set_line(state_file(&st.st, paths[fx->file]), (size_t)fx->line,
				      fx->text);
			body = style == 0 ? gen_printf("commit %s upstream.\n\n", up) :
			       style == 1 ? gen_printf("[ Upstream commit %s ]\n\n", up) : "";
			gen_commit(g, &st, gen_printf("%s\n\n%sBackport.\n%s", fx->subject,
						      body, style == 2 ?
						      gen_printf("(cherry picked from commit %s)\n", up) : ""),
				   &devs[0], date - 7200, &greg, date - 3600 + b, NULL, 0);
		}
		if (n == 2 && cycle % 4 == 1)
			gen_lightweight(g, gen_printf("v2.6.%d.%d", minor, n), &st.head);
		else
			gen_tag(g, gen_printf("v2.6.%d.%d", minor, n), &st.head, &greg, date);
	}
	gen_ref(g, gen_printf("refs/heads/linux-2.6.%d.y", minor), &st.head);
}

int gen_kernel(struct gen *g, int cycles, int ntopics, int topic_len)
{
	struct kgen k = { .g = g };
	int64_t t0 = 1110000000;    /* March 2005 */
	int64_t cycle_len = 80 * DAY;
	git_oid tree, blob, prev_final = { { 0 } };
	int prev_minor = 0;

	branch_init(&k.master, "master");
	for (size_t i = 0; i < NPATHS; i++) {
		struct file *f = state_file(&k.master.st, paths[i]);
		for (int l = 0; l < LINES; l++)
			file_set_line(f, (size_t)l, gen_printf("%s line %d", paths[i], l));
	}
	g->now = t0;
	gen_commit(g, &k.master, "Linux-2.6.11\n\nInitial import.\n", &linus, t0,
		   &linus, t0, NULL, 0);
	/* like linux.git's v2.6.11: a tag pointing to a tree, never a release */
	tree = gen_tree(g, &k.master.st);
	{
		git_oid t = gen_tag_object(g, "v2.6.11", &tree, GIT_OBJECT_TREE, NULL, 0,
					   "Linux 2.6.11 tree\n");
		gen_ref(g, "refs/tags/v2.6.11", &t);
		g->ntags++;
	}
	blob = state_file(&k.master.st, "Makefile")->blob;
	gen_lightweight(g, "blob-tag", &blob);

	for (int c = 0; c < cycles; c++) {
		int minor = 12 + c, nrc = 6 + c % 3;
		int64_t start = t0 + (int64_t)c * cycle_len;
		int64_t window = start + 14 * DAY;
		size_t fix_from = k.nfixes;
		struct branch *topics = calloc((size_t)ntopics, sizeof(*topics));
		git_oid release;

		/* topics were developed during the previous cycle */
		for (int t = 0; t < ntopics; t++) {
			int len = gen_range(g, topic_len / 2, topic_len * 3 / 2);
			topic(&k, &topics[t], gen_printf("topic-%d-%d", minor, t), len,
			      start - cycle_len + DAY, start, t % 4 == 1);
		}
		for (int t = 0; t < ntopics; t++) {
			int64_t when = start + (window - start) * (t + 1) / (ntopics + 1);
			if (gen_range(g, 0, 2) == 0)
				change(&k, &k.master, gen_printf("direct %d-%d", minor, t),
				       when - 600, false);
			if (c == 2 && t == 0 && ntopics >= 3) {
				struct branch *three[3] = { &topics[0], &topics[1], &topics[2] };
				gen_merge(g, &k.master, three, 3,
					  "Merge branches 'topic-a', 'topic-b' and 'topic-c'\n",
					  &linus, when);
				t = 2;
				continue;
			}
			{
				struct branch *tp = &topics[t];
				gen_merge(g, &k.master, &tp, 1,
					  gen_printf("Merge branch '%s' of git://git.kernel.org/pub/scm/linux/kernel/git/dev/%d\n",
						     topics[t].name, t), &linus, when);
			}
			if (t % 5 == 4)
				gen_lightweight(g, gen_printf("next-%d-%d", minor, t), &k.master.head);
		}
		release_tag(&k, c, minor, 1);
		for (int rc = 2; rc <= nrc + 1; rc++) {
			int64_t week = window + (rc - 1) * 7 * DAY;
			struct branch fixes, *fp = &fixes;
			int n = gen_range(g, 2, 5);

			struct branch *mp = &k.master;

			/*
			 * Even rcs: the fixes branch forks first and back-merges
			 * master later, so master's commits are reachable both
			 * along the first-parent line and through ^2 of a merge,
			 * the case where name-rev's merge weight decides.
			 */
			for (int i = 0; i < n; i++) {
				change(&k, &k.master, gen_printf("rc%d %d-%d", rc, minor, i),
				       week - (n - i) * 3600 * 8, gen_range(g, 0, 2) == 0);
				/* fork after the first: the fork point must not be tagged */
				if (i == 0 && rc % 2 == 0) {
					branch_fork(&fixes, gen_printf("fixes-%d-%d", minor, rc),
						    &k.master);
					fixes.base_head = k.master.head;
				}
			}
			if (rc % 2 == 0) {
				gen_merge(g, &fixes, &mp, 1, "Merge branch 'master' into fixes\n",
					  dev(g), week - 9000);
				if (rc % 4 == 0)   /* and a merge of one of master's own commits */
					gen_commit(g, &k.master, "Merge tag 'fixes-base' into master\n",
						   &linus, week - 8000, &linus, week - 8000,
						   &fixes.base_head, 1);
			} else {
				branch_fork(&fixes, gen_printf("fixes-%d-%d", minor, rc), &k.master);
			}
			change(&k, &fixes, gen_printf("fixes %d-%d", minor, rc), week - 7200, true);
			change(&k, &fixes, gen_printf("fixes %d-%d b", minor, rc), week - 3600, false);
			gen_merge(g, &k.master, &fp, 1,
				  gen_printf("Merge branch 'fixes' of git://git.kernel.org/pub/scm/linux/kernel/git/fixes-%d\n", rc),
				  &linus, week - 1800);
			if (rc <= nrc)
				release_tag(&k, c, minor, rc);
		}
		change(&k, &k.master, gen_printf("final %d", minor), k.master.last_date + DAY, false);
		gen_commit(g, &k.master, gen_printf("Linux 2.6.%d\n", minor), &linus,
			   k.master.last_date + 600, &linus, k.master.last_date + 600, NULL, 0);
		release_tag(&k, c, minor, 0);
		release = k.master.head;
		if (c % 6 == 3)
			gen_tag(g, gen_printf("ux500-test-%d", minor), &topics[0].head, &devs[2],
				window);
		/* the previous release's stable series, fed by this window's fixes */
		if (c > 0)
			stable_series(&k, &prev_final, prev_minor, fix_from, start, c);
		state_copy(&k.master.base, &k.master.st);   /* the release state */
		prev_final = release;
		prev_minor = minor;
		free(topics);
	}
	/* work after the last tag: on master, and a branch nobody merged */
	for (int i = 0; i < 4; i++)
		change(&k, &k.master, gen_printf("post-release %d", i),
		       k.master.last_date + DAY, false);
	{
		struct branch wip;
		branch_fork(&wip, "wip", &k.master);
		change(&k, &wip, "wip", k.master.last_date + 2 * DAY, false);
		gen_ref(g, "refs/heads/wip", &wip.head);
	}
	gen_ref(g, "refs/heads/master", &k.master.head);
	fprintf(stderr, "gen: kernel history: %zu commits, %zu tags, %d skewed\n",
		g->ncommits, g->ntags, k.skews);
	return 0;
}
