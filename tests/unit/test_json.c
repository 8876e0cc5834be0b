/* Unit tests: JSON writer escaping and structure. */
#include <stdlib.h>

#include "check.h"
#include "patchver/base/json.h"

static char *render(void (*fn)(struct json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f);
	fn(&j);
	fclose(f);
	return buf;
}

static void doc(struct json *j)
{
	json_obj_begin(j);
	json_kint(j, "n", -3);
	json_kstr(j, "s", "a\"b\\c\n\t\x01 \xc3\xa9 \xff end");
	json_kstr(j, "null", NULL);
	json_key(j, "arr");
	json_arr_begin(j);
	json_bool(j, true);
	json_str(j, "x");
	json_arr_begin(j);
	json_arr_end(j);
	json_obj_begin(j);
	json_obj_end(j);
	json_arr_end(j);
	json_kbool(j, "f", false);
	json_obj_end(j);
}

int main(void)
{
	char *s = render(doc);

	CHECK_STR(s, "{\"n\":-3,\"s\":\"a\\\"b\\\\c\\n\\t\\u0001 \xc3\xa9 \\ufffd end\","
		     "\"null\":null,\"arr\":[true,\"x\",[],{}],\"f\":false}\n");
	free(s);
	return check_done();
}
