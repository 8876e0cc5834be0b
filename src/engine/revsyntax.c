/*
 * The rev syntax the DAG walks itself (revsyntax.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/revsyntax.h"

size_t rev_steps_at(const char *spec)
{
	size_t len = strlen(spec), i = len;

	while (i && (isdigit((unsigned char)spec[i - 1]) || spec[i - 1] == '~' || spec[i - 1] == '^'))
		i--;
	while (i < len && isdigit((unsigned char)spec[i]))
		i++;
	if (!i || i == len || strpbrk(spec, ":{}") || strcspn(spec, "~^") < i)
		return 0;
	return i;
}

char rev_step(const char **p, unsigned long *n)
{
	char kind = *(*p)++;
	char *end;

	*n = isdigit((unsigned char)**p) ? strtoul(*p, &end, 10) : 1;
	if (isdigit((unsigned char)**p))
		*p = end;
	return kind;
}

const char *rev_range_to(const char *range)
{
	const char *dots = strstr(range, "..");

	if (!dots || dots == range || !dots[2] || dots[2] == '.')
		return NULL;
	return dots + 2;
}
