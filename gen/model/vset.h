/* Where a fact of the spec holds: sets of DDI interface versions and of
 * architectures. The one parser of a `versions` attribute
 * ("WDDM2_0-WDDM3_1 WDDM3_2"), the one writer of that text, and the one
 * printer of the preprocessor condition that selects a set; every stage
 * that reads or writes version sets goes through here. */
#ifndef DDIGEN_MODEL_VSET_H
#define DDIGEN_MODEL_VSET_H

#include "../util/strbuf.h"

#include <libxml/tree.h>
#include <stddef.h>
#include <stdint.h>

#define DDI_VSET_MAX 64 /* versions a spec may list (one bit each) */
#define DDI_ARCH_MAX 3  /* x86, x64, arm64 */

/* A set of versions: bit i is the i-th <version> of the spec (value order). */
typedef uint64_t ddi_vset;
/* A set of architectures: bit i is the i-th <arch> of the spec. */
typedef unsigned ddi_archset;

struct ddi_versions {
    const char *name[DDI_VSET_MAX];  /* DXGKDDI_INTERFACE_VERSION_WDDM2_0 */
    const char *short_name[DDI_VSET_MAX]; /* WDDM2_0 */
    const char *value[DDI_VSET_MAX];      /* 0x2000: the macro's value as written */
    unsigned n;
    const char *arch[DDI_ARCH_MAX];       /* x86 */
    const char *arch_macro[DDI_ARCH_MAX]; /* _M_IX86 */
    unsigned narchs;
    int too_many; /* the spec lists more than DDI_VSET_MAX versions */
};

/* Reads the <version> and <arch> children of <layout>; the strings point
 * into the document (it must outlive v). */
void ddi_versions_read(struct ddi_versions *v, xmlNodePtr layout);

/* Appends one <version> element (for callers holding only those). */
void ddi_versions_add(struct ddi_versions *v, xmlNodePtr version);

/* Index of a version by short or full name (len bytes of name), or -1. */
int ddi_version_find(const struct ddi_versions *v, const char *name, size_t len);
/* The same by short name only, the form a versions attribute uses. */
int ddi_version_find_short(const struct ddi_versions *v, const char *name, size_t len);
/* Index of an architecture by name (len bytes), or -1. */
int ddi_arch_find(const struct ddi_versions *v, const char *name, size_t len);

static inline ddi_vset ddi_vset_all(const struct ddi_versions *v)
{
    return v->n >= 64 ? ~(ddi_vset)0 : ((ddi_vset)1 << v->n) - 1;
}
static inline ddi_archset ddi_archset_all(const struct ddi_versions *v)
{
    return (1u << v->narchs) - 1;
}
static inline int ddi_vset_has(ddi_vset s, int i)
{
    return i >= 0 && i < 64 && (s >> i & 1);
}

/* The lowest (highest) version index in a set, -1 when it is empty. */
static inline int ddi_vset_first(ddi_vset s)
{
    return s ? __builtin_ctzll(s) : -1;
}
static inline int ddi_vset_last(ddi_vset s)
{
    return s ? 63 - __builtin_clzll(s) : -1;
}

/* The WDDM number of a version (short or full name: VISTA 1.0, WIN7 1.1,
 * WIN8 1.2, WDDM2_9 2.9) times ten, or -1: how the pages date things. */
int ddi_version_wddm10(const char *name);

/* Why a set did not parse: the token at text[at, at+len) and what is wrong. */
struct ddi_vset_error {
    const char *what; /* "unknown version", "reversed version range", "unknown architecture" */
    size_t at, len;
};

/* Parses a versions attribute; NULL text is every version. 0, or -1 with
 * *err filled (err may be NULL) and *out the versions read so far. */
int ddi_vset_parse(const struct ddi_versions *v, const char *text, ddi_vset *out, struct ddi_vset_error *err);
/* The same for an archs attribute ("x86 arm64"); NULL is every one. */
int ddi_archset_parse(const struct ddi_versions *v, const char *text, ddi_archset *out, struct ddi_vset_error *err);
/* Lenient forms for documents already checked (spec_check_semantics):
 * an unknown name adds nothing, so a fact that cannot be placed holds
 * nowhere rather than everywhere. */
ddi_vset ddi_vset_of(const struct ddi_versions *v, const char *text);
ddi_archset ddi_archset_of(const struct ddi_versions *v, const char *text);
/* ... of an element's versions= / archs= attribute. */
ddi_vset ddi_vset_attr(const struct ddi_versions *v, xmlNodePtr n);
ddi_archset ddi_archset_attr(const struct ddi_versions *v, xmlNodePtr n);

/* Appends the set as short-name ranges ("WIN8-WDDM2_0 WDDM3_2"); nothing
 * when it is every version. */
void ddi_vset_text(const struct ddi_versions *v, ddi_vset set, struct strbuf *sb);
/* The same, written out even when it is every version (nothing when empty). */
void ddi_vset_ranges(const struct ddi_versions *v, ddi_vset set, struct strbuf *sb);

/* Appends the preprocessor condition true exactly for the set: each range
 * as `DXGKDDI_INTERFACE_VERSION >= FIRST && < NEXT`, joined with ||.
 * Values between two known versions count as the lower one, below the
 * first as the first, above the last as the last. "1" for every version,
 * "0" for none. */
void ddi_vset_condition(const struct ddi_versions *v, ddi_vset set, struct strbuf *sb);
/* Appends `defined(_M_IX86) || ...` for an architecture set ("1" when all,
 * "0" for none). */
void ddi_archset_condition(const struct ddi_versions *v, ddi_archset set, struct strbuf *sb);

#endif
