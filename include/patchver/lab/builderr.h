#ifndef PATCHVER_LAB_BUILDERR_H
#define PATCHVER_LAB_BUILDERR_H

#include <stddef.h>

/*
 * The first error of a kernel build's log, read for what is missing:
 * a backport that does not build usually lacks a helper, a macro, a
 * struct member or a header that came in after the release it goes to.
 * The messages are gcc 12's and GNU ld's (UTF-8 quotes or ASCII ones):
 *
 *   f.c:3:16: error: implicit declaration of function 'helper' [...]
 *   f.c:3:16: error: 'MACRO' undeclared (first use in this function)
 *   f.c:4:21: error: 'struct inode' has no member named 'i_x'
 *   f.c:3:9: error: unknown type name 'type_t'
 *   f.c:1:10: fatal error: linux/x.h: No such file or directory
 *   f.c:(.text+0xa): undefined reference to `symbol'
 */
enum builderr_kind {
	BUILDERR_NONE,              /* no error in the text */
	BUILDERR_IMPLICIT_FUNCTION, /* name: the function */
	BUILDERR_UNDECLARED,        /* name: the identifier (a macro, a variable) */
	BUILDERR_NO_MEMBER,         /* name: the member; container: "struct inode" */
	BUILDERR_UNKNOWN_TYPE,      /* name: the type */
	BUILDERR_NO_HEADER,         /* name: the header as included */
	BUILDERR_UNDEFINED_REFERENCE, /* name: the symbol */
	BUILDERR_OTHER,             /* an error none of the above: text holds it */
};

struct builderr {
	enum builderr_kind kind;
	char file[256];             /* where it was seen ("" when the linker does not say) */
	int line;                   /* 0 when unknown */
	char name[128];             /* what is missing */
	char container[128];        /* BUILDERR_NO_MEMBER: the struct or union */
	char text[512];             /* the line itself */
};

/* The first error of the log text (len bytes); e->kind BUILDERR_NONE if none. */
void builderr_first(const char *text, size_t len, struct builderr *e);

/* "implicit declaration", "undeclared", ...: the kind in a report's words. */
const char *builderr_kind_name(enum builderr_kind kind);

#endif
