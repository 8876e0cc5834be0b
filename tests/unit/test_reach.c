/*
 * Containment over git's commit-graph (cgraph_reaches), as git's
 * tag --contains walks it: for sampled targets, every tag's answer equals
 * whether the tag's ancestors on the DAG hold the target; and a graph
 * damaged into a cycle (a commit made its own descendant's child) is
 * reported broken, never walked forever.
 *
 *   test_reach REPO (with a commit-graph)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <git2.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/engine/history.h"

#define CDAT_WIDTH 36

/*
 * For sampled targets, every tag's answer against the tag's ancestors on
 * the DAG (dag_ancestors, one mask per tag): the graph walk reads only
 * the commit-graph file, so the two answers come from separate code.
 */
static void check_tags(struct history *h)
{
	bool **ancestors = calloc(h->tags.nr, sizeof(*ancestors));
	unsigned targets = 0;

	for (size_t t = 0; t < h->tags.nr; t++)
		if (h->tags.v[t].commit != PV_NONE)
			ancestors[t] = dag_ancestors(&h->dag, &h->tags.v[t].commit, 1);
	for (uint32_t target = 0; target < h->dag.nr; target += 1 + h->dag.nr / 150, targets++) {
		struct cgraph_reach r;

		cgraph_reach_init(&r, &h->graph, cgraph_pos(&h->graph, &h->dag.oids[target]));
		for (size_t t = 0; t < h->tags.nr; t++) {
			uint32_t c = h->tags.v[t].commit;
			if (c != PV_NONE)
				CHECK(cgraph_reaches(&r, cgraph_pos(&h->graph, &h->dag.oids[c])) ==
				      ancestors[t][target]);
		}
		cgraph_reach_free(&r);
	}
	CHECK(targets >= 100);
	for (size_t t = 0; t < h->tags.nr; t++)
		free(ancestors[t]);
	free(ancestors);
}

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		*size = (size_t)n;
	else
		*size = 0;
	if (f)
		fclose(f);
	return buf;
}

/* The CDAT entry of position pos in a single-file graph image. */
static unsigned char *cdat_entry(unsigned char *img, uint32_t pos)
{
	unsigned nchunks = img[6];

	for (unsigned i = 0; i < nchunks; i++) {
		unsigned char *e = img + 8 + 12 * i;
		if (!memcmp(e, "CDAT", 4)) {
			uint64_t off = 0;
			for (int k = 4; k < 12; k++)
				off = off << 8 | e[k];
			return img + off + (size_t)pos * CDAT_WIDTH;
		}
	}
	return NULL;
}

/*
 * A copy of the graph in which the first parent of a tag commit's
 * grandparent is the tag commit itself: the walk from the tag meets the
 * tag again on its own path.
 */
static void check_cycle(struct history *h, const char *repo)
{
	char objdir[] = "/tmp/test_reach.XXXXXX", path[256], src[1024];
	uint32_t tip = PV_NONE, x = PV_NONE, root = PV_NONE;
	unsigned char *img, *e;
	struct cgraph g;
	struct cgraph_reach r;
	size_t size;
	FILE *f;

	for (size_t t = 0; t < h->tags.nr && x == PV_NONE; t++) {
		unsigned n1, n2;
		const uint32_t *p1, *p2;
		if ((tip = h->tags.v[t].commit) == PV_NONE)
			continue;
		p1 = dag_parents(&h->dag, tip, &n1);
		if (!n1)
			continue;
		p2 = dag_parents(&h->dag, p1[0], &n2);
		if (n2 && dag_parents(&h->dag, p2[0], &n1) && n1)
			x = p2[0];
	}
	for (uint32_t c = 0; c < h->dag.nr && root == PV_NONE; c++) {
		unsigned n;
		dag_parents(&h->dag, c, &n);
		if (!n)
			root = c;
	}
	CHECK(x != PV_NONE && root != PV_NONE);
	if (x == PV_NONE || root == PV_NONE || !mkdtemp(objdir))
		return;
	snprintf(src, sizeof(src), "%s/objects/info/commit-graph", repo);
	img = slurp(src, &size);
	CHECK(img && size > 8 && img[6] > 0);
	snprintf(path, sizeof(path), "%s/info", objdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/info/commit-graph", objdir);
	if (img && (e = cdat_entry(img, cgraph_pos(&h->graph, &h->dag.oids[x])))) {
		uint32_t t = cgraph_pos(&h->graph, &h->dag.oids[tip]);
		e[20] = (unsigned char)(t >> 24);
		e[21] = (unsigned char)(t >> 16);
		e[22] = (unsigned char)(t >> 8);
		e[23] = (unsigned char)t;
		if ((f = fopen(path, "wb"))) {
			fwrite(img, 1, size, f);
			fclose(f);
		}
	}
	cgraph_open_objdir(&g, objdir);
	CHECK(cgraph_present(&g));
	cgraph_reach_init(&r, &g, cgraph_pos(&g, &h->dag.oids[root]));
	CHECK(cgraph_reaches(&r, cgraph_pos(&g, &h->dag.oids[tip])) == PV_ECORRUPT);
	CHECK(r.broken);
	cgraph_reach_free(&r);
	cgraph_close(&g);
	free(img);
	remove(path);
	snprintf(path, sizeof(path), "%s/info", objdir);
	rmdir(path);
	rmdir(objdir);
}

int main(int argc, char **argv)
{
	const char *repo = argc > 1 ? argv[1] : ".";
	struct history h;
	struct history_opts o = { repo, "*", HISTORY_INDEX_OFF, false, false, NULL };

	git_libgit2_init();
	if (history_open(&h, &o) != 0)
		return 2;
	CHECK(cgraph_present(&h.graph));
	check_tags(&h);
	check_cycle(&h, repo);
	history_close(&h);
	git_libgit2_shutdown();
	return check_done();
}
