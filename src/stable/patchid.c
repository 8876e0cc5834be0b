/*
 * git's stable patch-id over diff text.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "patchver/base/util.h"
#include "patchver/stable/patchid.h"

struct pid {
	EVP_MD_CTX *ctx;
	unsigned char result[GIT_OID_RAWSZ];
};

/* git's flush_one_hunk(): finish this file's hash, add it with carry */
static void flush(struct pid *p)
{
	unsigned char hash[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	unsigned short carry = 0;

	EVP_DigestFinal_ex(p->ctx, hash, &len);
	EVP_DigestInit_ex(p->ctx, EVP_sha1(), NULL);
	for (int i = 0; i < GIT_OID_RAWSZ; i++) {
		carry += p->result[i] + hash[i];
		p->result[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

static void scan_hunk_header(const char *p, int *before, int *after)
{
	static const char digits[] = "0123456789";
	const char *q = p + 4, *r;
	size_t n = strspn(q, digits);

	if (q[n] == ',') {
		q += n + 1;
		*before = atoi(q);
		n = strspn(q, digits);
	} else {
		*before = 1;
	}
	if (n == 0 || q[n] != ' ' || q[n + 1] != '+')
		return;
	r = q + n + 2;
	n = strspn(r, digits);
	if (r[n] == ',') {
		r += n + 1;
		*after = atoi(r);
	} else {
		*after = 1;
	}
}

static size_t hash_line(struct pid *p, const char *line, size_t len)
{
	char buf[4096];
	size_t n = 0, total = 0;

	for (size_t i = 0; i < len; i++) {
		if (isspace((unsigned char)line[i]))
			continue;
		buf[n++] = line[i];
		if (n == sizeof(buf)) {
			EVP_DigestUpdate(p->ctx, buf, n);
			total += n;
			n = 0;
		}
	}
	EVP_DigestUpdate(p->ctx, buf, n);
	return total + n;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* One patch's lines: get_one_patchid() of git 2.39 in --stable mode. */
bool patchid_of_text(const char *diff, git_oid *out)
{
	struct pid p;
	int before = -1, after = -1, binary = 0;
	char pre[GIT_OID_HEXSZ + 1] = "", post[GIT_OID_HEXSZ + 1] = "";
	size_t patchlen = 0;
	const char *s = diff;

	memset(&p, 0, sizeof(p));
	p.ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(p.ctx, EVP_sha1(), NULL);
	while (*s) {
		const char *eol = strchr(s, '\n');
		size_t len = eol ? (size_t)(eol - s + 1) : strlen(s);
		char *line = xstrndup(s, len);

		s += len;
		if (starts(line, "\\ ") && len > 12)
			goto next;
		if (!patchlen && !starts(line, "diff "))
			goto next;
		if (before == -1) {
			if (starts(line, "GIT binary patch") || starts(line, "Binary files")) {
				binary = 1;
				before = 0;
				EVP_DigestUpdate(p.ctx, pre, strlen(pre));
				EVP_DigestUpdate(p.ctx, post, strlen(post));
				flush(&p);
				goto next;
			} else if (starts(line, "index ")) {
				char *dots = strstr(line, ".."), *end = NULL;
				if (dots)
					end = strchr(dots, ' ');
				if (!end)
					end = line + strlen(line) - 1;
				if (dots) {
					snprintf(pre, sizeof(pre), "%.*s", (int)(dots - line - 6), line + 6);
					snprintf(post, sizeof(post), "%.*s", (int)(end - dots - 2), dots + 2);
				}
				goto next;
			} else if (starts(line, "--- ")) {
				before = after = 1;
			} else if (!isalpha((unsigned char)line[0])) {
				free(line);
				break;
			}
		}
		if (binary) {
			if (starts(line, "diff ")) {
				binary = 0;
				before = -1;
			}
			goto next;
		}
		if (before == 0 && after == 0) {
			if (starts(line, "@@ -")) {
				scan_hunk_header(line, &before, &after);
				goto next;
			}
			if (!starts(line, "diff ")) {
				free(line);
				break;
			}
			flush(&p);
			before = after = -1;
		}
		if (line[0] == '-' || line[0] == ' ')
			before--;
		if (line[0] == '+' || line[0] == ' ')
			after--;
		patchlen += hash_line(&p, line, len);
next:
		free(line);
	}
	flush(&p);
	EVP_MD_CTX_free(p.ctx);
	if (!patchlen)
		return false;
	git_oid_fromraw(out, p.result);
	return true;
}
