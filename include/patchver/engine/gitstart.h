#ifndef PATCHVER_ENGINE_GITSTART_H
#define PATCHVER_ENGINE_GITSTART_H

/*
 * libgit2's start and end for patchver, which reads local repositories
 * only and never opens a network connection.  Use these in place of
 * git_libgit2_init() / git_libgit2_shutdown() in patchver-full.so: see
 * gitstart.c for what they leave out, and why.
 */
void gitstart_init(void);
void gitstart_shutdown(void);

/* libgit2's last error message, or "unknown error": for a recorded PV_E* message. */
const char *git_errmsg(void);

#endif
