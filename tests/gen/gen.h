#ifndef PATCHVER_TESTS_GEN_H
#define PATCHVER_TESTS_GEN_H

/*
 * A small toolkit for writing deterministic git histories with libgit2:
 * branches carry a tree state (files as arrays of lines), commits and tags
 * get explicit dates, and everything is written to an in-memory pack that
 * is indexed into the repository at the end.  Same input, same shas.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <git2.h>

#define GEN_MAX_FILES 32

struct file {
	const char *path;       /* "fs/namei.c" */
	const char **lines;
	size_t nr, alloc;
	git_oid blob;
	bool dirty;
};

struct state {
	struct file files[GEN_MAX_FILES];
	size_t nfiles;
};

struct branch {
	const char *name;
	git_oid head;
	bool has_head;
	struct state st;
	struct state base;      /* state at the fork point, for merges */
	git_oid base_head;      /* commit at the fork point */
	int64_t last_date;
};

struct person {
	const char *name;
	const char *email;
	int tz;                 /* minutes east of UTC */
};

struct gen {
	git_repository *repo;
	git_odb *odb;
	git_odb_backend *mempack;
	uint64_t rng;
	int64_t now;            /* the clock commits are dated by */
	size_t ncommits, ntags;
	char **tag_bufs;        /* tag objects: mempack only packs what commits reach */
	size_t *tag_lens, ntag_bufs;
	char *path;
};

void gen_open(struct gen *g, const char *path, uint64_t seed);
void gen_close(struct gen *g);      /* writes the pack, frees */

uint64_t gen_rand(struct gen *g);
int gen_range(struct gen *g, int lo, int hi);  /* inclusive */

const char *gen_strdup(const char *s);
const char *gen_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Tree state */
void state_init(struct state *st);
void state_copy(struct state *dst, const struct state *src);
struct file *state_file(struct state *st, const char *path);  /* adds if new */
void file_set_text(struct file *f, const char *text);         /* split on \n */
void file_set_line(struct file *f, size_t i, const char *line);
void file_insert_line(struct file *f, size_t i, const char *line);

/* Branches */
void branch_init(struct branch *b, const char *name);
void branch_fork(struct branch *b, const char *name, const struct branch *from);

/*
 * Commit b's state on b with extra parents (merges).  dates: author and
 * committer; 0 uses g->now for both.
 */
git_oid gen_commit(struct gen *g, struct branch *b, const char *msg,
		   const struct person *author, int64_t adate,
		   const struct person *committer, int64_t cdate,
		   const git_oid *extra, size_t nextra);

/* Merge topic into b: a 3-way merge of whole files (topic wins conflicts). */
git_oid gen_merge(struct gen *g, struct branch *b, struct branch **topics,
		  size_t ntopics, const char *msg, const struct person *who,
		  int64_t date);

/* Tags.  tagger NULL writes a tag object without a tagger line. */
git_oid gen_tag_object(struct gen *g, const char *name, const git_oid *target,
		       git_object_t type, const struct person *tagger,
		       int64_t date, const char *msg);
void gen_ref(struct gen *g, const char *refname, const git_oid *target);
void gen_tag(struct gen *g, const char *name, const git_oid *commit,
	     const struct person *tagger, int64_t date);   /* annotated + ref */
void gen_lightweight(struct gen *g, const char *name, const git_oid *target);

/* Tree of a state (written). */
git_oid gen_tree(struct gen *g, struct state *st);

const char *gen_hex(const git_oid *oid);    /* static rotating buffers */

/* The two histories. */
int gen_kernel(struct gen *g, int cycles, int topics, int topic_len);
int gen_demo(struct gen *g, bool late_fix);

#endif
