#ifndef PATCHVER_LAB_DIGEST_H
#define PATCHVER_LAB_DIGEST_H

#include <stddef.h>
#include <openssl/evp.h>

/*
 * SHA-256 identities of what the lab builds and caches: states, compiled
 * reproducers, config variants, bisection logs.
 */

/* A new SHA-256 context (freed by digest_hex). */
EVP_MD_CTX *digest_new(void);

/* Add a file's bytes (nothing when it cannot be read). */
void digest_file(EVP_MD_CTX *ctx, const char *path);

/* Add a string, its NUL included (NULL: "-"), so that "a","b" differs from "ab". */
void digest_str(EVP_MD_CTX *ctx, const char *s);

/* Finish: the first nbytes of the digest as hex into hex (2*nbytes+1); frees ctx. */
void digest_hex(EVP_MD_CTX *ctx, char *hex, size_t nbytes);

#endif
