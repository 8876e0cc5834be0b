/*
 * Serial-log parsing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/lab/serial.h"
#include "patchver/base/util.h"

/* Copy the word after key= in line into out (at most n-1 bytes). */
static bool field(const char *line, const char *key, char *out, size_t n)
{
	const char *p = strstr(line, key);
	size_t len;

	if (!p)
		return false;
	p += strlen(key);
	len = strcspn(p, " \t\r\n");
	if (len >= n)
		len = n - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	return true;
}

static void parse_check(struct serial_report *r, const char *p)
{
	struct guest_check c;
	char verdict[8];
	int n = 0;

	memset(&c, 0, sizeof(c));
	if (sscanf(p, "PATCHVER-CHECK %63s %7s%n", c.name, verdict, &n) < 2)
		return;
	if (strcmp(verdict, "PASS") && strcmp(verdict, "FAIL"))
		return;
	c.pass = !strcmp(verdict, "PASS");
	field(p, "errno=", c.err, sizeof(c.err));
	field(p, "expect=", c.expect, sizeof(c.expect));
	r->checks = xrealloc(r->checks, (r->nchecks + 1) * sizeof(c));
	r->checks[r->nchecks++] = c;
}

/*
 * "pass=N fail=M": counts the guest printed, so a garbled console cannot
 * make them overflow or go negative (sscanf's %d on a long number is
 * undefined); out of range, the summary is not trusted.
 */
static bool count(const char **p, const char *key, int *out)
{
	size_t len = strlen(key);
	char *end;
	long v;

	if (strncmp(*p, key, len) || !isdigit((unsigned char)(*p)[len]))
		return false;
	errno = 0;
	v = strtol(*p + len, &end, 10);
	if (errno || v > SERIAL_MAX_COUNT)
		return false;
	*out = (int)v;
	*p = end;
	return true;
}

static void parse_summary(struct serial_report *r, const char *p)
{
	p += strlen("PATCHVER-SUMMARY ");
	r->summary = count(&p, "pass=", &r->pass) && *p++ == ' ' && count(&p, "fail=", &r->fail);
	if (!r->summary)
		r->pass = r->fail = 0;
}

static void parse_line(struct serial_report *r, const char *line)
{
	/* console output can be prefixed by kernel noise on the same line */
	const char *p;

	if ((p = strstr(line, "PATCHVER-BEGIN"))) {
		r->began = true;
		field(p, "kernel=", r->kernel, sizeof(r->kernel));
	} else if ((p = strstr(line, "PATCHVER-CHECK "))) {
		parse_check(r, p);
	} else if ((p = strstr(line, "PATCHVER-SUMMARY "))) {
		parse_summary(r, p);
	} else if (strstr(line, "Kernel panic")) {
		r->panic = true;
	}
}

void serial_parse(const char *text, size_t len, struct serial_report *r)
{
	size_t start = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		{
			char *line = xstrndup(text + start, i - start);
			/* a NUL inside the line ends it, as for any C consumer */
			parse_line(r, line);
			free(line);
		}
		start = i + 1;
	}
}

bool serial_parse_file(const char *path, struct serial_report *r)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, alloc = 0, n;

	memset(r, 0, sizeof(*r));
	if (!f)
		return false;
	do {
		buf = xgrow(buf, &alloc, len + 65536, 1);
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n > 0 && len < (64u << 20));
	fclose(f);
	serial_parse(buf, len, r);
	free(buf);
	return true;
}

void serial_free(struct serial_report *r)
{
	free(r->checks);
	memset(r, 0, sizeof(*r));
}

const struct guest_check *serial_check(const struct serial_report *r, const char *name)
{
	for (size_t i = 0; i < r->nchecks; i++)
		if (!strcmp(r->checks[i].name, name))
			return &r->checks[i];
	return NULL;
}
