/*
 * QEMU boots.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/lab/boot.h"

#define QEMU "qemu-system-x86_64"

bool boot_have_tool(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "%s/%s", dir, name);
		found = access(sb.buf, X_OK) == 0;
		sbuf_free(&sb);
	}
	free(copy);
	return found;
}

static bool cpu_has_virt(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool yes = false;

	while (f && !yes && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && (strstr(line, " vmx") || strstr(line, " svm")))
			yes = true;
	if (f)
		fclose(f);
	return yes;
}

const char *boot_pick_accel(const char *requested)
{
	int fd;

	if (requested && *requested)
		return requested;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return "tcg";
	close(fd);
	return cpu_has_virt() ? "kvm" : "tcg";
}

/* Read on from where the last look ended; the grace runs from the first sight. */
bool boot_panic_seen(void *ctx)
{
	struct boot_panic_watch *w = ctx;
	struct timespec t;
	char buf[8192];
	FILE *f;
	size_t n;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (w->panicked)
		return (double)(t.tv_sec - w->seen.tv_sec) +
		       (t.tv_nsec - w->seen.tv_nsec) / 1e9 >= BOOT_PANIC_GRACE;
	if (!(f = fopen(w->log, "rb")))
		return false;
	/* from a little before where the last look ended: a line may straddle it */
	fseek(f, w->pos > 64 ? w->pos - 64 : 0, SEEK_SET);
	while (!w->panicked && (n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
		buf[n] = '\0';
		for (char *p = buf; p < buf + n && !w->panicked; p += strlen(p) + 1)
			w->panicked = strstr(p, "Kernel panic - not syncing") != NULL;
	}
	w->pos = ftell(f);
	fclose(f);
	w->seen = t;
	return false;
}

int boot_run(const char *kernel, const char *initrd, const char *log, const char *accel,
	     int timeout, int cpus, char *const *extra, struct boot_result *r)
{
	char smp[16], **args;
	size_t n = 0, nextra = 0;
	/*
	 * Reproducers come from other people and run as root: the guest gets
	 * no network device (QEMU would add a user-mode NIC by default) and
	 * shares no host directory.
	 */
	char *argv[] = { QEMU, "-kernel", (char *)kernel, "-initrd", (char *)initrd,
			 "-append", "console=ttyS0 panic=-1", "-nographic", "-no-reboot",
			 "-nic", "none",
			 "-m", "256M", "-accel", (char *)accel, cpus > 1 ? "-smp" : NULL, smp, NULL };
	struct sbuf cmd = SBUF_INIT;
	int ret = 0;
	struct boot_panic_watch watch = { .log = log };
	struct proc_result pr;

	snprintf(smp, sizeof(smp), "%d", cpus);
	memset(r, 0, sizeof(*r));
	snprintf(r->accel, sizeof(r->accel), "%s", accel);
	while (extra && extra[nextra])
		nextra++;
	/* QEMU, the sub-era's arguments (a machine type), then ours */
	args = xcalloc(sizeof(argv) / sizeof(argv[0]) + nextra, sizeof(*args));
	args[n++] = argv[0];
	for (size_t i = 0; i < nextra; i++)
		args[n++] = extra[i];
	for (size_t i = 1; argv[i]; i++)
		args[n++] = argv[i];
	for (size_t i = 0; args[i]; i++)
		sbuf_addf(&cmd, i ? (strchr(args[i], ' ') ? " '%s'" : " %s") : "%s", args[i]);
	r->cmdline = cmd.buf;
	if (!boot_have_tool(QEMU))
		ret = pv_error_set(PV_ENOTOOL, "%s not found: install qemu-system-x86", QEMU);
	else if (unlink(log), proc_run_watched(args, NULL, log, timeout, boot_panic_seen, &watch,
					       &pr) < 0)
		ret = pv_error_set(PV_ENOTOOL, "cannot run %s: %s", QEMU, strerror(errno));
	else if (pr.interrupted)
		ret = pv_error_set(PV_EINTERRUPTED, "interrupted while booting %s", kernel);
	free(args);
	if (ret)
		return ret;
	r->seconds = pr.seconds;
	r->timed_out = pr.timed_out;
	r->qemu_exit = pr.exit_code;
	serial_parse_file(log, &r->serial);
	return 0;
}

void boot_result_free(struct boot_result *r)
{
	free(r->cmdline);
	serial_free(&r->serial);
	memset(r, 0, sizeof(*r));
}
