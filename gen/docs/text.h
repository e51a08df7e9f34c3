/* Text helpers shared by the readers: input repair (line endings, UTF-8,
 * mojibake), direction markers, sentences, and Windows/WDDM version names. */
#ifndef DDIGEN_DOCS_TEXT_H
#define DDIGEN_DOCS_TEXT_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/* Lines longer than this are reported: no reference page has one, and rule
 * extraction skips sentences longer than DOCS_MAX_SENTENCE. */
#define DOCS_LONG_LINE (64u * 1024u)
#define DOCS_MAX_SENTENCE 4096u

/* Repairs a raw page in place semantics: returns a new heap buffer with LF
 * line endings, valid UTF-8 (invalid bytes become U+FFFD and are reported as
 * errors with their line), cp1252 mojibake repaired (noted), NBSP as space.
 * Returns NULL (after an error) for binary input. */
char *docs_clean_input(struct docs_page *page, const char *raw, size_t len, size_t *out_len);

/* Parses a direction marker body ("in", "in/out", "in, optional", "out/opt",
 * "inout"...). Returns false when the text is not a direction marker. */
bool docs_parse_direction(const char *s, size_t n, enum docs_dir *dir, bool *optional);

/* Windows release or WDDM text -> WDDM version ("2.2") and the
 * DXGKDDI_INTERFACE_VERSION_* name; false when nothing is recognized. */
bool docs_normalize_version(const char *text, const char **wddm, const char **ddi,
                            const char **basis);
/* Compare two WDDM versions "1.3" < "2.0". */
int docs_wddm_cmp(const char *a, const char *b);

/* Calls fn for each sentence of a paragraph: start offset and length in
 * text, and the number of '\n' before it (for its line). */
typedef void (*docs_sentence_fn)(void *ctx, const char *s, size_t n, unsigned line_offset);
void docs_split_sentences(const char *text, docs_sentence_fn fn, void *ctx);

/* Collapses runs of whitespace (incl. '\n') to one space, trims; arena copy. */
char *docs_squash(struct arena *a, const char *s, size_t n);

bool docs_is_ident_start(int c);
bool docs_is_ident_char(int c);
/* Does the text contain CJK ideographs? (a localized page) */
bool docs_has_cjk(const char *s, size_t n);
/* Case-insensitive substring search bounded by n. */
const char *docs_memcasestr(const char *hay, size_t n, const char *needle);

#endif
