/* The word dictionary (see words.h): open addressing over the lower-cased
 * words, filled once while the rule patterns compile. */
#include "words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define DICT_SLOTS 2048 /* twice WORDS_MAX: probes stay short */

static struct {
    char *word[DICT_SLOTS];
    unsigned id[DICT_SLOTS];
    const char *by_id[WORDS_MAX];
    unsigned n;
} dict;

/* The slot of a word with hash h: where it is, or the empty one it goes in. */
static unsigned dict_slot(const char *lc, unsigned h)
{
    unsigned i = h & (DICT_SLOTS - 1);
    while (dict.word[i] && (dict.word[i][0] != lc[0] || strcmp(dict.word[i], lc)))
        i = (i + 1) & (DICT_SLOTS - 1);
    return i;
}

unsigned words_intern_n(const char *w, size_t n)
{
    char lc[64];
    if (n >= sizeof lc || dict.n + 1 >= WORDS_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        lc[i] = (char)tolower((unsigned char)w[i]);
    lc[n] = '\0';
    unsigned i = dict_slot(lc, words_hash(lc, n));
    if (!dict.word[i]) {
        dict.word[i] = strdup(lc);
        dict.id[i] = ++dict.n;
        dict.by_id[dict.n] = dict.word[i];
    }
    return dict.id[i];
}

unsigned words_intern(const char *w) { return words_intern_n(w, strlen(w)); }

const char *words_text(unsigned id) { return id && id <= dict.n ? dict.by_id[id] : ""; }

unsigned words_id_hashed(const char *lc, unsigned hash)
{
    if (!dict.n)
        return 0;
    unsigned i = dict_slot(lc, hash);
    return dict.word[i] ? dict.id[i] : 0;
}

unsigned words_id(const char *lc) { return words_id_hashed(lc, words_hash(lc, strlen(lc))); }
