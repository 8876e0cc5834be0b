#ifndef PATCHVER_LAB_BOOT_H
#define PATCHVER_LAB_BOOT_H

#include <stdbool.h>
#include <time.h>

#include "patchver/lab/serial.h"

/*
 * Booting a kernel in QEMU with the test initramfs, and reading what the
 * guest printed.  KVM only when it is really usable (on a VM without
 * vmx/svm, /dev/kvm opens but a KVM guest crawls): TCG otherwise.
 */
struct boot_result {
	char accel[8];
	double seconds;
	bool timed_out;
	int qemu_exit;
	char *cmdline;          /* the exact command, to rerun by hand */
	struct serial_report serial;
};

/*
 * A kernel that panicked is done, but does not always end QEMU: an early
 * panic (2.6.3x on TCG: "IO-APIC + timer doesn't work!") can hang before
 * panic=-1 reboots.  boot_panic_seen, a proc_run_watched() watcher, says
 * to stop BOOT_PANIC_GRACE seconds after the log shows the panic line,
 * rather than at --boot-timeout.
 */
#define BOOT_PANIC_GRACE 3.0

struct boot_panic_watch {
	const char *log;            /* the serial log, as it grows */
	long pos;                   /* read so far */
	struct timespec seen;       /* when the panic line was seen */
	bool panicked;
};

bool boot_panic_seen(void *ctx);

/* "kvm" or "tcg": requested if given, else what this machine supports. */
const char *boot_pick_accel(const char *requested);

/* Is an executable called name on PATH? */
bool boot_have_tool(const char *name);

/*
 * Boot with cpus CPUs and QEMU's arguments extra (NULL-terminated, may be
 * NULL: a sub-era's machine type); the serial log goes to log.  0, or
 * PV_ENOTOOL/PV_EINTERRUPTED.
 */
int boot_run(const char *kernel, const char *initrd, const char *log, const char *accel,
	     int timeout, int cpus, char *const *extra, struct boot_result *r);
void boot_result_free(struct boot_result *r);

#endif
