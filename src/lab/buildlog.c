/*
 * A failed build's log read (buildlog.h): its last lines, its first
 * error in one line, the failing object made again alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/notice.h"
#include "patchver/base/util.h"
#include "patchver/lab/builderr.h"
#include "patchver/lab/buildlog.h"
#include "patchver/lab/kbuild.h"
#include "patchver/lab/lab.h"

void buildlog_show_tail(const struct lab *l, const char *log)
{
	char *lines[6] = { 0 }, buf[1024];
	size_t n = 0;
	FILE *f = l->o->quiet ? NULL : fopen(log, "r");

	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		free(lines[n % 6]);
		lines[n++ % 6] = xstrdup(buf);
	}
	fclose(f);
	for (size_t k = n > 6 ? n - 6 : 0; k < n; k++)
		pv_notice(PV_NOTICE_PROGRESS, "  | %.*s", (int)strcspn(lines[k % 6], "\n"),
			  lines[k % 6]);
	for (size_t k = 0; k < 6; k++)
		free(lines[k]);
}

char *buildlog_why(const struct candidate *c)
{
	static const char *const marks[] = { ": error:", ": fatal error:", "undefined reference",
					     "Error: ", "Segmentation fault", "*** " };
	const struct candidate_run *r = &c->run;
	FILE *f = fopen(r->build_log, "r");
	char line[512], *first = NULL, *why;

	while (f && !first && fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]) && !first; i++)
			if (strstr(line, marks[i]))
				first = xstrndup(line, strcspn(line, "\n"));
	if (f)
		fclose(f);
	why = xstrfmt("%s%s%s (see %s)", !*r->compat_era && r->state && !strncmp(r->state, "2.", 2) ?
		      "cannot build with this toolchain" : "build failed", first ? ": " : "",
		      first ? first : "", r->build_log);
	free(first);
	return why;
}

/* The object make's first "*** [...]" line names (an inner make's: the first), or NULL. */
static char *failed_object(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[1024], *object = NULL;

	while (f && !object && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "*** ["), *end, *sp;
		size_t n;

		if (!p || !(end = strchr(p += 5, ']')))
			continue;
		*end = '\0';
		/* make 4.3: "[scripts/Makefile.build:250: kernel/sys.o]"; older: "[kernel/sys.o]" */
		if ((sp = strrchr(p, ' ')))
			p = sp + 1;
		n = strlen(p);
		if (n > 2 && !strcmp(p + n - 2, ".o"))
			object = xstrdup(p);
	}
	if (f)
		fclose(f);
	return object;
}

static void first_error_of(const char *log, struct builderr *e)
{
	size_t len;
	char *text = file_read(log, &len);

	builderr_first(text ? text : "", text ? len : 0, e);
	free(text);
}

int buildlog_first_error(struct lab *l, struct candidate *c, struct builderr *e)
{
	char *object = c->run.build_log ? failed_object(c->run.build_log) : NULL;
	int ret = 0;

	memset(e, 0, sizeof(*e));
	if (!c->run.build_log)
		return 0;
	if (object) {
		char *dir = xstrndup(c->run.build_log, strlen(c->run.build_log) - strlen("build.log"));
		free(c->object_log);
		c->object_log = xstrfmt("%sobject.log", dir);
		free(dir);
		l->tree.make_vars = c->run.make_vars;
		ret = kbuild_make_target(&l->tree, object, c->object_log);
		if (!ret)
			first_error_of(c->object_log, e);
	}
	/* a link error (no object failed), or an object that built alone */
	if (!ret && e->kind == BUILDERR_NONE)
		first_error_of(c->run.build_log, e);
	free(object);
	return ret;
}
