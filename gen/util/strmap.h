/* String-keyed hash map (open addressing). Keys are not copied: they must
 * outlive the map (in practice they live in the owning stage's arena). */
#ifndef DDIGEN_STRMAP_H
#define DDIGEN_STRMAP_H

#include <stddef.h>

struct strmap_slot {
    const char *key;
    void *value;
};
struct strmap {
    struct strmap_slot *slots;
    size_t len, cap;
};

void *strmap_get(const struct strmap *m, const char *key);
void strmap_put(struct strmap *m, const char *key, void *value);
void strmap_free(struct strmap *m);

#endif
