#ifndef PATCHVER_LAB_KMAKE_H
#define PATCHVER_LAB_KMAKE_H

/*
 * A kbuild Makefile as kobj.h reads it: logical lines (continuations
 * joined, comments dropped), each with the options of the conditional
 * blocks around it ("ifeq ($(CONFIG_X),y)", "ifdef CONFIG_X", their
 * negations and "else"; a condition on anything but an option adds none).
 */
struct mkline {
	char *text;                 /* NULL: the array's end */
	char *conds;                /* "CONFIG_A !CONFIG_B" ("": none) */
};

/* text's lines, ended by one whose text is NULL (caller frees with kmake_lines_free). */
struct mkline *kmake_lines(const char *text);
void kmake_lines_free(struct mkline *v);

#endif
