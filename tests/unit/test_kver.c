/* Unit tests: kernel version parsing and order. */
#include <stdlib.h>

#include "check.h"
#include "patchver/engine/kver.h"

static int cmp(const char *a, const char *b)
{
	struct kver x, y;
	if (!kver_parse(a, &x) || !kver_parse(b, &y))
		return 99;
	return kver_cmp(&x, &y);
}

int main(void)
{
	/* the order sort -V gets wrong, and the one across series */
	const char *order[] = {
		"v2.6.11", "v2.6.33-rc1", "v2.6.33", "v2.6.33.1", "v2.6.33.20",
		"v2.6.34-rc1", "v2.6.34-rc2", "v2.6.34-rc10", "v2.6.34",
		"v2.6.34.1", "v2.6.34.10", "v2.6.35-rc1", "v2.6.39", "v3.0-rc1",
		"v3.0", "v3.0.1", "v3.1-rc1", "v3.10", "v4.19.300", "v4.20-rc1",
		"v5.4", "v6.1-rc7", "v6.1", "v6.1.192",
	};
	size_t n = sizeof(order) / sizeof(order[0]);
	const char *bad[] = {
		"2.6.34", "v", "v2", "v2.6", "v2.6.34-rc", "v2.6.34-rc0", "v2.6.34.0",
		"v3.0.0", "v2.6.34-rc1-dirty", "v2.6.034", "v2.6.34 ", "next-20100301",
		"v1.0", "v2.6.34.1.2", "v3.0.1.2", "v2.6.34-tree", "v99999999.1",
		"v2.6.34-rc3x", "",
	};
	struct kver v;
	char series[32];

	for (size_t i = 0; i < n; i++) {
		CHECK(cmp(order[i], order[i]) == 0);
		for (size_t j = i + 1; j < n; j++) {
			CHECK(cmp(order[i], order[j]) < 0);
			CHECK(cmp(order[j], order[i]) > 0);
		}
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(!kver_parse(bad[i], &v));
		if (kver_parse(bad[i], &v))
			fprintf(stderr, "  accepted: %s\n", bad[i]);
	}

	CHECK(kver_parse("v2.6.34.5", &v) && v.stable == 5 && !v.rc);
	kver_series(&v, series, sizeof(series));
	CHECK_STR(series, "2.6.34");
	CHECK(kver_parse("v2.6.34-rc3", &v) && v.rc == 3 && kver_is_rc(&v) && !kver_is_stable(&v));
	CHECK(kver_parse("v6.1.192", &v) && v.stable == 192 && v.nbase == 2);
	kver_series(&v, series, sizeof(series));
	CHECK_STR(series, "6.1");
	{
		struct kver a, b;
		CHECK(kver_parse("v2.6.34-rc1", &a) && kver_parse("v2.6.34.2", &b) &&
		      kver_same_series(&a, &b));
		CHECK(kver_parse("v2.6.35", &b) && !kver_same_series(&a, &b));
	}
	return check_done();
}
