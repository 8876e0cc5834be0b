/*
 * SHA-256 of what the lab caches.
 */
#include <stdio.h>
#include <string.h>

#include "patchver/lab/digest.h"

EVP_MD_CTX *digest_new(void)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	return ctx;
}

void digest_file(EVP_MD_CTX *ctx, const char *path)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	char buf[65536];
	size_t k;

	while (f && (k = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, k);
	if (f)
		fclose(f);
}

void digest_str(EVP_MD_CTX *ctx, const char *s)
{
	if (!s)
		s = "-";
	EVP_DigestUpdate(ctx, s, strlen(s) + 1);
}

void digest_hex(EVP_MD_CTX *ctx, char *hex, size_t nbytes)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;

	EVP_DigestFinal_ex(ctx, md, &len);
	EVP_MD_CTX_free(ctx);
	for (size_t i = 0; i < nbytes && i < len; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
}
