/*
 * Crash reports on the console, and their titles.
 */
#include <ctype.h>
#include <string.h>

#include "patchver/lab/crash.h"

/* What a report's first line starts with (after a timestamp). */
static const char *const starts[] = {
	"BUG: ", "kernel BUG at ", "Oops: ", "Oops ", "WARNING: ", "Kernel panic",
	"general protection fault", "unable to handle", "KASAN: ", "UBSAN: ",
	"Unable to handle kernel", "divide error: ", "invalid opcode: ",
};

/* Past "[    1.234567] " and "<4>": where the kernel's text starts. */
static const char *skip_prefix(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\r' || *p == '\t')
			p++;
		if (*p == '<' && isdigit((unsigned char)p[1]) && p[2] == '>') {
			p += 3;
		} else if (*p == '[') {
			const char *q = p + 1;
			while (*q == ' ' || isdigit((unsigned char)*q) || *q == '.')
				q++;
			if (*q != ']' || q == p + 1)
				return p;
			p = q + 1;
		} else {
			return p;
		}
	}
}

bool crash_line(const char *line)
{
	const char *p = skip_prefix(line);

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strncmp(p, starts[i], strlen(starts[i])))
			return true;
	return false;
}

static bool hexdigit(char c)
{
	return isxdigit((unsigned char)c);
}

/* A run of hex digits at p: its length (0x prefix included), 0 if none. */
static size_t hex_run(const char *p)
{
	size_t n = 0, k = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		k = 2;
	while (hexdigit(p[k + n]))
		n++;
	return n ? k + n : 0;
}

/* "CPU: 0 PID: 55", "pid: 12", "PID 12": a word and a number to drop. */
static size_t id_field(const char *p)
{
	static const char *const words[] = { "CPU: ", "PID: ", "pid: ", "PID ", "pid ", "Comm: " };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t len = strlen(words[i]), k = len;
		if (strncmp(p, words[i], len))
			continue;
		while (p[k] && p[k] != ' ')
			k++;
		return k;
	}
	return 0;
}

void crash_title(const char *line, char *out, size_t n)
{
	const char *p = skip_prefix(line);
	size_t o = 0, k;

	if (!n)
		return;
	while (*p && *p != '\r' && *p != '\n' && o + 1 < n) {
		bool word_start = o == 0 || out[o - 1] == ' ' || out[o - 1] == '(' ||
				  out[o - 1] == '[' || out[o - 1] == '=';
		if (*p == '+' && (k = hex_run(p + 1)) && p[1 + k] == '/' && hex_run(p + 2 + k)) {
			p += 2 + k + hex_run(p + 2 + k);        /* +0x1c/0x80 */
		} else if (*p == ':' && isdigit((unsigned char)p[1]) && o && isalpha((unsigned char)out[o - 1])) {
			p++;                                     /* namei.c:1234 */
			while (isdigit((unsigned char)*p))
				p++;
		} else if (word_start && (k = id_field(p))) {
			p += k;
			while (*p == ' ')
				p++;
		} else if (word_start && *p == '[' && p[1] == '#') {
			while (*p && *p != ']')                  /* [#1] */
				p++;
			if (*p)
				p++;
		} else if (word_start && (k = hex_run(p)) && (k >= 8 || p[1] == 'x') &&
			   !isalnum((unsigned char)p[k])) {
			p += k;                                  /* an address, an error code */
			if (o + 4 < n) {
				memcpy(out + o, "ADDR", 4);
				o += 4;
			}
		} else {
			out[o++] = *p++;
		}
	}
	/* no double, leading or trailing blanks */
	out[o] = '\0';
	for (size_t r = 0, w = 0;; r++) {
		if (out[r] == ' ' && (w == 0 || out[w - 1] == ' ' || !out[r + 1]))
			continue;
		out[w++] = out[r];
		if (!out[r])
			break;
	}
	k = strlen(out);
	while (k && (out[k - 1] == ' ' || out[k - 1] == ','))
		out[--k] = '\0';
}
