/*
 * libgit2's start without the system's certificate store.
 *
 * Debian's libgit2 1.5.1 is built with mbedTLS, and git_libgit2_init()
 * parses every certificate of /etc/ssl/certs/ca-certificates.crt (the
 * path is compiled in; no option or variable skips it): 5-6 ms on this
 * project's machines, a fifth of a one-query answer that git gives in
 * 30 ms.  patchver never connects anywhere (it reads a remote's URL at
 * most), so the bundle is never used.
 *
 * libgit2 reaches mbedTLS through its shared library, so the two loaders
 * below, exported from patchver-full.so, come before libmbedx509's in the
 * search order of the libraries patchver-full.so brings in, and libgit2
 * calls them instead.  They load nothing and leave the chain empty: a TLS
 * connection, were one ever made, would fail verification rather than
 * run unverified.  A libgit2 built with OpenSSL never calls them.
 *
 * gitstart_init() is what dispatch calls in place of git_libgit2_init():
 * the call is what links this file from the engine's static library into
 * patchver-full.so, and with it the two loaders.
 */
#include <git2.h>

#include "patchver/engine/gitstart.h"

struct mbedtls_x509_crt;

#define EXPORTED __attribute__((visibility("default")))

EXPORTED int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);
EXPORTED int mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path);

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path)
{
	(void)chain;
	(void)path;
	return 0;   /* no certificate read: none failed to parse */
}

int mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path)
{
	(void)chain;
	(void)path;
	return 0;
}

void gitstart_init(void)
{
	git_libgit2_init();
}

void gitstart_shutdown(void)
{
	git_libgit2_shutdown();
}

const char *git_errmsg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown error";
}
