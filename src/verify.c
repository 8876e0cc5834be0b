/*
 * The --verify-boot pipeline: candidates, builds, boots, verdict.
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "patchver/boot.h"
#include "patchver/contain.h"
#include "patchver/error.h"
#include "patchver/initramfs.h"
#include "patchver/json.h"
#include "patchver/ktree.h"
#include "patchver/proc.h"
#include "patchver/revs.h"
#include "patchver/triage.h"
#include "patchver/util.h"
#include "patchver/verify.h"

#define BUG_CHECK "nofollow_slash_symlink_dir"
#define BUG_ERRNO "ELOOP"

struct candidate {
	const char *release;        /* the release it stands for */
	const char *role;
	char *state;                /* "6.1.192+model+fix" */
	char *patches[2];
	size_t npatches;
	bool expect_bug;            /* must fail BUG_CHECK with BUG_ERRNO */
	char key[65];
	int build_status;
	bool cached;
	double build_seconds;
	char *image;
	int boot_status;
	struct boot_result boot;
	char *log, *record;
	bool ok;
	char *why;
};

struct run {
	struct history *h;
	const struct verify_opts *o;
	char *cache, *guest, *series[2];
	struct ktree tree;
	char *initrd, *gcc, *qemu, *stamp;
	struct candidate c[4];
	size_t n;
	uint32_t fix;
	int lock_fd;
};

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s ? s : xstrdup("");
}

static void progress(const struct run *r, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void progress(const struct run *r, const char *f, ...)
{
	va_list ap;

	if (r->o->json)
		return;
	va_start(ap, f);
	fputs("patchver: ", stderr);
	vfprintf(stderr, f, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void sha256_file(EVP_MD_CTX *ctx, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;

	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, n);
	if (f)
		fclose(f);
}

/* A candidate's identity: tree, patches, .config and compiler. */
static void state_key(struct run *r, struct candidate *c)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	char *config = fmt("%s/.config", r->tree.obj);

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	EVP_DigestUpdate(ctx, r->tree.id, strlen(r->tree.id));
	EVP_DigestUpdate(ctx, r->tree.version, strlen(r->tree.version));
	for (size_t i = 0; i < c->npatches; i++)
		sha256_file(ctx, c->patches[i]);
	sha256_file(ctx, config);
	EVP_DigestUpdate(ctx, r->gcc, strlen(r->gcc));
	EVP_DigestFinal_ex(ctx, md, &len);
	EVP_MD_CTX_free(ctx);
	for (unsigned i = 0; i < 32; i++)
		sprintf(c->key + 2 * i, "%02x", md[i]);
	free(config);
}

static const char *tag_name(const struct run *r, uint32_t t)
{
	return r->h->tags.v[t].shortname;
}

static void add_candidate(struct run *r, const char *release, const char *role,
			  int npatches, bool expect_bug)
{
	struct candidate *c = &r->c[r->n++];

	memset(c, 0, sizeof(*c));
	c->release = release;
	c->role = role;
	c->npatches = (size_t)npatches;
	for (int i = 0; i < npatches; i++)
		c->patches[i] = r->series[i];
	c->expect_bug = expect_bug;
}

/* "6.1.192+model+fix": what is built, never the historical kernel's name */
static void label_states(struct run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct candidate *c = &r->c[i];
		c->state = fmt("%s%s%s", r->tree.version, c->npatches > 0 ? "+model" : "",
			       c->npatches > 1 ? "+fix" : "");
	}
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The scenario, from the triage of the fix. */
static int derive_candidates(struct run *r, const struct triage *t)
{
	const struct tag_table *tt = &r->h->tags;
	uint32_t bad, control = UINT32_MAX;

	if (!t->naffected)
		return error(EXIT_NOT_CONFIRMED, "the triage finds no release with the bug "
			     "(%s): nothing to verify", t->verdict);
	bad = t->affected[0];
	for (size_t i = 0; i < tt->nreleases; i++) {
		uint32_t tag = tt->releases[i];
		const struct kver *v = &tt->v[tag].ver;
		if (tags_cmp_version(&r->h->tags, tag, bad) >= 0)
			break;
		if (!kver_is_rc(v) && !kver_is_stable(v))
			control = tag;
	}
	if (control != UINT32_MAX)
		add_candidate(r, tag_name(r, control), "control: last release before the bug", 0, false);
	add_candidate(r, tag_name(r, bad), "first release with the bug", 1, true);
	add_candidate(r, tag_name(r, bad), "first release with the bug, fix applied", 2, false);
	if (t->fix_first != UINT32_MAX)
		add_candidate(r, tag_name(r, t->fix_first), "first release with the fix", 2, false);
	return 0;
}

static int find_guest(struct run *r)
{
	const char *dir = r->o->guest_dir ? r->o->guest_dir : getenv("PATCHVER_GUEST_DIR");
	char *pattern;
	glob_t g;

	r->guest = xstrdup(dir ? dir : PATCHVER_GUEST_DIR);
	pattern = fmt("%s/*.patch", r->o->series_dir ? r->o->series_dir : fmt("%s/kernel", r->guest));
	if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc < 2) {
		free(pattern);
		return error(EXIT_NO_TOOL, "no kernel patch series (model, fix) in %s",
			     r->o->series_dir ? r->o->series_dir : r->guest);
	}
	r->series[0] = xstrdup(g.gl_pathv[0]);
	r->series[1] = xstrdup(g.gl_pathv[1]);
	globfree(&g);
	free(pattern);
	return 0;
}

static int check_tools(void)
{
	static const char *tools[] = { "make", "cc", "patch", "tar", "cp", "qemu-system-x86_64" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!boot_have_tool(tools[i]))
			return error(EXIT_NO_TOOL, "%s not found: run tools/setup.sh, or install it",
				     tools[i]);
	return 0;
}

/* The static test program and the initramfs around it. */
static int build_guest(struct run *r)
{
	char *src = fmt("%s/nofollow-test.c", r->guest), *bin = fmt("%s/guest/init", r->cache);
	char *log = fmt("%s/guest/build.log", r->cache), *dir = fmt("%s/guest", r->cache);
	char *argv[] = { "cc", "-static", "-O2", "-D_GNU_SOURCE", "-o", bin, src, NULL };
	struct proc_result pr;
	int ret = 0;

	mkdir(dir, 0755);
	r->initrd = fmt("%s/guest/initramfs.cpio.gz", r->cache);
	if (proc_run(argv, NULL, log, 120, &pr) < 0 || pr.exit_code != 0)
		ret = error(EXIT_BUILD, "cannot build the guest test program; see %s", log);
	else if (initramfs_write(r->initrd, bin) < 0)
		ret = error(EXIT_BUILD, "cannot write %s", r->initrd);
	free(src);
	free(bin);
	free(log);
	free(dir);
	return ret;
}

static int copy_file(const char *from, const char *to)
{
	char *argv[] = { "cp", (char *)from, (char *)to, NULL };
	struct proc_result pr;
	return proc_run(argv, NULL, NULL, 60, &pr) == 0 && pr.exit_code == 0 ? 0 : -1;
}

/* The last lines of a failed build's log, on stderr. */
static void show_tail(const struct run *r, const char *log)
{
	char *lines[6] = { 0 }, buf[1024];
	size_t n = 0;
	FILE *f = fopen(log, "r");

	if (!f || r->o->json) {
		if (f)
			fclose(f);
		return;
	}
	while (fgets(buf, sizeof(buf), f)) {
		free(lines[n % 6]);
		lines[n++ % 6] = xstrdup(buf);
	}
	fclose(f);
	for (size_t k = n > 6 ? n - 6 : 0; k < n; k++) {
		fprintf(stderr, "  | %s", lines[k % 6]);
		free(lines[k % 6]);
		lines[k % 6] = NULL;
	}
	for (size_t k = 0; k < 6; k++)
		free(lines[k]);
}

static int build_candidate(struct run *r, struct candidate *c, size_t i)
{
	char *dir, *log;
	struct stat st;
	int ret;

	state_key(r, c);
	dir = fmt("%s/images/%.16s", r->cache, c->key);
	c->image = fmt("%s/bzImage", dir);
	if (stat(c->image, &st) == 0) {
		c->cached = true;
		progress(r, "[build %zu/%zu] %s: %s cached", i + 1, r->n, c->release, c->state);
		free(dir);
		return 0;
	}
	log = fmt("%s/build.log", dir);
	mkdir(fmt("%s/images", r->cache), 0755);
	mkdir(dir, 0755);
	progress(r, "[build %zu/%zu] %s: %s ...", i + 1, r->n, c->release, c->state);
	ret = ktree_set_patches(&r->tree, c->patches, c->npatches, log);
	if (ret == EXIT_PATCH)
		c->why = fmt("patch does not apply (see %s)", log);
	if (!ret) {
		char *built = NULL;
		ret = ktree_build(&r->tree, log, &c->build_seconds, &built);
		if (ret == EXIT_BUILD)
			c->why = fmt("build failed (see %s)", log);
		if (!ret && copy_file(built, c->image) < 0)
			ret = EXIT_BUILD;
		free(built);
	}
	progress(r, "[build %zu/%zu] %s: %s %s in %.1fs", i + 1, r->n, c->release, c->state,
		 ret ? "FAILED" : "built", c->build_seconds);
	if (ret)
		show_tail(r, log);
	c->build_status = ret;
	free(log);
	free(dir);
	return ret;
}

static void write_record(struct run *r, struct candidate *c)
{
	FILE *f = fopen(c->record, "w");
	struct json j;

	if (!f)
		return;
	json_init(&j, f);
	json_obj_begin(&j);
	json_kstr(&j, "release", c->release);
	json_kstr(&j, "state", c->state);
	json_kstr(&j, "tree", r->tree.id);
	json_kstr(&j, "tree_version", r->tree.version);
	json_key(&j, "patches");
	json_arr_begin(&j);
	for (size_t i = 0; i < c->npatches; i++)
		json_str(&j, c->patches[i]);
	json_arr_end(&j);
	json_kstr(&j, "state_key", c->key);
	json_kstr(&j, "image", c->image);
	json_kstr(&j, "initramfs", r->initrd);
	json_kstr(&j, "gcc", r->gcc);
	json_kstr(&j, "qemu", r->qemu);
	json_kstr(&j, "command", c->boot.cmdline);
	json_obj_end(&j);
	fclose(f);
}

/* Did the guest behave as this candidate must? */
static void judge(struct candidate *c)
{
	const struct serial_report *s = &c->boot.serial;
	const struct guest_check *bug = serial_check(s, BUG_CHECK);

	if (c->boot.timed_out)
		c->why = fmt("boot timed out");
	else if (s->panic)
		c->why = fmt("kernel panic");
	else if (!s->began)
		c->why = fmt("the test program never ran");
	else if (!s->summary)
		c->why = fmt("the test program did not finish");
	if (c->why) {
		c->boot_status = EXIT_BOOT;
		return;
	}
	if (c->expect_bug) {
		c->ok = bug && !bug->pass && !strcmp(bug->err, BUG_ERRNO);
		c->why = c->ok ? fmt("fails as the bug says: %s %s", BUG_CHECK, BUG_ERRNO)
			       : fmt("expected %s to fail with %s", BUG_CHECK, BUG_ERRNO);
	} else {
		c->ok = s->fail == 0 && s->pass > 0;
		c->why = c->ok ? fmt("all checks pass") : fmt("%d check(s) fail", s->fail);
	}
}

static int boot_candidate(struct run *r, struct candidate *c, size_t i, const char *accel)
{
	int ret;

	c->log = fmt("%s/boots/%s-%zu-%s.log", r->cache, r->stamp, i + 1, c->release);
	c->record = fmt("%s/boots/%s-%zu-%s.json", r->cache, r->stamp, i + 1, c->release);
	progress(r, "[boot %zu/%zu] %s: %s (%s) ...", i + 1, r->n, c->release, c->state, accel);
	ret = boot_run(c->image, r->initrd, c->log, accel, r->o->timeout, &c->boot);
	write_record(r, c);
	if (ret)
		return ret;
	judge(c);
	progress(r, "[boot %zu/%zu] %s: %.1fs, %d pass, %d fail: %s", i + 1, r->n, c->release,
		 c->boot.seconds, c->boot.serial.pass, c->boot.serial.fail, c->why);
	return c->boot_status;
}


static void print_text(const struct run *r, bool confirmed, const char *verdict)
{
	char hex[13];
	char *subject = history_subject(r->h, r->fix);

	git_oid_tostr(hex, sizeof(hex), &r->h->dag.oids[r->fix]);
	printf("fix:      %s %s\n", hex, subject);
	printf("tree:     %s (%s)\n", r->tree.id, r->tree.version);
	printf("model:    %s\nfix:      %s\n", base_name(r->series[0]), base_name(r->series[1]));
	printf("%-12s %-40s %-18s %-14s %-11s %s\n", "models", "candidate", "built state",
	       "build", "boot", "result");
	for (size_t i = 0; i < r->n; i++) {
		const struct candidate *c = &r->c[i];
		char build[32], boot[32];

		if (c->build_status)
			snprintf(build, sizeof(build), "FAILED");
		else if (c->cached)
			snprintf(build, sizeof(build), "cached");
		else
			snprintf(build, sizeof(build), "built %.1fs", c->build_seconds);
		if (c->log && c->boot.seconds > 0)
			snprintf(boot, sizeof(boot), "%s %.1fs", c->boot.accel, c->boot.seconds);
		else
			snprintf(boot, sizeof(boot), "-");
		printf("%-12s %-40s %-18s %-14s %-11s %s: %s\n", c->release, c->role, c->state,
		       build, boot, c->ok ? "as expected" : "NOT as expected",
		       c->why ? c->why : "not run");
		for (size_t k = 0; k < c->boot.serial.nchecks; k++) {
			const struct guest_check *g = &c->boot.serial.checks[k];
			if (!g->pass)
				printf("%-12s   FAIL %s errno=%s expect=%s\n", "", g->name, g->err,
				       g->expect);
		}
	}
	printf("logs:     %s/boots/%s-*\n", r->cache, r->stamp);
	printf("verdict:  %s\n", verdict);
	(void)confirmed;
	free(subject);
}

static void json_candidate(struct json *j, const struct candidate *c)
{
	json_obj_begin(j);
	json_kstr(j, "release", c->release);
	json_kstr(j, "role", c->role);
	json_kstr(j, "state", c->state);
	json_key(j, "patches");
	json_arr_begin(j);
	for (size_t i = 0; i < c->npatches; i++)
		json_str(j, c->patches[i]);
	json_arr_end(j);
	json_kstr(j, "expect", c->expect_bug ? "fail " BUG_CHECK " " BUG_ERRNO : "all pass");
	json_key(j, "build");
	json_obj_begin(j);
	json_kint(j, "status", c->build_status);
	json_kbool(j, "cached", c->cached);
	json_kint(j, "milliseconds", (int64_t)(c->build_seconds * 1000));
	json_kstr(j, "image", c->image);
	json_obj_end(j);
	json_key(j, "boot");
	json_obj_begin(j);
	json_kstr(j, "accel", c->log ? c->boot.accel : NULL);
	json_kint(j, "milliseconds", (int64_t)(c->boot.seconds * 1000));
	json_kbool(j, "timed_out", c->boot.timed_out);
	json_kbool(j, "panic", c->boot.serial.panic);
	json_kstr(j, "kernel", c->boot.serial.kernel);
	json_kstr(j, "log", c->log);
	json_kstr(j, "record", c->record);
	json_kstr(j, "command", c->boot.cmdline);
	json_key(j, "checks");
	json_arr_begin(j);
	for (size_t k = 0; k < c->boot.serial.nchecks; k++) {
		const struct guest_check *g = &c->boot.serial.checks[k];
		json_obj_begin(j);
		json_kstr(j, "name", g->name);
		json_kbool(j, "pass", g->pass);
		json_kstr(j, "errno", g->err);
		json_kstr(j, "expect", g->expect);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_kbool(j, "as_expected", c->ok);
	json_kstr(j, "why", c->why);
	json_obj_end(j);
}

static void print_json(const struct run *r, bool confirmed, const char *verdict)
{
	struct json j;
	char hex[GIT_OID_HEXSZ + 1];

	json_init(&j, stdout);
	json_obj_begin(&j);
	json_kint(&j, "schema_version", 1);
	json_key(&j, "verify_boot");
	json_obj_begin(&j);
	git_oid_tostr(hex, sizeof(hex), &r->h->dag.oids[r->fix]);
	json_kstr(&j, "fix", hex);
	json_kstr(&j, "tree", r->tree.id);
	json_kstr(&j, "tree_version", r->tree.version);
	json_key(&j, "candidates");
	json_arr_begin(&j);
	for (size_t i = 0; i < r->n; i++)
		json_candidate(&j, &r->c[i]);
	json_arr_end(&j);
	json_kbool(&j, "confirmed", confirmed);
	json_kstr(&j, "verdict", verdict);
	json_obj_end(&j);
	json_obj_end(&j);
}

static int lock_cache(struct run *r)
{
	char *path = fmt("%s/lock", r->cache);

	r->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (r->lock_fd < 0)
		return error(EXIT_NO_TOOL, "cannot create the cache lock in %s: %s", r->cache,
			     strerror(errno));
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "patchver: waiting for another patchver run using %s\n", r->cache);
		if (flock(r->lock_fd, LOCK_EX) < 0)
			return error(EXIT_INTERRUPTED, "interrupted while waiting for the cache lock");
	}
	return 0;
}

static int prepare(struct run *r, const char *fix_rev)
{
	struct rev rev;
	struct contain c;
	struct triage t;
	int ret;
	char *gcc[] = { "cc", "--version", NULL }, *qemu[] = { "qemu-system-x86_64", "--version", NULL };
	char *boots;

	if ((ret = rev_resolve(&rev, r->h->repo, &r->h->dag, fix_rev)))
		return ret;
	r->fix = rev.commit;
	history_load_branches(r->h);
	contain_init(&c, r->h);
	ret = triage_run(&t, r->h, &c, r->fix, NULL);
	if (!ret)
		ret = find_guest(r);
	if (!ret)
		ret = derive_candidates(r, &t);
	triage_free(&t);
	contain_free(&c);
	if (ret || (ret = check_tools()))
		return ret;
	r->cache = ktree_cache_dir();
	{
		char *argv[] = { "mkdir", "-p", r->cache, NULL };
		struct proc_result pr;
		proc_run(argv, NULL, NULL, 10, &pr);
	}
	if ((ret = lock_cache(r)))
		return ret;
	boots = fmt("%s/boots", r->cache);
	mkdir(boots, 0755);
	free(boots);
	r->gcc = proc_first_line(gcc);
	r->qemu = proc_first_line(qemu);
	{
		time_t now = time(NULL);
		char buf[32];
		strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", gmtime(&now));
		r->stamp = xstrdup(buf);
	}
	if ((ret = build_guest(r)))
		return ret;
	progress(r, "kernel tree: %s", r->o->kernel_tree ? r->o->kernel_tree : "Debian linux-source");
	if ((ret = ktree_open(&r->tree, r->cache, r->o->kernel_tree)))
		return ret;
	label_states(r);
	{
		char *fragment = fmt("%s/kernel.config", r->guest);
		char *log = fmt("%s/configure.log", r->tree.obj);
		ret = ktree_set_patches(&r->tree, NULL, 0, log);
		if (!ret)
			ret = ktree_configure(&r->tree, fragment, log);
		free(fragment);
		free(log);
	}
	return ret;
}

static void cleanup(struct run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct candidate *c = &r->c[i];
		if (!r->o->keep && c->image && !c->cached) {
			unlink(c->image);
			char *dir = xstrdup(c->image);
			*strrchr(dir, '/') = '\0';
			char *log = fmt("%s/build.log", dir);
			if (!c->build_status)
				unlink(log);
			rmdir(dir);
			free(log);
			free(dir);
		}
		free(c->state);
		free(c->image);
		free(c->log);
		free(c->record);
		free(c->why);
		boot_result_free(&c->boot);
	}
	if (r->tree.id)
		ktree_free(&r->tree);
	if (r->lock_fd > 0)
		close(r->lock_fd);
	free(r->cache);
	free(r->guest);
	free(r->series[0]);
	free(r->series[1]);
	free(r->initrd);
	free(r->gcc);
	free(r->qemu);
	free(r->stamp);
}

int verify_boot(struct history *h, const char *fix_rev, const struct verify_opts *o)
{
	struct run r;
	const char *accel = boot_pick_accel(o->accel);
	int ret, first_problem = 0;
	bool confirmed;
	char *verdict;

	memset(&r, 0, sizeof(r));
	r.h = h;
	r.o = o;
	proc_install_signals();
	ret = prepare(&r, fix_rev);
	for (size_t i = 0; !ret && i < r.n; i++) {
		int b = build_candidate(&r, &r.c[i], i);
		if (b == EXIT_INTERRUPTED) {
			ret = b;
			break;
		}
		if (!b)
			b = boot_candidate(&r, &r.c[i], i, accel);
		if (b == EXIT_INTERRUPTED || b == EXIT_NO_TOOL) {
			ret = b;
			break;
		}
		if (b && !first_problem)
			first_problem = b;
	}
	if (!ret) {
		confirmed = !first_problem;
		for (size_t i = 0; i < r.n; i++)
			confirmed = confirmed && r.c[i].ok;
		verdict = confirmed ? xstrdup("fix confirmed") :
			  fmt("fix not confirmed: %s", first_problem == EXIT_BUILD ? "a build failed" :
			      first_problem == EXIT_PATCH ? "a patch does not apply" :
			      first_problem == EXIT_BOOT ? "a boot failed" :
			      "a candidate did not behave as expected");
		if (o->json)
			print_json(&r, confirmed, verdict);
		else
			print_text(&r, confirmed, verdict);
		free(verdict);
		ret = confirmed ? 0 : first_problem ? first_problem : EXIT_NOT_CONFIRMED;
	}
	if (ret == EXIT_INTERRUPTED)
		error(ret, "interrupted: make and qemu stopped, the cache is usable");
	cleanup(&r);
	return ret;
}

static long long du(const char *path)
{
	char *cmd = fmt("du -sk '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	long long kb = 0;

	if (p) {
		if (fscanf(p, "%lld", &kb) != 1)
			kb = 0;
		pclose(p);
	}
	free(cmd);
	return kb;
}

int verify_cache_clean(void)
{
	char *cache = ktree_cache_dir();
	char *images = fmt("%s/images", cache), *boots = fmt("%s/boots", cache);
	long long before = du(cache), after;
	char *argv[] = { "rm", "-rf", images, boots, NULL };
	struct proc_result pr;

	proc_run(argv, NULL, NULL, 120, &pr);
	after = du(cache);
	printf("cache %s: %lld MiB, freed %lld MiB (images and boot logs; the kernel "
	       "sources and object directory stay for incremental builds)\n",
	       cache, after / 1024, (before - after) / 1024);
	free(images);
	free(boots);
	free(cache);
	return 0;
}
