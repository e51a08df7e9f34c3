/* Growable NUL-terminated string buffer. */
#ifndef DDIGEN_STRBUF_H
#define DDIGEN_STRBUF_H

#include <stddef.h>

struct strbuf {
    char *data;
    size_t len, cap;
};

void sb_append(struct strbuf *sb, const char *s);
void sb_appendn(struct strbuf *sb, const char *s, size_t n);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends name as a C identifier: every run of characters that cannot be in
 * one becomes a single '_' ("X.(unnamed union).Y" -> "X_unnamed_union_Y").
 * The one spelling of the templates' c-ident and the spec checks. */
void sb_append_c_ident(struct strbuf *sb, const char *name);
void sb_free(struct strbuf *sb);
static inline const char *sb_str(const struct strbuf *sb) { return sb->data ? sb->data : ""; }

#endif
