#ifndef PATCHVER_BOOT_H
#define PATCHVER_BOOT_H

#include <stdbool.h>

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

/* "kvm" or "tcg": requested if given, else what this machine supports. */
const char *boot_pick_accel(const char *requested);

/* Is an executable called name on PATH? */
bool boot_have_tool(const char *name);

/* Boot with cpus CPUs; the serial log goes to log.  0, or EXIT_NO_TOOL/EXIT_INTERRUPTED. */
int boot_run(const char *kernel, const char *initrd, const char *log,
	     const char *accel, int timeout, int cpus, struct boot_result *r);
void boot_result_free(struct boot_result *r);

#endif
