/*
 * objstore against libgit2: every object of a repository (packed, delta
 * or not, and loose) read whole and as a header prefix, byte for byte
 * what git_odb_read gives; an unknown id is not found.  With "damage",
 * a copy of the objects whose pack gets one byte changed at a time: every
 * read then returns an object or -1, never a crash (the sanitizer build
 * checks the reads stay inside the files).
 *
 *   test_objstore REPO [damage N]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/engine/objstore.h"

struct ids {
	git_oid *v;
	size_t nr, alloc;
};

static int collect(const git_oid *id, void *data)
{
	struct ids *ids = data;

	ids->v = xgrow(ids->v, &ids->alloc, ids->nr + 1, sizeof(*ids->v));
	ids->v[ids->nr++] = *id;
	return 0;
}

static void same_as_libgit2(git_odb *odb, struct objstore *s, const struct ids *ids)
{
	struct sbuf whole = SBUF_INIT, head = SBUF_INIT;
	size_t checked = 0;
	git_oid unknown;

	for (size_t i = 0; i < ids->nr; i++) {
		git_odb_object *o;
		size_t size;
		int type;

		CHECK(git_odb_read(&o, odb, &ids->v[i]) == 0);
		size = git_odb_object_size(o);
		type = objstore_read(s, ids->v[i].id, 0, &whole);
		CHECK(type == (int)git_odb_object_type(o));
		CHECK(whole.len == size && !memcmp(whole.buf, git_odb_object_data(o), size));
		type = objstore_read(s, ids->v[i].id, 16, &head);
		CHECK(type == (int)git_odb_object_type(o));
		CHECK(head.len >= (size < 16 ? size : 16) && head.len <= size &&
		      !memcmp(head.buf, git_odb_object_data(o), head.len));
		checked += type > 0;
		git_odb_object_free(o);
	}
	CHECK(checked == ids->nr && checked > 0);
	memset(&unknown, 0xab, sizeof(unknown));
	CHECK(objstore_read(s, unknown.id, 0, &whole) == PV_EDECLINED);
	/* ids next to present ones: found exactly when git has them */
	for (size_t i = 0; i < ids->nr; i += 3) {
		unknown = ids->v[i];
		unknown.id[GIT_OID_RAWSZ - 1] ^= 1;
		CHECK((objstore_read(s, unknown.id, 16, &head) > 0) == !!git_odb_exists(odb, &unknown));
	}
	printf("objstore: %zu objects as libgit2 reads them\n", checked);
	sbuf_free(&whole);
	sbuf_free(&head);
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)len + 1);
	*n = fread(buf, 1, (size_t)len, f);
	fclose(f);
	return buf;
}

static void spill(const char *path, const char *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	CHECK(f && fwrite(buf, 1, n, f) == n);
	if (f)
		fclose(f);
}

/* The repository's packs copied to tmp/pack, changed a byte at a time. */
static void damaged_reads(const char *gitdir, const struct ids *ids, int rounds)
{
	char tmp[] = "/tmp/objstore-XXXXXX", *src, *dst;
	struct dirent *e;
	DIR *d;
	char *pack = NULL, *pack_path = NULL;
	size_t pack_len = 0;
	struct sbuf out = SBUF_INIT;
	unsigned seed = 1;

	CHECK(mkdtemp(tmp) != NULL);
	dst = xstrfmt("%s/pack", tmp);
	CHECK(mkdir(dst, 0700) == 0);
	free(dst);
	src = xstrfmt("%s/objects/pack", gitdir);
	CHECK((d = opendir(src)) != NULL);
	while (d && (e = readdir(d))) {
		size_t n = 0, len = strlen(e->d_name);
		char *from, *buf;

		if (len < 5 || (strcmp(e->d_name + len - 4, ".idx") && strcmp(e->d_name + len - 5, ".pack")))
			continue;
		from = xstrfmt("%s/%s", src, e->d_name);
		dst = xstrfmt("%s/pack/%s", tmp, e->d_name);
		buf = slurp(from, &n);
		CHECK(buf != NULL);
		spill(dst, buf, n);
		if (!strcmp(e->d_name + len - 5, ".pack") && !pack) {
			pack = buf;
			pack_len = n;
			pack_path = dst;
		} else {
			free(buf);
			free(dst);
		}
		free(from);
	}
	if (d)
		closedir(d);
	CHECK(pack && pack_len > 32);
	for (int r = 0; r < rounds && pack; r++) {
		size_t at = 12 + (size_t)rand_r(&seed) % (pack_len - 32);
		struct objstore *s;
		char was = pack[at];

		pack[at] = (char)(was ^ (1 + rand_r(&seed) % 255));
		spill(pack_path, pack, pack_len);
		s = objstore_open(tmp);
		CHECK(s != NULL);
		for (size_t i = 0; i < ids->nr && s; i++) {
			int type = objstore_read(s, ids->v[i].id, (i & 1) ? 64 : 0, &out);
			CHECK(type == PV_EDECLINED || (type >= 1 && type <= 4));
		}
		objstore_close(s);
		pack[at] = was;
	}
	printf("objstore: %d damaged packs read without a fault\n", rounds);
	if (pack_path) {
		char *cmd = xstrfmt("rm -rf '%s'", tmp);
		CHECK(system(cmd) == 0);
		free(cmd);
	}
	free(pack);
	free(pack_path);
	free(src);
	sbuf_free(&out);
}

int main(int argc, char **argv)
{
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	struct ids ids = { 0 };
	struct objstore *s;
	char *objdir;

	if (argc < 2)
		return 2;
	git_libgit2_init();
	CHECK(git_repository_open_bare(&repo, argv[1]) == 0);
	CHECK(git_repository_odb(&odb, repo) == 0);
	CHECK(git_odb_foreach(odb, collect, &ids) == 0);
	objdir = xstrfmt("%s/objects", argv[1]);
	/* the .idx read by pread for every lookup, then through its mapping only */
	for (int mapped = 0; mapped < 2; mapped++) {
		s = objstore_open(objdir);
		CHECK(s != NULL);
		if (!s)
			break;
		objstore_set_reads(s, mapped ? 0 : UINT32_MAX);
		same_as_libgit2(odb, s, &ids);
		objstore_close(s);
	}
	if (argc > 3 && !strcmp(argv[2], "damage"))
		damaged_reads(argv[1], &ids, atoi(argv[3]));
	free(objdir);
	free(ids.v);
	git_odb_free(odb);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return check_done();
}
