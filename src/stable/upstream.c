/*
 * Upstream references in backport messages.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "patchver/stable/upstream.h"

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

/* Does the line at p (after leading blanks) match one of the forms? */
static bool match_line(const char *p, const char *eol, char hex[41])
{
	size_t n;

	p = skip_spaces(p);
	if (*p == '[')
		p = skip_spaces(p + 1);
	if (*p == '(')
		p++;
	if (!strncasecmp(p, "upstream commit ", 16)) {
		return read_sha(skip_spaces(p + 16), hex) > 0;
	}
	if (!strncasecmp(p, "cherry picked from commit ", 26))
		return read_sha(p + 26, hex) > 0;
	if (!strncasecmp(p, "commit ", 7)) {
		const char *q = skip_spaces(p + 7);
		n = read_sha(q, hex);
		if (!n)
			return false;
		q = skip_spaces(q + n);
		return q < eol && !strncasecmp(q, "upstream", 8);
	}
	return false;
}

bool upstream_ref(const char *message, char hex[41])
{
	const char *p = message;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (match_line(p, eol, hex))
			return true;
		p = *eol ? eol + 1 : NULL;
	}
	return false;
}
