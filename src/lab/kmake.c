/*
 * A kbuild Makefile as logical lines with their conditions (kmake.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/kmake.h"

/*
 * A conditional's option: "ifdef CONFIG_X", "ifeq ($(CONFIG_X),y)" give
 * CONFIG_X; "ifndef", "ifeq ($(CONFIG_X),)", "ifneq ($(CONFIG_X),y)"
 * give !CONFIG_X.  "" for a condition on anything else (no condition).
 */
static void read_cond(const char *line, char *cond, size_t len)
{
	const char *cfg = strstr(line, "CONFIG_");
	bool neg = !strncmp(line, "ifndef", 6) || !strncmp(line, "ifneq", 5);
	size_t n;

	*cond = '\0';
	if (!cfg)
		return;
	n = strspn(cfg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	/* ifeq ($(CONFIG_X),) and ifneq ($(CONFIG_X),) compare with nothing */
	if (!strncmp(line, "ifeq", 4) || !strncmp(line, "ifneq", 5)) {
		const char *comma = strchr(cfg, ',');
		bool empty = comma && (comma[1] == ')' || isspace((unsigned char)comma[1]));
		neg = empty ? !strncmp(line, "ifeq", 4) : neg;
	}
	snprintf(cond, len, "%s%.*s", neg ? "!" : "", (int)n, cfg);
}

/* The conditions of the open blocks, space-separated. */
static char *cond_text(char (*stack)[96], size_t depth)
{
	struct sbuf sb = SBUF_INIT;
	char *text;

	for (size_t i = 0; i < depth; i++)
		if (stack[i][0])
			sbuf_addf(&sb, "%s%s", sb.len ? " " : "", stack[i]);
	text = xstrdup(sbuf_str(&sb));
	sbuf_free(&sb);
	return text;
}

/* One logical line: a conditional moves the stack, anything else is kept with it. */
static void add_logical(struct mkline **v, size_t *n, size_t *alloc, const char *line,
			char (*stack)[96], size_t *depth)
{
	const char *p = line;

	while (isspace((unsigned char)*p))
		p++;
	if (!strncmp(p, "ifeq", 4) || !strncmp(p, "ifneq", 5) || !strncmp(p, "ifdef", 5) ||
	    !strncmp(p, "ifndef", 6)) {
		if (*depth < 16)
			read_cond(p, stack[*depth], sizeof(stack[0]));
		(*depth)++;
		return;
	}
	if (!strncmp(p, "else", 4) && *depth && *depth <= 16) {
		char *c = stack[*depth - 1];
		if (*c == '!')
			memmove(c, c + 1, strlen(c));
		else if (*c && strlen(c) + 1 < sizeof(stack[0]))
			memmove(c + 1, c, strlen(c) + 1), *c = '!';
		return;
	}
	if (!strncmp(p, "endif", 5)) {
		*depth -= *depth > 0;
		return;
	}
	*v = xgrow(*v, alloc, *n + 2, sizeof(**v));
	(*v)[*n].text = xstrdup(line);
	(*v)[(*n)++].conds = cond_text(stack, *depth < 16 ? *depth : 16);
	(*v)[*n].text = NULL;
}

/* The logical lines of a Makefile: continuations joined, comments dropped, conditions kept. */
struct mkline *kmake_lines(const char *text)
{
	struct mkline *v = NULL;
	size_t n = 0, alloc = 0, depth = 0;
	char stack[16][96];
	struct sbuf line = SBUF_INIT;

	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n'), *hash;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		bool more = len && p[len - 1] == '\\';

		hash = memchr(p, '#', len);
		sbuf_add(&line, p, hash ? (size_t)(hash - p) : len - more);
		if (more && !hash) {
			sbuf_add(&line, " ", 1);
		} else {
			add_logical(&v, &n, &alloc, sbuf_str(&line), stack, &depth);
			sbuf_reset(&line);
		}
		p = eol ? eol + 1 : p + len;
	}
	sbuf_free(&line);
	return v;
}

void kmake_lines_free(struct mkline *v)
{
	for (size_t i = 0; v && v[i].text; i++) {
		free(v[i].text);
		free(v[i].conds);
	}
	free(v);
}
