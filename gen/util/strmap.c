/* Open-addressing string map with FNV-1a hashing and linear probing. */
#include "strmap.h"

#include "hash.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct strmap_slot *find_slot(struct strmap_slot *slots, size_t cap, const char *key)
{
    size_t i = (size_t)fnv1a64(key) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key) != 0)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

void *strmap_get(const struct strmap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    return find_slot(m->slots, m->cap, key)->value;
}

static void grow(struct strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct strmap_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) {
        fputs("ddigen: fatal: out of memory\n", stderr);
        abort();
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            *find_slot(slots, cap, m->slots[i].key) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
}

void strmap_put(struct strmap *m, const char *key, void *value)
{
    if ((m->len + 1) * 4 > m->cap * 3)
        grow(m);
    struct strmap_slot *s = find_slot(m->slots, m->cap, key);
    if (!s->key) {
        s->key = key;
        m->len++;
    }
    s->value = value;
}

void strmap_free(struct strmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->len = m->cap = 0;
}
