/*
 * The demo history: the LWN story of June 2010 in miniature.
 *
 * fs/namei.c goes from v2.6.31 through Al Viro's do_last() rewrite in the
 * 2.6.34 merge window (cf. 1f36f774b22a "Switch !O_CREAT case to use of
 * do_last()", 781b16775ba0, 3e297b613491 — seed 002, in rc3), to Jan
 * Kara's O_NOFOLLOW fix (seed 001, cf. 002baeecf536) merged before
 * v2.6.34, with 2.6.32.y, 2.6.33.y and 2.6.34.y stable series.  The
 * regions of fs/namei.c that the seeds' diffs touch hold the real lines,
 * so seed 001 has the fix commit's patch-id.
 *
 * A second story gives the triage a bug that did ship: "mm: introduce
 * vma_adjust_anon()" in the 2.6.32 merge window, fixed in 2.6.34-rc2
 * with a Fixes: trailer, backported to 2.6.33.y but never to 2.6.32.y.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen.h"

static const struct person linus = { "Linus Torvalds", "torvalds@linux-foundation.org", -7 * 60 };
static const struct person viro = { "Al Viro", "viro@zeniv.linux.org.uk", -4 * 60 };
static const struct person jack = { "Jan Kara", "jack@suse.cz", 2 * 60 };
static const struct person akpm = { "Andrew Morton", "akpm@linux-foundation.org", -7 * 60 };
static const struct person greg = { "Greg Kroah-Hartman", "gregkh@suse.de", -7 * 60 };
static const struct person davem = { "David S. Miller", "davem@davemloft.net", -7 * 60 };
static const struct person hugh = { "Hugh Dickins", "hugh.dickins@tiscali.co.uk", 0 };

static int64_t ts(int y, int mo, int d, int h, int mi)
{
	struct tm tm = { 0 };

	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	return (int64_t)timegm(&tm);
}

/* fs/namei.c stages: each commit of the story moves one step */
enum namei_stage {
	NAMEI_OLD,          /* v2.6.31 .. v2.6.33 */
	NAMEI_KILL_IS_LINK, /* "Kill is_link argument of do_last()" */
	NAMEI_SWITCH,       /* 1f36f774b22a: the regression */
	NAMEI_TYPO,         /* 781b16775ba0: & -> && */
	NAMEI_RESTORE,      /* 3e297b613491: seed 002 */
	NAMEI_FIX,          /* 002baeecf536: seed 001 */
};


struct sbuf_ {
	char *buf;
	size_t len, alloc;
};

static void add(struct sbuf_ *sb, const char *s)
{
	size_t n = strlen(s);
	if (sb->len + n + 1 > sb->alloc) {
		sb->alloc = (sb->len + n + 1) * 2;
		sb->buf = realloc(sb->buf, sb->alloc);
	}
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

static void filler(struct sbuf_ *sb, int from, int to)
{
	char line[80];

	for (int i = from; i < to; i++) {
		snprintf(line, sizeof(line), "\t/* path walk, line %d */\n", i);
		add(sb, line);
	}
}

static const char *namei_text(enum namei_stage s, bool s_dead_fix, bool o_nofollow_hint)
{
	struct sbuf_ sb = { 0 };
	const char *arg = s >= NAMEI_KILL_IS_LINK ? "want_dir" : "is_link";

	add(&sb, "/*\n *  linux/fs/namei.c\n *\n *  (C) 1991  Linus Torvalds\n */\n");
	filler(&sb, 6, 100);
	add(&sb, o_nofollow_hint ? "\t/* callers: O_NOFOLLOW means no follow on the last component */\n"
				 : "\t/* path walk, line 100 */\n");
	filler(&sb, 101, 200);
	add(&sb, s_dead_fix ? "\tif (IS_DEADDIR(dir) && !S_ISDIR(victim->d_inode->i_mode))\n"
			    : "\tif (IS_DEADDIR(dir))\n");
	add(&sb, "\t\treturn -ENOENT;\n");
	filler(&sb, 202, 1609);
	/* do_last(): seed 002's first hunk */
	add(&sb, "\n"
		 "static struct file *do_last(struct nameidata *nd, struct path *path,\n"
		 "\t\t\t    int open_flag, int acc_mode,\n");
	if (s >= NAMEI_RESTORE)
		add(&sb, "\t\t\t    int mode, const char *pathname)\n");
	else {
		add(&sb, "\t\t\t    int mode, const char *pathname,\n");
		add(&sb, s >= NAMEI_KILL_IS_LINK ? "\t\t\t    int *want_dir)\n"
						 : "\t\t\t    int *is_link)\n");
	}
	add(&sb, "{\n"
		 "\tstruct dentry *dir = nd->path.dentry;\n"
		 "\tstruct file *filp;\n");
	filler(&sb, 1618, 1641);
	if (s >= NAMEI_SWITCH) {
		add(&sb, "\tif (nd->last.name[nd->last.len]) {\n"
			 "\t\tif (open_flag & O_CREAT)\n"
			 "\t\t\tgoto exit;\n");
		add(&sb, s >= NAMEI_FIX ? "\t\tnd->flags |= LOOKUP_DIRECTORY | LOOKUP_FOLLOW;\n" :
			 s >= NAMEI_RESTORE ? "\t\tnd->flags |= LOOKUP_DIRECTORY;\n" :
			 "\t\t*want_dir = 1;\n");
		add(&sb, "\t}\n\n");
	}
	add(&sb, "\t/* just plain open? */\n");
	filler(&sb, 1648, 1655);
	add(&sb, "\t\tif (path->dentry->d_inode->i_op->follow_link)\n"
		 "\t\t\treturn NULL;\n"
		 "\t\terror = -ENOTDIR;\n");
	if (s >= NAMEI_RESTORE)
		add(&sb, "\t\tif (nd->flags & LOOKUP_DIRECTORY) {\n"
			 "\t\t\tif (!path->dentry->d_inode->i_op->lookup)\n"
			 "\t\t\t\tgoto exit_dput;\n"
			 "\t\t}\n");
	else if (s >= NAMEI_SWITCH)
		add(&sb, s >= NAMEI_TYPO ?
			 "\t\tif (*want_dir && !path->dentry->d_inode->i_op->lookup)\n"
			 "\t\t\tgoto exit_dput;\n" :
			 "\t\tif (*want_dir & !path->dentry->d_inode->i_op->lookup)\n"
			 "\t\t\tgoto exit_dput;\n");
	add(&sb, "\t\tpath_to_nameidata(path, nd);\n"
		 "\t\taudit_inode(pathname, nd->path.dentry);\n"
		 "\t\tgoto ok;\n");
	filler(&sb, 1666, 1766);
	/* do_filp_open() */
	add(&sb, "\tint count = 0;\n"
		 "\tint flag = open_to_namei_flags(open_flag);\n"
		 "\tint force_reval = 0;\n");
	if (s >= NAMEI_SWITCH && s < NAMEI_RESTORE)
		add(&sb, "\tint want_dir = open_flag & O_DIRECTORY;\n");
	add(&sb, "\n"
		 "\tif (!(open_flag & O_CREAT))\n"
		 "\t\tmode = 0;\n");
	filler(&sb, 1773, 1828);
	add(&sb, "\t\tif (open_flag & O_EXCL)\n"
		 "\t\t\tnd.flags |= LOOKUP_EXCL;\n"
		 "\t}\n");
	if (s >= NAMEI_RESTORE)
		add(&sb, "\tif (open_flag & O_DIRECTORY)\n"
			 "\t\tnd.flags |= LOOKUP_DIRECTORY;\n");
	if (s >= NAMEI_FIX)
		add(&sb, "\tif (!(open_flag & O_NOFOLLOW))\n"
			 "\t\tnd.flags |= LOOKUP_FOLLOW;\n");
	if (s >= NAMEI_RESTORE)
		add(&sb, "\tfilp = do_last(&nd, &path, open_flag, acc_mode, mode, pathname);\n");
	else
		add(&sb, s >= NAMEI_KILL_IS_LINK ?
			 "\tfilp = do_last(&nd, &path, open_flag, acc_mode, mode, pathname, &want_dir);\n" :
			 "\tfilp = do_last(&nd, &path, open_flag, acc_mode, mode, pathname, &is_link);\n");
	add(&sb, "\twhile (unlikely(!filp)) { /* trailing symlink */\n"
		 "\t\tstruct path holder;\n");
	if (s >= NAMEI_SWITCH)
		add(&sb, "\t\tstruct inode *inode = path.dentry->d_inode;\n");
	add(&sb, "\t\tvoid *cookie;\n"
		 "\t\terror = -ELOOP;\n");
	if (s >= NAMEI_FIX)
		add(&sb, "\t\t/* S_ISDIR part is a temporary automount kludge */\n"
			 "\t\tif (!(nd.flags & LOOKUP_FOLLOW) && !S_ISDIR(inode->i_mode))\n");
	else if (s >= NAMEI_SWITCH)
		add(&sb, "\t\t/* S_ISDIR part is a temporary automount kludge */\n"
			 "\t\tif ((open_flag & O_NOFOLLOW) && !S_ISDIR(inode->i_mode))\n");
	else
		add(&sb, "\t\tif (!(nd.flags & LOOKUP_FOLLOW))\n");
	add(&sb, "\t\t\tgoto exit_dput;\n"
		 "\t\tif (count++ == 32)\n"
		 "\t\t\tgoto exit_dput;\n");
	filler(&sb, 1846, 1866);
	add(&sb, "\t\t}\n"
		 "\t\tholder = path;\n"
		 "\t\tnd.flags &= ~LOOKUP_PARENT;\n");
	add(&sb, s >= NAMEI_RESTORE ?
		 "\t\tfilp = do_last(&nd, &path, open_flag, acc_mode, mode, pathname);\n" :
		 s >= NAMEI_KILL_IS_LINK ?
		 "\t\tfilp = do_last(&nd, &path, open_flag, acc_mode, mode, pathname, &want_dir);\n" :
		 "\t\tfilp = do_last(&nd, &path, open_flag, acc_mode, mode, pathname, &is_link);\n");
	(void)arg;
	add(&sb, "\t\tif (inode->i_op->put_link)\n"
		 "\t\t\tinode->i_op->put_link(holder.dentry, &nd, cookie);\n"
		 "\t\tpath_put(&holder);\n");
	filler(&sb, 1873, 1900);
	return sb.buf;
}

struct demo {
	struct gen *g;
	struct branch master;
	int counter;
	bool s_dead_fix;
	bool o_nofollow_hint;
};

static void set_namei(struct demo *d, struct branch *b, enum namei_stage s)
{
	file_set_text(state_file(&b->st, "fs/namei.c"), namei_text(s, d->s_dead_fix, d->o_nofollow_hint));
}

/* An unrelated change (another file), for history around the story. */
static git_oid misc(struct demo *d, struct branch *b, const char *path,
		    const char *subject, const struct person *who, int64_t date)
{
	struct file *f = state_file(&b->st, path);

	file_set_line(f, (size_t)(d->counter % 30),
		      gen_printf("/* %s: change %d */", path, d->counter));
	d->counter++;
	return gen_commit(d->g, b, gen_printf("%s\n\nSigned-off-by: %s <%s>\n", subject,
					      who->name, who->email),
			  who, date - 3600, who, date, NULL, 0);
}

static void misc_run(struct demo *d, struct branch *b, const char *area, int n,
		     const struct person *who, int64_t from, int64_t to)
{
	static const char *files[] = { "fs/open.c", "kernel/sched.c", "net/core/dev.c",
				       "drivers/net/e1000.c", "mm/slab.c" };
	for (int i = 0; i < n; i++)
		misc(d, b, files[(d->counter + i) % 5],
		     gen_printf("%s: cleanup %d", area, d->counter), who,
		     from + (to - from) * (i + 1) / (n + 1));
}

static void tag(struct demo *d, const char *name, const struct person *who, int64_t date)
{
	gen_tag(d->g, name, &d->master.head, who, date);
}

static const char *mmap_text(int stage)
{
	struct sbuf_ sb = { 0 };

	add(&sb, "/*\n * mm/mmap.c\n */\n");
	filler(&sb, 4, 400);
	add(&sb, "static void vma_adjust_anon(struct vm_area_struct *vma, long adjust)\n{\n");
	if (stage >= 1)
		add(&sb, stage >= 2 ?
			 "\tif (vma->anon_vma && adjust > 0)\n\t\tanon_vma_lock(vma);\n" :
			 "\tif (vma->anon_vma)\n\t\tanon_vma_lock(vma);\n");
	add(&sb, "\tvma->vm_pgoff += adjust;\n}\n");
	filler(&sb, 410, 460);
	return sb.buf;
}

/* A stable series: backports (message style per entry) and tags. */
struct backport {
	const git_oid *upstream;
	const char *subject;
	const char *path;
	const char *text;   /* the file's new content (whole) */
};

static void stable_commit(struct demo *d, struct branch *st, const struct backport *bp,
			  int64_t date)
{
	file_set_text(state_file(&st->st, bp->path), bp->text);
	gen_commit(d->g, st, gen_printf("%s\n\ncommit %s upstream.\n\nSigned-off-by: %s <%s>\n",
					bp->subject, gen_hex(bp->upstream), greg.name, greg.email),
		   &hugh, date - 86400, &greg, date, NULL, 0);
}

static void stable_misc(struct demo *d, struct branch *st, const char *series, int n,
			int64_t date)
{
	for (int i = 0; i < n; i++) {
		struct file *f = state_file(&st->st, "drivers/usb/core/hub.c");
		file_set_line(f, (size_t)i, gen_printf("/* %s stable fix %d */", series, d->counter++));
		gen_commit(d->g, st, gen_printf("USB: %s stable fix %d\n\nSigned-off-by: %s <%s>\n",
						series, d->counter, greg.name, greg.email),
			   &greg, date - 7200 + i, &greg, date - 3600 + i, NULL, 0);
	}
}

/* Jan Kara's fix, applied by Linus directly (seed 001) */
static git_oid jans_fix(struct demo *d, struct branch *m)
{
	set_namei(d, m, NAMEI_FIX);
	return gen_commit(d->g, m, "vfs: Fix O_NOFOLLOW behavior for paths with trailing slashes\n\n"
		"According to specification\n\n"
		"\tmkdir d; ln -s d a; open(\"a/\", O_NOFOLLOW | O_RDONLY)\n\n"
		"should return success but currently it returns ELOOP.  This is a\n"
		"regression caused by path lookup cleanup patch series.\n\n"
		"Fix the code to ignore O_NOFOLLOW in case the provided path has trailing\n"
		"slashes.\n\n"
		"Cc: Andrew Morton <akpm@linux-foundation.org>\n"
		"Cc: Al Viro <viro@zeniv.linux.org.uk>\n"
		"Reported-by: Marius Tolzmann <tolzmann@molgen.mpg.de>\n"
		"Acked-by: Miklos Szeredi <mszeredi@suse.cz>\n"
		"Signed-off-by: Jan Kara <jack@suse.cz>\n"
		"Signed-off-by: Linus Torvalds <torvalds@linux-foundation.org>\n",
		&jack, 1273747977, &linus, 1273765564, NULL, 0);
}

int gen_demo(struct gen *g, bool late_fix)
{
	struct demo d = { .g = g };
	struct branch *m = &d.master, vfs, vfs2, fsb, mmb, st32, st33, st34, *tp;
	git_oid bug, mmfix, fix, st32_base, st33_base, st34_base;
	struct file *f;

	branch_init(m, "master");
	set_namei(&d, m, NAMEI_OLD);
	file_set_text(state_file(&m->st, "mm/mmap.c"), mmap_text(0));
	f = state_file(&m->st, "Makefile");
	file_set_text(f, "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 31\nEXTRAVERSION =\n");
	gen_commit(g, m, "Linux 2.6.31\n", &linus, ts(2009, 9, 9, 22, 0), &linus,
		   ts(2009, 9, 9, 22, 0), NULL, 0);
	tag(&d, "v2.6.31", &linus, ts(2009, 9, 9, 22, 30));

	/* 2.6.32 merge window: the mm bug comes in on Andrew's branch */
	branch_fork(&mmb, "mm", m);
	misc_run(&d, &mmb, "mm", 3, &akpm, ts(2009, 9, 1, 0, 0), ts(2009, 9, 12, 0, 0));
	file_set_text(state_file(&mmb.st, "mm/mmap.c"), mmap_text(1));
	bug = gen_commit(g, &mmb, "mm: introduce vma_adjust_anon()\n\n"
			 "Factor the anon_vma locking of vma_adjust() into a helper.\n\n"
			 "Signed-off-by: Hugh Dickins <hugh.dickins@tiscali.co.uk>\n"
			 "Signed-off-by: Andrew Morton <akpm@linux-foundation.org>\n",
			 &hugh, ts(2009, 9, 14, 10, 0), &akpm, ts(2009, 9, 15, 10, 0), NULL, 0);
	misc_run(&d, m, "sched", 4, &linus, ts(2009, 9, 10, 0, 0), ts(2009, 9, 16, 0, 0));
	tp = &mmb;
	gen_merge(g, m, &tp, 1, "Merge branch 'akpm'\n\n* akpm: mm updates\n", &linus,
		  ts(2009, 9, 16, 12, 0));
	misc_run(&d, m, "net", 3, &davem, ts(2009, 9, 17, 0, 0), ts(2009, 9, 27, 0, 0));
	tag(&d, "v2.6.32-rc1", &linus, ts(2009, 9, 27, 23, 0));
	misc_run(&d, m, "fixes", 4, &linus, ts(2009, 9, 28, 0, 0), ts(2009, 10, 5, 0, 0));
	tag(&d, "v2.6.32-rc2", &linus, ts(2009, 10, 5, 23, 0));
	misc_run(&d, m, "fixes", 4, &linus, ts(2009, 10, 6, 0, 0), ts(2009, 12, 2, 0, 0));
	tag(&d, "v2.6.32", &linus, ts(2009, 12, 3, 0, 0));
	st32_base = m->head;
	branch_fork(&st32, "linux-2.6.32.y", m);

	/* 2.6.33: Al's do_last() work is written now, merged a cycle later */
	branch_fork(&vfs, "vfs-2.6", m);
	set_namei(&d, &vfs, NAMEI_KILL_IS_LINK);
	gen_commit(g, &vfs, "Kill is_link argument of do_last()\n\n"
		   "Signed-off-by: Al Viro <viro@zeniv.linux.org.uk>\n",
		   &viro, ts(2009, 12, 26, 11, 0), &viro, ts(2010, 3, 5, 14, 0), NULL, 0);
	set_namei(&d, &vfs, NAMEI_SWITCH);
	gen_commit(g, &vfs, "Switch !O_CREAT case to use of do_last()\n\n"
		   "... and now we have all intents crap well localized\n\n"
		   "Signed-off-by: Al Viro <viro@zeniv.linux.org.uk>\n",
		   &viro, 1261842979, &viro, 1267798945, NULL, 0);
	misc_run(&d, m, "block", 5, &linus, ts(2009, 12, 4, 0, 0), ts(2009, 12, 18, 0, 0));
	tag(&d, "v2.6.33-rc1", &linus, ts(2009, 12, 18, 23, 0));
	misc_run(&d, m, "fixes", 3, &linus, ts(2009, 12, 19, 0, 0), ts(2010, 1, 10, 0, 0));
	tag(&d, "v2.6.33-rc4", &linus, ts(2010, 1, 12, 23, 0));
	misc_run(&d, m, "fixes", 3, &linus, ts(2010, 1, 13, 0, 0), ts(2010, 2, 24, 0, 0));
	f = state_file(&m->st, "Makefile");
	file_set_line(f, 2, "SUBLEVEL = 33");
	gen_commit(g, m, "Linux 2.6.33\n", &linus, ts(2010, 2, 24, 18, 0), &linus,
		   ts(2010, 2, 24, 18, 0), NULL, 0);
	tag(&d, "v2.6.33", &linus, ts(2010, 2, 24, 18, 30));
	st33_base = m->head;
	branch_fork(&st33, "linux-2.6.33.y", m);

	/* 2.6.34 merge window */
	branch_fork(&fsb, "jack-fs", m);
	misc_run(&d, &fsb, "ext3", 3, &jack, ts(2010, 2, 26, 0, 0), ts(2010, 3, 3, 0, 0));
	tp = &fsb;
	gen_merge(g, m, &tp, 1, "Merge branch 'for_linus' of git://git.kernel.org/pub/scm/linux/kernel/git/jack/linux-fs-2.6\n",
		  &linus, ts(2010, 3, 5, 11, 0));
	tp = &vfs;
	gen_merge(g, m, &tp, 1, "Merge branch 'for-linus' of git://git.kernel.org/pub/scm/linux/kernel/git/viro/vfs-2.6\n\n"
		  "* 'for-linus' of git://git.kernel.org/pub/scm/linux/kernel/git/viro/vfs-2.6:\n"
		  "  Switch !O_CREAT case to use of do_last()\n  Kill is_link argument of do_last()\n",
		  &linus, ts(2010, 3, 5, 16, 0));
	set_namei(&d, m, NAMEI_TYPO);
	gen_commit(g, m, "Fix a dumb typo - use of & instead of &&\n\n"
		   "Signed-off-by: Al Viro <viro@zeniv.linux.org.uk>\n"
		   "Signed-off-by: Linus Torvalds <torvalds@linux-foundation.org>\n",
		   &(struct person){ "Al Viro", "viro@ZenIV.linux.org.uk", 0 }, 1267900867,
		   &linus, 1267901688, NULL, 0);
	misc_run(&d, m, "net", 4, &davem, ts(2010, 3, 6, 0, 0), ts(2010, 3, 8, 0, 0));
	tag(&d, "v2.6.34-rc1", &linus, ts(2010, 3, 8, 20, 0));

	/*
	 * Jan's follow-up, written on top of Al's tree and merged for rc2:
	 * `git log --tags --source` reaches the do_last() commits through it
	 * first and labels them v2.6.34-rc2, although rc1 already had them.
	 */
	branch_fork(&fsb, "jack-fs-2", &vfs);
	d.o_nofollow_hint = true;
	set_namei(&d, &fsb, NAMEI_SWITCH);
	misc(&d, &fsb, "fs/ext3/namei.c", "ext3: do not follow symlinks on O_NOFOLLOW lookups",
	     &jack, ts(2010, 3, 10, 9, 0));
	tp = &fsb;
	gen_merge(g, m, &tp, 1, "Merge branch 'for_linus' of git://git.kernel.org/pub/scm/linux/kernel/git/jack/linux-fs-2.6\n",
		  &linus, ts(2010, 3, 12, 11, 0));

	/* the mm fix: Fixes: the 2.6.32 commit, Cc: stable */
	file_set_text(state_file(&m->st, "mm/mmap.c"), mmap_text(2));
	mmfix = gen_commit(g, m, gen_printf(
		"mm: fix anon_vma locking in vma_adjust_anon()\n\n"
		"Only take the anon_vma lock when the vma grows.\n\n"
		"Fixes: %.12s (\"mm: introduce vma_adjust_anon()\")\n"
		"Cc: stable@vger.kernel.org # 2.6.32+\n"
		"Signed-off-by: Hugh Dickins <hugh.dickins@tiscali.co.uk>\n", gen_hex(&bug)),
		&hugh, ts(2010, 3, 14, 10, 0), &linus, ts(2010, 3, 15, 10, 0), NULL, 0);
	misc_run(&d, m, "fixes", 3, &linus, ts(2010, 3, 15, 12, 0), ts(2010, 3, 19, 0, 0));
	tag(&d, "v2.6.34-rc2", &linus, ts(2010, 3, 19, 20, 0));

	branch_fork(&vfs2, "vfs-2.6-2", m);
	set_namei(&d, &vfs2, NAMEI_RESTORE);
	gen_commit(g, &vfs2, "Restore LOOKUP_DIRECTORY hint handling in final lookup on open()\n\n"
		   "\tLose want_dir argument, while we are at it - since now\n"
		   "nd->flags & LOOKUP_DIRECTORY is equivalent to it.\n\n"
		   "Signed-off-by: Al Viro <viro@zeniv.linux.org.uk>\n",
		   &viro, 1269621613, &viro, 1269621665, NULL, 0);
	misc_run(&d, m, "x86", 6, &linus, ts(2010, 3, 20, 0, 0), ts(2010, 3, 26, 0, 0));
	tp = &vfs2;
	gen_merge(g, m, &tp, 1, "Merge branch 'for-linus' of git://git.kernel.org/pub/scm/linux/kernel/git/viro/vfs-2.6\n",
		  &linus, ts(2010, 3, 27, 9, 0));
	misc_run(&d, m, "drivers", 29, &davem, ts(2010, 3, 27, 10, 0), ts(2010, 3, 30, 0, 0));
	tag(&d, "v2.6.34-rc3", &linus, ts(2010, 3, 30, 20, 0));
	misc_run(&d, m, "fixes", 3, &linus, ts(2010, 4, 1, 0, 0), ts(2010, 4, 12, 0, 0));
	tag(&d, "v2.6.34-rc4", &linus, ts(2010, 4, 12, 20, 0));
	misc_run(&d, m, "fixes", 3, &linus, ts(2010, 4, 13, 0, 0), ts(2010, 4, 19, 0, 0));
	tag(&d, "v2.6.34-rc5", &linus, ts(2010, 4, 19, 20, 0));
	misc_run(&d, m, "fixes", 3, &linus, ts(2010, 4, 20, 0, 0), ts(2010, 4, 29, 0, 0));
	tag(&d, "v2.6.34-rc6", &linus, ts(2010, 4, 29, 20, 0));
	misc_run(&d, m, "fixes", 3, &linus, ts(2010, 4, 30, 0, 0), ts(2010, 5, 9, 0, 0));
	tag(&d, "v2.6.34-rc7", &linus, ts(2010, 5, 9, 20, 0));

	/* Jan Kara's fix, applied by Linus directly (seed 001) */
	if (!late_fix)
		fix = jans_fix(&d, m);
	d.s_dead_fix = true;
	branch_fork(&vfs, "vfs-2.6-3", m);
	set_namei(&d, &vfs, late_fix ? NAMEI_RESTORE : NAMEI_FIX);
	gen_commit(g, &vfs, "Fix the regression created by \"set S_DEAD on unlink()...\" commit\n\n"
		   "Signed-off-by: Al Viro <viro@zeniv.linux.org.uk>\n",
		   &viro, 1272662229, &viro, 1273922193, NULL, 0);
	misc_run(&d, m, "fixes", 2, &linus, ts(2010, 5, 14, 0, 0), ts(2010, 5, 15, 0, 0));
	tp = &vfs;
	gen_merge(g, m, &tp, 1, "Merge branch 'for-linus' of git://git.kernel.org/pub/scm/linux/kernel/git/viro/vfs-2.6\n",
		  &linus, ts(2010, 5, 15, 18, 0));
	f = state_file(&m->st, "Makefile");
	file_set_line(f, 2, "SUBLEVEL = 34");
	gen_commit(g, m, "Linux 2.6.34\n", &linus, ts(2010, 5, 16, 21, 0), &linus,
		   ts(2010, 5, 16, 21, 0), NULL, 0);
	tag(&d, "v2.6.34", &linus, ts(2010, 5, 16, 21, 30));
	st34_base = m->head;
	branch_fork(&st34, "linux-2.6.34.y", m);
	/* the variant where the fix missed 2.6.34: it lands in the next window */
	if (late_fix)
		fix = jans_fix(&d, m);
	misc_run(&d, m, "merge window", 6, &davem, ts(2010, 5, 17, 0, 0), ts(2010, 5, 30, 0, 0));
	tag(&d, "v2.6.35-rc1", &linus, ts(2010, 5, 30, 20, 0));
	misc_run(&d, m, "after rc1", 3, &linus, ts(2010, 5, 31, 0, 0), ts(2010, 6, 3, 0, 0));
	gen_ref(g, "refs/heads/master", &m->head);

	/* stable series: the mm fix reaches 2.6.33.y only */
	stable_misc(&d, &st32, "2.6.32", 2, ts(2009, 12, 14, 0, 0));
	gen_tag(g, "v2.6.32.1", &st32.head, &greg, ts(2009, 12, 14, 20, 0));
	stable_misc(&d, &st32, "2.6.32", 2, ts(2010, 1, 6, 0, 0));
	gen_tag(g, "v2.6.32.2", &st32.head, &greg, ts(2010, 1, 6, 20, 0));
	stable_misc(&d, &st32, "2.6.32", 3, ts(2010, 4, 1, 0, 0));
	gen_tag(g, "v2.6.32.11", &st32.head, &greg, ts(2010, 4, 1, 20, 0));
	gen_ref(g, "refs/heads/linux-2.6.32.y", &st32.head);

	stable_misc(&d, &st33, "2.6.33", 2, ts(2010, 3, 15, 0, 0));
	gen_tag(g, "v2.6.33.1", &st33.head, &greg, ts(2010, 3, 15, 20, 0));
	{
		struct backport bp = { &mmfix, "mm: fix anon_vma locking in vma_adjust_anon()",
				       "mm/mmap.c", mmap_text(2) };
		stable_commit(&d, &st33, &bp, ts(2010, 3, 31, 12, 0));
	}
	gen_tag(g, "v2.6.33.2", &st33.head, &greg, ts(2010, 4, 1, 20, 0));
	stable_misc(&d, &st33, "2.6.33", 2, ts(2010, 4, 26, 0, 0));
	gen_tag(g, "v2.6.33.3", &st33.head, &greg, ts(2010, 4, 26, 20, 0));
	stable_misc(&d, &st33, "2.6.33", 2, ts(2010, 5, 12, 0, 0));
	gen_tag(g, "v2.6.33.4", &st33.head, &greg, ts(2010, 5, 12, 20, 0));
	gen_ref(g, "refs/heads/linux-2.6.33.y", &st33.head);

	stable_misc(&d, &st34, "2.6.34", 3, ts(2010, 7, 5, 0, 0));
	gen_tag(g, "v2.6.34.1", &st34.head, &greg, ts(2010, 7, 5, 20, 0));
	gen_ref(g, "refs/heads/linux-2.6.34.y", &st34.head);

	(void)st32_base; (void)st33_base; (void)st34_base; (void)fix;
	fprintf(stderr, "gen: demo history: %zu commits, %zu tags\n", g->ncommits, g->ntags);
	return 0;
}
