#ifndef PATCHVER_LAB_BUILDLOG_H
#define PATCHVER_LAB_BUILDLOG_H

struct builderr;
struct candidate;
struct lab;

/*
 * What a failed build's log says (c->build_log, <cache>/images/KEY/):
 * for the user, for the row, and for the prerequisites' search
 * (prereq.h), which needs the failing object's own first error.
 */

/* The log's last lines, as progress on stderr (nothing with --json). */
void buildlog_show_tail(const struct lab *l, const char *log);

/*
 * Why c's build failed, in one line (caller frees): the first compiler,
 * assembler, linker or make error of its log (a parallel make's first, not
 * its last words), and the log's path.  A tree no sub-era of guest/compat/
 * covers is said to be past what this toolchain builds.
 */
char *buildlog_why(const struct candidate *c);

/*
 * c's first build error (after lab_run of c, before another candidate's):
 * the failing object made again with one job, so that the message is its
 * own (kept in c->object_log), else the build log's.  e->kind
 * BUILDERR_NONE when neither says.  0, PV_ENOTOOL or PV_EINTERRUPTED.
 */
int buildlog_first_error(struct lab *l, struct candidate *c, struct builderr *e);

#endif
