/* Unit tests: which options build a source file (kbuild's Makefiles, Kconfig's depends on). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "patchver/base/util.h"
#include "patchver/lab/kdeps.h"
#include "patchver/lab/kobj.h"
#include "patchver/lab/unbuilt.h"

/* A tree as path/text pairs. */
static const char *const tree[][2] = {
	{ "Makefile",
	  "VERSION = 2\n"
	  "core-y\t\t+= kernel/ mm/ fs/ \\\n\t\t   ipc/\n"
	  "drivers-y\t:= drivers/ sound/\n"
	  "net-y\t\t:= net/\n" },
	{ "Kconfig", "mainmenu \"Linux\"\nsource \"init/Kconfig\"\nsource \"drivers/Kconfig\"\n"
		     "source \"arch/$SRCARCH/Kconfig\"\n" },
	{ "arch/x86/Kconfig", "config X86\n\tdef_bool y\n" },
	{ "arch/x86/Makefile", "core-y += arch/x86/\nlibs-y += arch/x86/lib/\n" },
	{ "arch/x86/lib/Makefile", "lib-y := delay.o\n" },
	{ "arch/x86/kernel/Makefile", "extra-y := head$(BITS).o init_task.o\nobj-y := setup.o\n"
				      "obj-y += process_$(BITS).o\nobj-$(CONFIG_APM) += apm.o\n" },
	{ "init/Kconfig",
	  "config BSD_PROCESS_ACCT\n\tbool \"BSD Process Accounting\"\n\thelp\n"
	  "\t  If you say Y here, a user level program will be able to\n"
	  "\t  if this line were read as Kconfig it would open a block\n"
	  "\nconfig NET\n\tbool \"Networking\"\n"
	  "menu \"Net options\"\n\tdepends on NET\n"
	  "config PACKET\n\tbool \"Packet\"\n\tdepends on !EMBEDDED || EXPERT\n"
	  "endmenu\n"
	  "if NET\nconfig WIRELESS\n\tbool \"Wireless\"\n\tdepends on PCI && (USB || PCCARD)\nendif\n" },
	{ "drivers/Kconfig", "config PCI\n\tbool \"PCI\"\nconfig USB\n\tbool \"USB\"\n"
			     "config EMPTYHELP\n\tbool \"x\"\n\thelp\n"
			     "if USB\nconfig USB_STORAGE\n\tbool \"storage\" \\\n\t\tif PCI\nendif\n"
			     "config MMU\n\tdef_bool y\nconfig ASKED\n\tbool \"asked\"\n\tdefault y\n" },
	{ "mm/Makefile", "mmu-y := nommu.o\nmmu-$(CONFIG_MMU) := fremap.o \\\n\tmmap.o\n"
			 "obj-y := util.o $(mmu-y)\n" },
	{ "fs/Makefile", "ifeq ($(CONFIG_BLOCK),y)\nobj-y += bio.o\n"
			 "ifdef CONFIG_SMP\nobj-y += percpu.o\nelse\nobj-y += percpu_up.o\nendif\n"
			 "else\nobj-y += no-block.o\nendif\n"
			 "ifneq ($(CONFIG_BLK_DEV_INITRD),y)\nobj-y += noinitramfs.o\nelse\n"
			 "obj-$(CONFIG_BLK_DEV_INITRD) += initramfs.o\nendif\n"
			 "ifneq ($(CONFIG_ACPI_PROCESSOR),)\nobj-y += cstate.o\nendif\n" },
	{ "arch/x86/boot/Makefile", "targets := vmlinux.bin setup.bin\nsetup-y += a20.o main.o\n" },
	{ "arch/x86/boot/compressed/Makefile", "targets := vmlinux misc.o piggy.o\n" },
	{ "arch/x86/Kbuild", "obj-y += kernel/\nobj-$(CONFIG_KVM) += kvm/\n" },
	{ "arch/x86/kvm/Makefile", "kvm-y += x86.o\nobj-$(CONFIG_KVM) += kvm.o\n" },
	{ "kernel/Makefile",
	  "# kernel\nobj-y     = fork.o exec_domain.o \\\n\t    panic.o\n"
	  "obj-$(CONFIG_BSD_PROCESS_ACCT) += acct.o\n"
	  "obj-$(CONFIG_MODULES) += module.o\n"
	  "obj-$(CONFIG_KALLSYMS) += kallsyms.o\nobj-$(CONFIG_STACKTRACE) += kallsyms.o\n"
	  "obj-m += notbuilt.o\n" },
	{ "drivers/Makefile", "obj-$(CONFIG_PCI) += pci/\nobj-y += base/\n" },
	{ "drivers/pci/Makefile", "obj-y += probe.o\nobj-$(CONFIG_HOTPLUG) += hotplug.o\n" },
	{ "drivers/base/Makefile", "obj-y := core.o\n" },
	{ "net/Makefile", "obj-$(CONFIG_NET) += core/\nobj-$(CONFIG_WIRELESS) += wireless/\n" },
	{ "net/wireless/Makefile", "obj-$(CONFIG_CFG80211) += cfg80211.o\n"
				   "cfg80211-y += core.o sysfs.o\ncfg80211-$(CONFIG_WEXT) += wext.o\n" },
	{ NULL, NULL },
};

/* A tree of 5.x and later: the top Kbuild lists the top directories. */
static const char *const tree6[][2] = {
	{ "Makefile", "core-y\t\t:=\ndrivers-y\t:=\nlibs-y\t\t:= lib/\n" },
	{ "Kbuild", "obj-y\t\t\t+= arch/$(SRCARCH)/\nobj-y\t\t\t+= kernel/\nobj-y += fs/\n"
		    "obj-$(CONFIG_NET)\t+= net/\n" },
	{ "arch/x86/Kbuild", "obj-y += kernel/\n" },
	{ "arch/x86/kernel/Makefile", "obj-y += setup.o\n" },
	{ "fs/Makefile", "obj-y :=\topen.o \\\n\t\tnamei.o\n" },
	{ "net/Makefile", "obj-y := socket.o\n" },
	{ NULL, NULL },
};

/* ctx NULL: tree; else tree6. */
static char *read_tree(void *ctx, const char *path)
{
	const char *const (*t)[2] = ctx ? tree6 : tree;

	for (size_t i = 0; t[i][0]; i++)
		if (!strcmp(t[i][0], path))
			return xstrdup(t[i][1]);
	return NULL;
}

static const char *ways6(const char *path)
{
	static char buf[256];
	struct kobj_need n;

	kobj_needs(read_tree, (void *)tree6, path, &n);
	snprintf(buf, sizeof(buf), "%s", !n.nways ? "-" : n.ways[0].options && n.ways[0].options[0] ?
		 n.ways[0].options[0] : "");
	kobj_need_free(&n);
	return buf;
}

/* The ways that build path, as "A+B|C" ("" for always; "-" for none). */
static const char *ways(const char *path)
{
	static char buf[512];
	struct kobj_need n;

	kobj_needs(read_tree, NULL, path, &n);
	*buf = '\0';
	if (!n.nways)
		strcpy(buf, "-");
	for (size_t i = 0; i < n.nways; i++) {
		if (i)
			strcat(buf, "|");
		for (char **o = n.ways[i].options; o && *o; o++) {
			if (o != n.ways[i].options)
				strcat(buf, "+");
			strcat(buf, *o);
		}
	}
	kobj_need_free(&n);
	return buf;
}

static const char *unbuilt(const char *path, const char *config)
{
	static char buf[1024];
	char *line = kobj_unbuilt_line(read_tree, NULL, path, config);

	snprintf(buf, sizeof(buf), "%s", line ? line : "built");
	free(line);
	return buf;
}

static const char *unmet(const char *option, const char *config)
{
	static char buf[512];
	bool found;
	char **u = kdeps_unmet(read_tree, NULL, option, config, &found);

	snprintf(buf, sizeof(buf), "%s", found ? "" : "(none)");
	for (char **p = u; p && *p; p++) {
		strcat(buf, p == u ? "" : " ");
		strcat(buf, *p);
	}
	strv_free(u);
	return buf;
}

int main(void)
{
	/* kbuild: the file's line, its directory's up to the top */
	CHECK_STR(ways("kernel/fork.c"), "");
	CHECK_STR(ways("kernel/panic.c"), "");                 /* a continued line */
	CHECK_STR(ways("kernel/acct.c"), "CONFIG_BSD_PROCESS_ACCT");
	CHECK_STR(ways("kernel/kallsyms.c"), "CONFIG_KALLSYMS|CONFIG_STACKTRACE");  /* two options */
	CHECK_STR(ways("kernel/notbuilt.c"), "-");             /* a module only */
	CHECK_STR(ways("kernel/nosuch.c"), "-");
	CHECK_STR(ways("drivers/pci/probe.c"), "CONFIG_PCI");  /* obj-y in a directory under an option */
	CHECK_STR(ways("drivers/pci/hotplug.c"), "CONFIG_HOTPLUG+CONFIG_PCI");
	CHECK_STR(ways("drivers/base/core.c"), "");
	CHECK_STR(ways("arch/x86/kernel/setup.c"), "");        /* arch/x86/ in core-y, kernel/ in its Kbuild */
	CHECK_STR(ways("arch/x86/lib/delay.c"), "");           /* the arch Makefile names it by its whole path */
	CHECK_STR(ways("arch/x86/kernel/apm.c"), "CONFIG_APM");
	CHECK_STR(ways("arch/x86/kernel/init_task.c"), "");     /* extra-y: the head objects */
	CHECK_STR(ways("arch/x86/kernel/head64.c"), "CONFIG_64BIT");   /* $(BITS) */
	CHECK_STR(ways("arch/x86/kernel/process_32.c"), "!CONFIG_64BIT");
	/* 5.x on: the top Kbuild's directories (arch/$(SRCARCH)/ among them); the arch's
	 * Kbuild names its own subdirectories, not the top's */
	CHECK_STR(ways6("fs/namei.c"), "");
	CHECK_STR(ways6("arch/x86/kernel/setup.c"), "");
	CHECK_STR(ways6("net/socket.c"), "CONFIG_NET");
	CHECK_STR(ways6("kernel/nosuch.c"), "-");

	/* a list named by an assignment ("obj-y += $(mmu-y)") */
	CHECK_STR(ways("mm/mmap.c"), "CONFIG_MMU");
	CHECK_STR(ways("mm/nommu.c"), "!CONFIG_MMU");           /* a later ":=" replaces the list */
	CHECK_STR(unbuilt("mm/nommu.c", "CONFIG_MMU=y\n"),
		  "mm/nommu.c is not built here: it needs CONFIG_MMU off; --config CONFIG_MMU=n may turn it on");
	/* conditional blocks: ifeq/ifneq/ifdef/ifndef, else, nested */
	CHECK_STR(ways("fs/bio.c"), "CONFIG_BLOCK");
	CHECK_STR(ways("fs/no-block.c"), "!CONFIG_BLOCK");
	CHECK_STR(ways("fs/percpu.c"), "CONFIG_BLOCK+CONFIG_SMP");
	CHECK_STR(ways("fs/percpu_up.c"), "!CONFIG_SMP+CONFIG_BLOCK");
	CHECK_STR(ways("fs/noinitramfs.c"), "!CONFIG_BLK_DEV_INITRD");
	CHECK_STR(ways("fs/initramfs.c"), "CONFIG_BLK_DEV_INITRD");
	CHECK_STR(ways("fs/cstate.c"), "CONFIG_ACPI_PROCESSOR");
	CHECK_STR(ways("mm/util.c"), "");
	/* a directory's Kbuild first (arch/x86's), an option named twice on the way once */
	CHECK_STR(ways("arch/x86/kvm/x86.c"), "CONFIG_KVM");
	/* the setup code and the decompressor: made for the image */
	CHECK_STR(ways("arch/x86/boot/main.c"), "");
	CHECK_STR(ways("arch/x86/boot/compressed/misc.c"), "");
	CHECK_STR(ways("arch/x86/boot/nosuch.c"), "-");
	/* a composite object's parts */
	CHECK_STR(ways("net/wireless/core.c"), "CONFIG_CFG80211+CONFIG_WIRELESS");
	CHECK_STR(ways("net/wireless/wext.c"), "CONFIG_CFG80211+CONFIG_WEXT+CONFIG_WIRELESS");

	/* Kconfig: own depends, the menu's, the if block's; help text is not read */
	CHECK_STR(unmet("CONFIG_BSD_PROCESS_ACCT", ""), "");
	CHECK_STR(unmet("CONFIG_NOSUCH", ""), "(none)");
	CHECK_STR(unmet("CONFIG_PACKET", ""), "CONFIG_NET");
	CHECK_STR(unmet("CONFIG_PACKET", "CONFIG_NET=y\n"), "");
	CHECK_STR(unmet("CONFIG_PACKET", "CONFIG_NET=y\nCONFIG_EMBEDDED=y\n"), "CONFIG_EXPERT");
	CHECK_STR(unmet("CONFIG_WIRELESS", "CONFIG_NET=y\nCONFIG_PCI=y\n"), "CONFIG_USB CONFIG_PCCARD");
	CHECK_STR(unmet("CONFIG_WIRELESS", "CONFIG_NET=y\nCONFIG_PCI=y\nCONFIG_USB=y\n"), "");
	CHECK_STR(unmet("CONFIG_WIRELESS", ""), "CONFIG_NET CONFIG_PCI CONFIG_USB CONFIG_PCCARD");

	/* an empty help ends at the next entry; a prompt's condition continued on the next line */
	CHECK_STR(unmet("CONFIG_USB_STORAGE", ""), "CONFIG_USB");
	CHECK(kdeps_default_on(read_tree, NULL, "CONFIG_MMU"));
	CHECK(!kdeps_default_on(read_tree, NULL, "CONFIG_ASKED"));     /* asked: allnoconfig says n */
	CHECK(!kdeps_default_on(read_tree, NULL, "CONFIG_PCI"));

	/* the line a plan prints */
	CHECK_STR(unbuilt("kernel/fork.c", ""), "built");
	CHECK_STR(unbuilt("kernel/acct.c", "CONFIG_BSD_PROCESS_ACCT=y\n"), "built");
	CHECK_STR(unbuilt("kernel/acct.c", "# CONFIG_BSD_PROCESS_ACCT is not set\n"),
		  "kernel/acct.c is not built here: it needs CONFIG_BSD_PROCESS_ACCT; "
		  "--config CONFIG_BSD_PROCESS_ACCT=y may turn it on");
	CHECK_STR(unbuilt("kernel/kallsyms.c", "CONFIG_STACKTRACE=y\n"), "built");
	CHECK_STR(unbuilt("net/wireless/core.c", "CONFIG_NET=y\nCONFIG_PCI=y\nCONFIG_CFG80211=y\n"),
		  "net/wireless/core.c is not built here: it needs CONFIG_WIRELESS (which depends on "
		  "CONFIG_USB, CONFIG_PCCARD, unset here); --config CONFIG_USB=y --config CONFIG_PCCARD=y "
		  "--config CONFIG_WIRELESS=y may turn it on");
	CHECK_STR(unbuilt("kernel/notbuilt.c", ""),
		  "kernel/notbuilt.c is not built here: no Makefile line of its directory names it");

	/* a header is built when an object's .cmd file lists it */
	const char *cmd = "cmd_kernel/exit.o := gcc ...\n\ndeps_kernel/exit.o := \\\n"
			  "  kernel/exit.c \\\n    $(wildcard include/config/acct.h) \\\n"
			  "  /cache/work/include/linux/acct.h \\\n  include/linux/fs.h \\\n";
	CHECK(unbuilt_cmd_names(cmd, "include/linux/acct.h"));      /* under the source tree */
	CHECK(unbuilt_cmd_names(cmd, "include/linux/fs.h"));
	CHECK(!unbuilt_cmd_names(cmd, "include/linux/s.h"));        /* a path's tail is no path */
	CHECK(!unbuilt_cmd_names(cmd, "include/linux/fs"));
	CHECK(!unbuilt_cmd_names(cmd, "include/linux/nosuch.h"));
	return check_done();
}
