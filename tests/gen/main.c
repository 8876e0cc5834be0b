/*
 * gen-history: write a deterministic fixture repository.
 *
 *   gen-history kernel DIR [CYCLES TOPICS TOPIC_LEN [SEED]]
 *   gen-history demo DIR [late]    (late: the O_NOFOLLOW fix misses v2.6.34)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

int main(int argc, char **argv)
{
	struct gen g;
	int ret;

	if (argc < 3 || (strcmp(argv[1], "kernel") && strcmp(argv[1], "demo"))) {
		fprintf(stderr, "usage: gen-history kernel DIR [CYCLES TOPICS TOPIC_LEN [SEED]]\n"
				"       gen-history demo DIR [late]\n");
		return 2;
	}
	git_libgit2_init();
	gen_open(&g, argv[2], argc > 6 ? strtoull(argv[6], NULL, 0) : 0);
	if (!strcmp(argv[1], "demo"))
		ret = gen_demo(&g, argc > 3 && !strcmp(argv[3], "late"));
	else
		ret = gen_kernel(&g, argc > 3 ? atoi(argv[3]) : 4,
				 argc > 4 ? atoi(argv[4]) : 3,
				 argc > 5 ? atoi(argv[5]) : 4);
	gen_close(&g);
	git_libgit2_shutdown();
	return ret;
}
