/*
 * libFuzzer target: mails, mboxes and diffs (patch.c, patchid.c), and each
 * parsed diff's hunks (hunks.c) applied, exactly and with fuzz, to a file
 * made of their own preimage lines and to the input itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/stable/hunks.h"
#include "patchver/stable/patch.h"

static void apply_to(const struct file_diff *f, const struct text_lines *base)
{
	for (unsigned fuzz = 0; fuzz <= 2; fuzz++) {
		struct text_lines img;
		struct hunk_place *places = calloc(f->nhunks + 1, sizeof(*places));
		text_lines_copy(&img, base);
		hunks_apply(&img, f, fuzz, places);
		text_lines_free(&img);
		text_lines_copy(&img, base);
		hunks_apply_some(&img, f, fuzz, places);
		text_lines_free(&img);
		free(places);
	}
}

static void hunks(const char *text, size_t size)
{
	struct diff_files d;
	struct text_lines input = { 0 };

	diff_files_parse(&d, text);
	text_lines_split(&input, text, size);
	for (size_t i = 0; i < d.nr; i++) {
		struct text_lines pre = { 0 };
		for (size_t k = 0; k < d.v[i].nhunks; k++)
			for (size_t j = 0; j < d.v[i].hunks[k].pre.nr; j++)
				text_lines_add(&pre, d.v[i].hunks[k].pre.v[j], d.v[i].hunks[k].pre.len[j]);
		apply_to(&d.v[i], &pre);
		if (size <= 8192)       /* the search is quadratic: keep the runs many */
			apply_to(&d.v[i], &input);
		text_lines_free(&pre);
	}
	text_lines_free(&input);
	diff_files_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch_set set = { 0 };
	char *text = malloc(size + 1);

	patch_parse(&set, (const char *)data, size);
	patch_set_free(&set);
	memcpy(text, data, size);
	text[size] = '\0';
	hunks(text, strlen(text));
	free(text);
	return 0;
}
