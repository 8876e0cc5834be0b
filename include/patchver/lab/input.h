#ifndef PATCHVER_LAB_INPUT_H
#define PATCHVER_LAB_INPUT_H

/*
 * The caller's inputs a lab error can be about (struct pv_error's
 * about): the message starts with the input's value ("'regex:(': the
 * regex does not compile"), and cli/ names the option that gave it.
 * The lab knows its inputs by what they hold, never by a flag.
 */
enum lab_input {
	LAB_INPUT_NONE,
	LAB_INPUT_BUG,              /* how the bug shows: "oops", "CHECK:ERRNO", ... */
	LAB_INPUT_CONFIG,           /* a requested kernel config: option, fragment or profile */
	LAB_INPUT_STRICT_CONFIG,    /* a requested option that did not stick, when that stops the run */
	LAB_INPUT_GUEST_FILE,       /* SRC[:DEST]: a file copied into the guest */
	LAB_INPUT_KERNEL_SOURCE,    /* no kernel tree given, and none installed */
	LAB_INPUT_CANDIDATE,        /* NAME=REV|PATCH[,PATCH...] */
	LAB_INPUT_EXPECT,           /* NAME=pass|bug|<how the bug shows> */
	LAB_INPUT_GOOD,             /* the bisection's old end */
	LAB_INPUT_BAD,              /* the bisection's new end */
	LAB_INPUT_FIX,              /* the fix search's new end */
	LAB_INPUT_FIX_HISTORY,      /* a kernel tree without the fix's history, and nothing models it */
	LAB_INPUT_ENDS_NOT_TAGS,    /* a release bisection asked of ends that are not both releases */
	LAB_INPUT_MEASURE,          /* --measure where there is no history to bisect */
};

#endif
