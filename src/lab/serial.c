/*
 * Serial-log parsing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/crash.h"
#include "patchver/lab/serial.h"

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
	c.pass ? r->pass++ : r->fail++;
}

/* "exit=N", "signal=SEGV", "timeout=N": how the reproducer ended. */
static void parse_end(struct serial_report *r, const char *p)
{
	char word[16];
	long v;

	p += strlen("PATCHVER-REPRO-END ");
	if (field(p, "exit=", word, sizeof(word)) && (v = strtol(word, NULL, 10)) >= 0 && v < 256) {
		r->end = REPRO_EXIT;
		r->exit_code = (int)v;
	} else if (field(p, "signal=", word, sizeof(word)) && isalnum((unsigned char)*word)) {
		r->end = REPRO_SIGNAL;
		snprintf(r->signal, sizeof(r->signal), "SIG%.12s", word);
	} else if (field(p, "timeout=", word, sizeof(word))) {
		r->end = REPRO_TIMEOUT;
		v = strtol(word, NULL, 10);
		r->timeout = v > 0 && v < 1000000 ? (int)v : 0;
	}
}

/* A console line after START: kept, and perhaps the first crash report. */
static void after_start(struct serial_report *r, const char *line)
{
	if (!*r->crash && crash_line(line))
		crash_title(line, r->crash, sizeof(r->crash));
	if (strstr(line, "Kernel panic"))
		r->panic_after_start = true;
	if (r->noutput < SERIAL_MAX_LINES) {
		r->output = xrealloc(r->output, (r->noutput + 1) * sizeof(*r->output));
		r->output[r->noutput++] = xstrdup(line);
	}
}

static void parse_line(struct serial_report *r, const char *line)
{
	/* console output can be prefixed by kernel noise on the same line */
	const char *p;

	if (strstr(line, "Kernel panic"))
		r->panic = true;
	if ((p = strstr(line, "PATCHVER-BEGIN"))) {
		r->began = true;
		field(p, "kernel=", r->kernel, sizeof(r->kernel));
	} else if (strstr(line, "PATCHVER-REPRO-START")) {
		r->started = true;
	} else if ((p = strstr(line, "PATCHVER-REPRO-END "))) {
		if (r->started && r->end == REPRO_NOT_ENDED)
			parse_end(r, p);
	} else if (r->started && r->end == REPRO_NOT_ENDED) {
		if ((p = strstr(line, "PATCHVER-CHECK ")))
			parse_check(r, p);
		after_start(r, line);
	} else if (!r->started && !*r->boot_crash && crash_line(line)) {
		crash_title(line, r->boot_crash, sizeof(r->boot_crash));
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
	for (size_t i = 0; i < r->noutput; i++)
		free(r->output[i]);
	free(r->output);
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
