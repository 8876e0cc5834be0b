#ifndef PATCHVER_BASE_JSON_H
#define PATCHVER_BASE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A streaming JSON writer: the caller opens and closes objects and arrays,
 * the writer puts commas and escapes strings (any byte sequence in, valid
 * UTF-8 JSON out: invalid bytes become U+FFFD).
 */
#define JSON_MAX_DEPTH 32

struct json {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *out);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);      /* NULL writes null */
void json_int(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* key + value shorthands */
void json_kstr(struct json *j, const char *key, const char *s);
void json_kint(struct json *j, const char *key, int64_t v);
void json_kbool(struct json *j, const char *key, bool v);

/*
 * patchver's JSON documents: one version for all of them, bumped only when
 * a field changes meaning or goes away (a new field is no new version).
 */
#define JSON_SCHEMA_VERSION 3

/*
 * Start a document on out: {"schema_version": 2 -- the caller adds its
 * keys and closes it with json_obj_end().
 */
void json_document_begin(struct json *j, FILE *out);

/* Write s as a JSON string literal (quotes included) to out. */
void json_write_string(FILE *out, const char *s);

#endif
