/* Bump allocator and pointer vector used by every stage's model. */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

static void out_of_memory(void)
{
    fputs("ddigen: fatal: out of memory\n", stderr);
    abort();
}

void *arena_alloc_raw(struct arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct arena_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 60000 ? size : 60000;
        b = malloc(sizeof *b + cap);
        if (!b)
            out_of_memory();
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
    return memset(arena_alloc_raw(a, size), 0, size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc_raw(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
    return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc_raw(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

char *arena_concat(struct arena *a, ...)
{
    va_list ap;
    size_t n = 0;
    va_start(ap, a);
    for (const char *s; (s = va_arg(ap, const char *));)
        n += strlen(s);
    va_end(ap);
    char *out = arena_alloc_raw(a, n + 1), *p = out;
    va_start(ap, a);
    for (const char *s; (s = va_arg(ap, const char *));) {
        size_t len = strlen(s);
        memcpy(p, s, len);
        p += len;
    }
    va_end(ap);
    *p = '\0';
    return out;
}

void arena_free(struct arena *a)
{
    struct arena_block *b = a->head;
    while (b) {
        struct arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

void vec_push(struct vec *v, void *item)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        void **items = realloc(v->items, cap * sizeof *items);
        if (!items)
            out_of_memory();
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
}

void vec_free(struct vec *v)
{
    free(v->items);
    v->items = NULL;
    v->len = v->cap = 0;
}
