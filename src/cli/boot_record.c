/*
 * What the lab keeps of a run (boot_record.h): each boot's record, what
 * was built and booted, as JSON beside its serial log; the build and boot
 * times that estimates read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/json.h"
#include "patchver/base/util.h"
#include "patchver/cli/boot_record.h"

void json_compat(struct json *j, const struct candidate *c)
{
	json_kstr(j, "compat_era", *c->run.compat_era ? c->run.compat_era : NULL);
	json_key(j, "compat_patches");
	json_arr_begin(j);
	for (size_t i = 0; i < c->run.ncompat; i++)
		json_str(j, c->run.compat[i]);
	json_arr_end(j);
	json_key(j, "make_flags");
	json_arr_begin(j);
	for (char **v = c->run.make_vars; v && *v; v++)
		json_str(j, *v);
	json_arr_end(j);
}

void boot_record_write(void *data, const struct lab *l, const struct candidate *c)
{
	FILE *f = fopen(c->run.record, "w");
	char hex[GIT_OID_HEXSZ + 1];
	struct json j;

	if (!f)
		return;
	json_init(&j, f);
	json_obj_begin(&j);
	json_kstr(&j, "candidate", c->name);
	json_kstr(&j, "state", c->run.state);
	json_kstr(&j, "kernel_tree", l->tree.what);
	json_kstr(&j, "commit", git_oid_tostr(hex, sizeof(hex), &c->commit));
	json_kstr(&j, "tree", git_oid_tostr(hex, sizeof(hex), &c->run.tree));
	json_compat(&j, c);
	json_key(&j, "patches");
	json_arr_begin(&j);
	for (size_t i = 0; i < c->npatches; i++)
		json_str(&j, c->patches[i]->name);
	json_arr_end(&j);
	/* what the fix needed to build here, found by --verify-boot */
	json_key(&j, "build_prerequisites");
	json_arr_begin(&j);
	for (char **p = c->prereqs; p && *p; p++)
		json_str(&j, *p);
	json_arr_end(&j);
	json_kstr(&j, "state_key", c->run.key);
	json_kstr(&j, "work_tree", l->tree.work);
	json_kstr(&j, "object_dir", l->tree.obj);
	json_kstr(&j, "image", c->run.image);
	json_kstr(&j, "initramfs", c->run.guest_cc ? l->alt_initrd : l->initrd);
	json_kstr(&j, "guest_cc", c->run.guest_cc);
	json_kstr(&j, "gcc", l->gcc);
	json_kstr(&j, "qemu", l->qemu);
	json_kstr(&j, "command", c->run.boot.cmdline);
	json_obj_end(&j);
	fclose(f);
}

void boot_record_time(void *data, const struct lab *l, const char *what, double seconds,
		      const char *state)
{
	char *path = xstrfmt("%s/times", l->cache);
	FILE *f = fopen(path, "a");

	if (f) {
		fprintf(f, "%s %.1f %s\n", what, seconds, state);
		fclose(f);
	}
	free(path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int boot_record_median(void *data, const struct lab *l, const char *what, double *median)
{
	char *path = xstrfmt("%s/times", l->cache), line[512], kind[16];
	FILE *f = fopen(path, "r");
	double *v = NULL, sec;
	size_t n = 0, alloc = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%15s %lf", kind, &sec) == 2 && !strcmp(kind, what) && sec >= 0) {
			v = xgrow(v, &alloc, n + 1, sizeof(*v));
			v[n++] = sec;
		}
	if (f)
		fclose(f);
	free(path);
	*median = 0;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return (int)n;
}
