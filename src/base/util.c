/*
 * Allocation helpers and a growable string.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23      /* Linux 5.14; older kernels say EINVAL */
#endif

#include "patchver/base/error.h"
#include "patchver/base/util.h"

#define HUGE_ALLOC (4u << 20)

void hint_huge(void *p, size_t n)
{
	uintptr_t huge = 2u << 20;
	uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t end = ((uintptr_t)p + n) & ~(huge - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}

/*
 * Big arrays (a million commits' ids, dates, names) ask for huge pages:
 * where transparent huge pages are "madvise" only, each 4 KiB page of a
 * fresh array otherwise costs a fault, microseconds in a VM (96 MB: 0.16 s
 * against 0.07 s).
 */
static void *check(void *p, size_t n)
{
	if (!p && n)
		die_out_of_memory(n);
	if (n >= HUGE_ALLOC)
		hint_huge(p, n);
	return p;
}

void die_out_of_memory(size_t n)
{
	fprintf(stderr, "patchver: out of memory (%zu bytes)\n", n);
	exit(EXIT_INTERNAL);
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1), n);
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1), nmemb * size);
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1), n);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void *xgrow(void *p, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc;

	if (need <= n)
		return p;
	n = n ? n : 16;
	while (n < need)
		n = n * 3 / 2 + 16;
	*alloc = n;
	return xrealloc(p, n * elem);
}

void sbuf_add(struct sbuf *sb, const char *s, size_t n)
{
	sb->buf = xgrow(sb->buf, &sb->alloc, sb->len + n + 1, 1);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sbuf_adds(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb->buf = xgrow(sb->buf, &sb->alloc, sb->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sbuf_free(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

const char *sbuf_str(struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return xstrdup("");
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

#define HUGE_PAGE (2u << 20)

void *huge_calloc(size_t n)
{
	size_t len = (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	unsigned char *map = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t at;

	if (map == MAP_FAILED)
		return check(NULL, n);
	/* keep the aligned part alone: a huge page needs one */
	at = ((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (at > (uintptr_t)map)
		munmap(map, at - (uintptr_t)map);
	if ((uintptr_t)map + len + HUGE_PAGE > at + len)
		munmap((void *)(at + len), (uintptr_t)map + len + HUGE_PAGE - (at + len));
	madvise((void *)at, len, MADV_HUGEPAGE);
	return (void *)at;
}

void huge_free(void *p, size_t n)
{
	if (p)
		munmap(p, (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1));
}

void prefault(void *p, size_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + n) & ~(page - 1);

	if (n >= 1u << 20 && end > start)
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
}

static int id_cmp(const unsigned char *ids, uint32_t i, const unsigned char *id)
{
	return memcmp(ids + (size_t)i * ID_TABLE_LEN, id, ID_TABLE_LEN);
}

uint32_t id_table_find(const unsigned char *fanout, const unsigned char *ids, uint32_t nr,
		       const unsigned char *id)
{
	uint32_t lo = id[0] ? get_be32(fanout + 4 * (id[0] - 1u)) : 0, hi = get_be32(fanout + 4 * id[0]);
	uint32_t guess, step = 1;
	int c;

	if (hi > nr)
		hi = nr;
	if (lo >= hi)
		return PV_NONE;
	/* ids are uniform: the next bytes say about where it is */
	guess = lo + (uint32_t)(((uint64_t)get_be32(id + 1) * (hi - lo)) >> 32);
	if ((c = id_cmp(ids, guess, id)) == 0)
		return guess;
	if (c < 0) {            /* gallop up: bracket (guess, hi) */
		lo = guess + 1;
		while (lo + step < hi && id_cmp(ids, lo + step, id) < 0) {
			lo += step + 1;
			step *= 2;
		}
		if (lo + step < hi)
			hi = lo + step + 1;
	} else {                /* gallop down: bracket [lo, guess) */
		hi = guess;
		while (hi > lo + step && id_cmp(ids, hi - step - 1, id) > 0) {
			hi -= step + 1;
			step *= 2;
		}
		if (hi > lo + step)
			lo = hi - step - 1;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if ((c = id_cmp(ids, mid, id)) == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return PV_NONE;
}

int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

char *subject_of(const char *msg)
{
	const char *p = msg, *q;
	struct sbuf sb = SBUF_INIT;

	/* git's subject: the first paragraph, lines joined by spaces */
	while (*p == '\n')
		p++;
	while (*p && *p != '\n') {
		q = strchr(p, '\n');
		if (!q)
			q = p + strlen(p);
		if (sb.len)
			sbuf_adds(&sb, " ");
		sbuf_add(&sb, p, (size_t)(q - p));
		p = *q ? q + 1 : q;
	}
	if (!sb.buf)
		return xstrdup("");
	return sb.buf;
}

char *hex_tostr(char *out, size_t size, const unsigned char *id)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = size ? size - 1 : 0;

	if (n > 40)
		n = 40;
	for (size_t i = 0; i < n; i++)
		out[i] = digits[i & 1 ? id[i / 2] & 15 : id[i / 2] >> 4];
	if (size)
		out[n] = '\0';
	return out;
}

int hex_to_id(const char *hex, size_t len, unsigned char *id)
{
	if (len != 40)
		return -1;
	for (size_t i = 0; i < 20; i++) {
		int v = 0;
		for (int k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (d < 0)
				return -1;
			v = v * 16 + d;
		}
		id[i] = (unsigned char)v;
	}
	return 0;
}

bool path_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool path_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The rest of f after *len bytes read, growing buf as it comes (pipes, /proc). */
static char *read_rest(FILE *f, char *buf, size_t *len, size_t alloc)
{
	size_t n;

	for (;;) {
		if (*len + 1 >= alloc)
			buf = xrealloc(buf, alloc = alloc * 2 + 4096);
		n = fread(buf + *len, 1, alloc - *len - 1, f);
		if (!n)
			break;
		*len += n;
	}
	buf[*len] = '\0';
	return buf;
}

char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	size_t got = 0, want;
	char *buf;

	if (!f)
		return NULL;
	/* a regular file's size is known: one allocation, one copy */
	want = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
	buf = xmalloc(want + 2);
	setvbuf(f, NULL, _IONBF, 0);
	buf = read_rest(f, buf, &got, want + 2);
	fclose(f);
	if (len)
		*len = got;
	return buf;
}

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
