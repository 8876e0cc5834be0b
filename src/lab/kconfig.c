/*
 * Config fragments: the era's base and the reproducer's requests.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/digest.h"
#include "patchver/lab/input.h"
#include "patchver/lab/kconfig.h"

/* The line that separates the base from the requests in a merged fragment. */
#define REQUESTS_MARK "# --- requested by the patchver run ---\n"

static bool is_option(const char *s)
{
	size_t k = 0;

	if (strncmp(s, "CONFIG_", 7))
		return false;
	for (k = 7; isalnum((unsigned char)s[k]) || s[k] == '_'; k++)
		;
	return k > 7 && s[k] == '=' && s[k + 1] && !strpbrk(s + k + 1, " \t\n");
}

/* A profile's file for era (era "" : the generic one), or NULL. */
static char *profile(const char *guest, const char *era, const char *name)
{
	char *path = *era ? xstrfmt("%s/compat/%s/configs/%s.config", guest, era, name)
			  : xstrfmt("%s/configs/%s.config", guest, name);

	if (path_is_file(path))
		return path;
	free(path);
	return NULL;
}

static bool is_name(const char *s)
{
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	return *s != '\0';
}

int kconfig_request_init(struct kconfig_request *r, char *const *args, const char *guest)
{
	EVP_MD_CTX *ctx = digest_new();
	char hex[17];
	int ret = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; args && args[i] && !ret; i++) {
		const char *a = args[i];
		char *p = is_name(a) ? profile(guest, "", a) : NULL;

		if (!is_option(a) && !p && !(strchr(a, '/') || strchr(a, '.') ? path_is_file(a) : false))
			ret = pv_error_set_about(PV_EINVALID, LAB_INPUT_CONFIG, "%s: not CONFIG_X=VALUE, "
						 "a fragment file, or a profile of %s/configs/", a, guest);
		free(p);
		r->args = xrealloc(r->args, (r->nargs + 1) * sizeof(*r->args));
		r->args[r->nargs++] = xstrdup(a);
		digest_str(ctx, a);
	}
	digest_hex(ctx, hex, 8);
	if (r->nargs)
		memcpy(r->variant, hex, sizeof(r->variant));
	return ret;
}

void kconfig_request_free(struct kconfig_request *r)
{
	for (size_t i = 0; i < r->nargs; i++)
		free(r->args[i]);
	free(r->args);
	memset(r, 0, sizeof(*r));
}

static bool append_file(struct sbuf *out, const char *path)
{
	size_t len;
	char *text = file_read(path, &len);

	if (!text)
		return false;
	sbuf_add(out, text, len);
	sbuf_adds(out, "\n");
	free(text);
	return true;
}

char *kconfig_merge(const struct kconfig_request *r, const char *guest, const char *era,
		    const char *base, const char *dir)
{
	char *path = xstrfmt("%s/config-%s-%s.config", dir, era, *r->variant ? r->variant : "base");
	struct sbuf out = SBUF_INIT;
	bool ok = append_file(&out, base);

	if (ok && r->nargs)
		sbuf_adds(&out, REQUESTS_MARK);
	for (size_t i = 0; ok && i < r->nargs; i++) {
		const char *a = r->args[i];
		char *p = NULL;

		if (!is_option(a) && is_name(a) && !path_is_file(a) && !(p = profile(guest, era, a)))
			p = profile(guest, "", a);
		else if (!is_option(a) && !p)
			p = xstrdup(a);
		sbuf_addf(&out, "# requested: %s\n", a);
		if (p)
			ok = append_file(&out, p);
		else
			sbuf_addf(&out, "%s\n", a);
		free(p);
	}
	ok = ok && file_write(path, out.buf, out.len) == 0;
	sbuf_free(&out);
	if (!ok) {
		free(path);
		return NULL;
	}
	return path;
}

/* Does text hold this exact line? */
static bool has_line(const char *text, const char *line)
{
	size_t len = strlen(line);

	for (const char *p = text; p && (p = strstr(p, line)); p += len)
		if ((p == text || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

/* "CONFIG_X=V" or "# CONFIG_X is not set": did it stick in config? */
static bool stuck(const char *config, const char *line)
{
	char name[128], set[160];
	size_t len = strlen(line);

	if (sscanf(line, "# %127[A-Za-z0-9_] is not set", name) == 1 ||
	    (len > 2 && !strcmp(line + len - 2, "=n") && sscanf(line, "%127[A-Za-z0-9_]=", name) == 1)) {
		snprintf(set, sizeof(set), "%s=", name);
		for (const char *p = config; (p = strstr(p, set)); p++)
			if (p == config || p[-1] == '\n')
				return false;
		return true;
	}
	return has_line(config, line);
}

char **kconfig_unstuck(const char *merged, const char *dotconfig)
{
	char *text = file_read(merged, NULL), *config = file_read(dotconfig, NULL);
	char **list = NULL, *save = NULL, *mark;
	size_t n = 0;

	/* an empty .config, as a missing one, says nothing of what stuck */
	if (!text || !config || !*config || !(mark = strstr(text, REQUESTS_MARK)))
		goto out;
	for (char *line = strtok_r(mark + strlen(REQUESTS_MARK), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool opt = !strncmp(line, "CONFIG_", 7) || strstr(line, " is not set");
		if (!opt || stuck(config, line))
			continue;
		list = xrealloc(list, (n + 2) * sizeof(*list));
		list[n++] = xstrdup(line);
		list[n] = NULL;
	}
out:
	free(text);
	free(config);
	return list;
}

bool kconfig_enabled(const char *dotconfig, const char *option)
{
	char *config = file_read(dotconfig, NULL), *line = xstrfmt("%s=y", option);
	bool yes = config && has_line(config, line);

	free(config);
	free(line);
	return yes;
}

