/* Bump heap (see bump.h). */
#include "bump.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define BUMP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUMP_ASAN 1
#endif
#endif
#ifdef BUMP_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct bump_block {
    struct bump_block *next; /* in the order the blocks were made */
    size_t cap, used;
    _Alignas(16) unsigned char data[];
};

#define BUMP_BLOCK ((size_t)1 << 20)
#define BUMP_HEADER ((size_t)16) /* the allocation's size; keeps data 16-aligned */

static size_t footprint(size_t size)
{
    return (BUMP_HEADER + size + 15) & ~(size_t)15;
}

/* A block with room for need bytes: the current one, a later one kept from
 * before a rewind, or a new one at the end of the list. */
static struct bump_block *block_for(struct bump_heap *h, size_t need)
{
    struct bump_block *b = h->current;
    if (b && b->cap - b->used >= need)
        return b;
    while (b && b->next) { /* blocks past a rewind are empty */
        b = b->next;
        if (b->cap >= need)
            return h->current = b;
    }
    /* Each new block is as large as all before it together, so a heap of n
     * bytes has O(log n) blocks and bump_owns stays cheap however much a
     * page allocates (fixed 1 MiB blocks made every free O(blocks)). */
    size_t cap = BUMP_BLOCK;
    for (const struct bump_block *o = h->first; o && cap < SIZE_MAX / 4; o = o->next)
        cap = o->cap > cap ? o->cap : cap;
    if (h->first && cap < SIZE_MAX / 4)
        cap *= 2;
    if (need > cap)
        cap = need;
    struct bump_block *n = malloc(sizeof *n + cap);
    if (!n)
        return NULL;
    *n = (struct bump_block){.cap = cap};
    POISON(n->data, cap);
    if (b) { /* the last block: the new one goes after it */
        n->next = b->next;
        b->next = n;
    } else {
        h->first = n;
    }
    return h->current = n;
}

void *bump_alloc(struct bump_heap *h, size_t size)
{
    if (size > SIZE_MAX / 2)
        return NULL;
    size_t need = footprint(size);
    struct bump_block *b = block_for(h, need);
    if (!b)
        return NULL;
    unsigned char *p = b->data + b->used;
    b->used += need;
    UNPOISON(p, BUMP_HEADER + size);
    memcpy(p, &size, sizeof size);
    return p + BUMP_HEADER;
}

void *bump_calloc(struct bump_heap *h, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / 2 / size)
        return NULL;
    void *p = bump_alloc(h, n * size);
    return p ? memset(p, 0, n * size) : NULL;
}

/* The size p was given. */
static size_t bump_size(const void *p)
{
    size_t size;
    memcpy(&size, (const unsigned char *)p - BUMP_HEADER, sizeof size);
    return size;
}

void *bump_realloc(struct bump_heap *h, void *ptr, size_t size)
{
    if (!ptr)
        return bump_alloc(h, size);
    if (size > SIZE_MAX / 2)
        return NULL;
    unsigned char *p = (unsigned char *)ptr - BUMP_HEADER;
    size_t old = bump_size(ptr);
    struct bump_block *b = h->current;
    if (b && p + footprint(old) == b->data + b->used && (size_t)(p - b->data) + footprint(size) <= b->cap) {
        /* the last allocation: it grows or shrinks where it is */
        POISON(p + BUMP_HEADER + old, footprint(old) - BUMP_HEADER - old);
        b->used = (size_t)(p - b->data) + footprint(size);
        UNPOISON(p, BUMP_HEADER + size);
        memcpy(p, &size, sizeof size);
        return ptr;
    }
    void *q = bump_alloc(h, size);
    if (q)
        memcpy(q, ptr, old < size ? old : size);
    return q;
}

bool bump_owns(const struct bump_heap *h, const void *p)
{
    const unsigned char *c = p;
    for (const struct bump_block *b = h->first; b; b = b->next)
        if (c >= b->data && c < b->data + b->cap) /* only ever a pointer the heap gave */
            return true;
    return false;
}

void bump_rewind(struct bump_heap *h)
{
    for (struct bump_block *b = h->first; b; b = b->next) {
        POISON(b->data, b->cap);
        b->used = 0;
    }
    h->current = h->first;
}

void bump_release(struct bump_heap *h)
{
    for (struct bump_block *b = h->first, *next; b; b = next) {
        next = b->next;
        UNPOISON(b->data, b->cap);
        free(b);
    }
    h->first = h->current = NULL;
}
