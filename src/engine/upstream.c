/*
 * Upstream references in backport messages, and what a revert names.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patchver/base/util.h"
#include "patchver/engine/upstream.h"

/* Read 7..40 hex digits at p; returns the count, 0 if not a sha. */
static size_t read_sha(const char *p, char hex[41])
{
	size_t n = 0;

	while (isxdigit((unsigned char)p[n]) && n < 40) {
		hex[n] = (char)tolower((unsigned char)p[n]);
		n++;
	}
	if (n < 7 || isalnum((unsigned char)p[n]))
		return 0;
	hex[n] = '\0';
	return n;
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Blanks, and one line break among them: where a wrapped id goes on. */
static const char *skip_wrap(const char *p)
{
	p = skip_spaces(p);
	if (*p == '\r')
		p++;
	if (*p == '\n')
		p = skip_spaces(p + 1);
	return p;
}

/* "... from commit <sha>" anywhere on the line, the id possibly on the next. */
static bool modified_from(const char *p, const char *eol, char hex[41])
{
	static const char phrase[] = "modified from commit";
	size_t len = sizeof(phrase) - 1;

	for (; p + len <= eol; p++)
		if (!strncasecmp(p, phrase, len))
			return read_sha(skip_wrap(p + len), hex) > 0;
	return false;
}

/* Does the line at p (after leading blanks) match one of the forms? */
static bool match_line(const char *p, const char *eol, char hex[41])
{
	const char *line = p;
	size_t n;

	p = skip_spaces(p);
	if (*p == '[')
		p = skip_spaces(p + 1);
	if (*p == '(')
		p++;
	if (!strncasecmp(p, "upstream commit", 15) && isspace((unsigned char)p[15]))
		return read_sha(skip_wrap(p + 15), hex) > 0;
	/* git's "(cherry picked from commit X)", and as KVM's 2.6.34.1 backports wrote it */
	if ((!strncasecmp(p, "cherry picked from commit", 25) ||
	     !strncasecmp(p, "cherry-picked from commit", 25)) && isspace((unsigned char)p[25]))
		return read_sha(skip_wrap(p + 25), hex) > 0;
	if (!strncasecmp(p, "commit ", 7)) {
		const char *q = skip_spaces(p + 7);
		n = read_sha(q, hex);
		if (!n)
			return false;
		q = skip_spaces(q + n);
		return q < eol && !strncasecmp(q, "upstream", 8);
	}
	return modified_from(line, eol, hex);
}

size_t upstream_refs(const char *message, char (*out)[41], size_t max)
{
	const char *p = message;
	size_t nr = 0;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		char hex[41];
		bool seen = false;

		if (!eol)
			eol = p + strlen(p);
		if (match_line(p, eol, hex)) {
			for (size_t i = 0; i < nr && i < max && !seen; i++)
				seen = !strcmp(out[i], hex);
			if (!seen && nr++ < max)
				memcpy(out[nr - 1], hex, sizeof(hex));
		}
		p = *eol ? eol + 1 : NULL;
	}
	return nr;
}

bool upstream_ref(const char *message, char hex[41])
{
	char first[1][41];

	if (!upstream_refs(message, first, 1))
		return false;
	memcpy(hex, first[0], sizeof(first[0]));
	return true;
}

bool upstream_revert(const char *message, char hex[41], char **subject)
{
	static const char says[] = "This reverts commit ";
	const char *p = message ? message : "", *s;
	size_t len;

	*subject = NULL;
	for (s = strstr(p, says); s; s = strstr(s + 1, says))
		if (read_sha(skip_wrap(s + sizeof(says) - 1), hex))
			return true;
	hex[0] = '\0';
	p = skip_spaces(p);
	if (strncmp(p, "Revert \"", 8))
		return false;
	p += 8;
	len = strcspn(p, "\n");
	/* the subject line ends with the closing quote */
	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (len < 2 || p[len - 1] != '"')
		return false;
	*subject = xstrndup(p, len - 1);
	return true;
}
