/*
 * A build log's first error, and what it says is missing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/builderr.h"

/* gcc quotes with U+2018/U+2019 in a UTF-8 locale, ASCII ' otherwise; ld with ` and '. */
static const char *const opens[] = { "\xe2\x80\x98", "'", "`" };
static const char *const closes[] = { "\xe2\x80\x99", "'", "'" };

/* The quoted word after from, into out; the position after it, or NULL. */
static const char *quoted(const char *from, char *out, size_t n)
{
	for (size_t i = 0; i < sizeof(opens) / sizeof(opens[0]); i++) {
		const char *a = strstr(from, opens[i]), *b;

		if (!a || (size_t)(a - from) > 2)
			continue;
		a += strlen(opens[i]);
		if (!(b = strstr(a, closes[i])))
			continue;
		snprintf(out, n, "%.*s", (int)(b - a), a);
		return b + strlen(closes[i]);
	}
	return NULL;
}

/* "f.c:3:16: " at the start of the line: file and line, and where the message starts. */
static const char *location(const char *line, struct builderr *e)
{
	const char *c1 = strchr(line, ':');
	char *end;
	long l;

	if (!c1)
		return line;
	l = strtol(c1 + 1, &end, 10);
	if (end == c1 + 1 || *end != ':')
		return line;
	snprintf(e->file, sizeof(e->file), "%.*s", (int)(c1 - line), line);
	e->line = (int)l;
	strtol(end + 1, &end, 10);          /* the column, when there is one */
	while (*end == ':' || *end == ' ')
		end++;
	return end;
}

/* One compiler line: an error we can name, or another error, or nothing. */
static bool compiler_error(const char *line, struct builderr *e)
{
	const char *msg = location(line, e), *p;

	if (!strncmp(msg, "error: ", 7)) {
		msg += 7;
	} else if (!strncmp(msg, "fatal error: ", 13)) {
		msg += 13;
	} else if (strstr(line, ": Error: ")) {
		e->kind = BUILDERR_OTHER;       /* the assembler's */
		return true;
	} else {
		return false;
	}
	if (!strncmp(msg, "implicit declaration of function ", 33) &&
	    quoted(msg + 33, e->name, sizeof(e->name)))
		e->kind = BUILDERR_IMPLICIT_FUNCTION;
	else if (!strncmp(msg, "unknown type name ", 18) &&
		 quoted(msg + 18, e->name, sizeof(e->name)))
		e->kind = BUILDERR_UNKNOWN_TYPE;
	else if ((p = quoted(msg, e->container, sizeof(e->container))) &&
		 !strncmp(p, " has no member named ", 21) &&
		 quoted(p + 21, e->name, sizeof(e->name)))
		e->kind = BUILDERR_NO_MEMBER;
	else if ((p = quoted(msg, e->name, sizeof(e->name))) && !strncmp(p, " undeclared", 11))
		e->kind = BUILDERR_UNDECLARED;
	else if ((p = strstr(msg, ": No such file or directory")) && p > msg) {
		snprintf(e->name, sizeof(e->name), "%.*s", (int)(p - msg), msg);
		e->kind = BUILDERR_NO_HEADER;
	} else {
		e->kind = BUILDERR_OTHER;
	}
	if (e->kind != BUILDERR_NO_MEMBER)
		*e->container = '\0';
	return true;
}

/* "f.c:(.text+0xa): undefined reference to `symbol'" (the file before ":(" when given). */
static bool linker_error(const char *line, struct builderr *e)
{
	const char *p = strstr(line, "undefined reference to ");
	const char *paren = strstr(line, ":(");

	if (!p || !quoted(p + 23, e->name, sizeof(e->name)))
		return false;
	if (paren && paren < p)
		snprintf(e->file, sizeof(e->file), "%.*s", (int)(paren - line), line);
	e->line = 0;
	e->kind = BUILDERR_UNDEFINED_REFERENCE;
	return true;
}

void builderr_first(const char *text, size_t len, struct builderr *e)
{
	size_t start = 0;

	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i <= len && e->kind == BUILDERR_NONE; i++) {
		char *line;

		if (i < len && text[i] != '\n')
			continue;
		line = xstrndup(text + start, i - start);
		start = i + 1;
		if (compiler_error(line, e) || linker_error(line, e))
			snprintf(e->text, sizeof(e->text), "%s", line);
		else
			memset(e, 0, sizeof(*e));
		free(line);
	}
}

const char *builderr_kind_name(enum builderr_kind kind)
{
	static const char *const names[] = {
		[BUILDERR_NONE] = "no error", [BUILDERR_IMPLICIT_FUNCTION] = "implicit declaration",
		[BUILDERR_UNDECLARED] = "undeclared", [BUILDERR_NO_MEMBER] = "no such member",
		[BUILDERR_UNKNOWN_TYPE] = "unknown type", [BUILDERR_NO_HEADER] = "missing header",
		[BUILDERR_UNDEFINED_REFERENCE] = "undefined reference", [BUILDERR_OTHER] = "error",
	};

	return kind <= BUILDERR_OTHER ? names[kind] : "error";
}
