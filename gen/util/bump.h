/* A bump heap for libraries that allocate many small blocks per unit of
 * work and free them one by one (cmark-gfm per page, libxml2 per checked
 * text): allocation is a pointer bump, free is nothing, and the whole heap
 * is rewound when the unit is done. Each allocation keeps its size in a
 * header, for realloc; the last allocation grows in place.
 *
 * Blocks are kept when the heap is rewound, so a unit costs no page faults
 * after the first and an address the heap gave out stays one of its own
 * (bump_owns) until bump_release. Under AddressSanitizer everything not
 * handed out is poisoned, so a pointer kept past a rewind is reported when
 * it is used. */
#ifndef DDIGEN_BUMP_H
#define DDIGEN_BUMP_H

#include <stdbool.h>
#include <stddef.h>

struct bump_block;
struct bump_heap {
    struct bump_block *first, *current;
};

void *bump_alloc(struct bump_heap *h, size_t size);              /* NULL when out of memory */
void *bump_calloc(struct bump_heap *h, size_t n, size_t size);   /* zeroed */
void *bump_realloc(struct bump_heap *h, void *p, size_t size);   /* p from this heap, or NULL */
bool bump_owns(const struct bump_heap *h, const void *p);
void bump_rewind(struct bump_heap *h);  /* everything given out is gone; blocks stay */
void bump_release(struct bump_heap *h); /* blocks returned to the system */

#endif
