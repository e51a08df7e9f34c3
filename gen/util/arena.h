/* Bump allocator: each stage owns one arena and frees everything at once,
 * so the many small strings of a model need no individual free paths. */
#ifndef DDIGEN_ARENA_H
#define DDIGEN_ARENA_H

#include <stddef.h>

struct arena_block;
struct arena {
    struct arena_block *head;
};

void *arena_alloc(struct arena *a, size_t size);   /* zeroed, 16-aligned; aborts on OOM */
void *arena_alloc_raw(struct arena *a, size_t size); /* the same, not zeroed */
char *arena_strdup(struct arena *a, const char *s); /* NULL stays NULL */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Concatenates strings up to a NULL; cheaper than printf on hot paths. */
char *arena_concat(struct arena *a, ...) __attribute__((sentinel));
void arena_free(struct arena *a);

/* Growable array of pointers, storage in the heap (freed with vec_free). */
struct vec {
    void **items;
    size_t len, cap;
};
void vec_push(struct vec *v, void *item);
void vec_free(struct vec *v);

#endif
