/*
 * Each boot's record (boot_record.h): what was built and booted, as JSON
 * beside its serial log.
 */
#include <stdio.h>

#include "patchver/base/json.h"
#include "patchver/cli/boot_record.h"

void json_compat(struct json *j, const struct candidate *c)
{
	json_kstr(j, "compat_era", *c->compat_era ? c->compat_era : NULL);
	json_key(j, "compat_patches");
	json_arr_begin(j);
	for (size_t i = 0; i < c->ncompat; i++)
		json_str(j, c->compat[i]);
	json_arr_end(j);
	json_key(j, "make_flags");
	json_arr_begin(j);
	for (char **v = c->make_vars; v && *v; v++)
		json_str(j, *v);
	json_arr_end(j);
}

void boot_record_write(void *data, const struct lab *l, const struct candidate *c)
{
	FILE *f = fopen(c->record, "w");
	char hex[GIT_OID_HEXSZ + 1];
	struct json j;

	if (!f)
		return;
	json_init(&j, f);
	json_obj_begin(&j);
	json_kstr(&j, "candidate", c->name);
	json_kstr(&j, "state", c->state);
	json_kstr(&j, "kernel_tree", l->tree.what);
	json_kstr(&j, "commit", git_oid_tostr(hex, sizeof(hex), &c->commit));
	json_kstr(&j, "tree", git_oid_tostr(hex, sizeof(hex), &c->tree));
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
	json_kstr(&j, "state_key", c->key);
	json_kstr(&j, "work_tree", l->tree.work);
	json_kstr(&j, "object_dir", l->tree.obj);
	json_kstr(&j, "image", c->image);
	json_kstr(&j, "initramfs", c->guest_cc ? l->alt_initrd : l->initrd);
	json_kstr(&j, "guest_cc", c->guest_cc);
	json_kstr(&j, "gcc", l->gcc);
	json_kstr(&j, "qemu", l->qemu);
	json_kstr(&j, "command", c->boot.cmdline);
	json_obj_end(&j);
	fclose(f);
}
