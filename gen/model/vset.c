/* Version and architecture sets (vset.h). */
#include "vset.h"

#include "specxml.h"

#include <stdio.h>
#include <string.h>

void ddi_versions_add(struct ddi_versions *v, xmlNodePtr version)
{
    const char *name = sx_get(version, "name"), *short_name = sx_get(version, "short");
    if (!name || !short_name)
        return; /* the schema requires both; such an element is not a version */
    if (v->n == DDI_VSET_MAX) {
        v->too_many = 1;
        return;
    }
    v->value[v->n] = sx_get(version, "value");
    v->name[v->n] = name;
    v->short_name[v->n++] = short_name;
}

void ddi_versions_read(struct ddi_versions *v, xmlNodePtr layout)
{
    memset(v, 0, sizeof *v);
    for (xmlNodePtr n = layout ? layout->children : NULL; n; n = n->next) {
        if (sx_is(n, "version")) {
            ddi_versions_add(v, n);
        } else if (sx_is(n, "arch") && v->narchs < DDI_ARCH_MAX) {
            v->arch[v->narchs] = sx_get(n, "name");
            v->arch_macro[v->narchs++] = sx_get(n, "macro");
        }
    }
}

static int same(const char *known, const char *name, size_t len)
{
    return known && strlen(known) == len && !memcmp(known, name, len);
}

int ddi_version_find(const struct ddi_versions *v, const char *name, size_t len)
{
    for (unsigned i = 0; name && i < v->n; i++)
        if (same(v->short_name[i], name, len) || same(v->name[i], name, len))
            return (int)i;
    return -1;
}

int ddi_version_find_short(const struct ddi_versions *v, const char *name, size_t len)
{
    for (unsigned i = 0; name && i < v->n; i++)
        if (same(v->short_name[i], name, len))
            return (int)i;
    return -1;
}

int ddi_arch_find(const struct ddi_versions *v, const char *name, size_t len)
{
    for (unsigned i = 0; name && i < v->narchs; i++)
        if (same(v->arch[i], name, len))
            return (int)i;
    return -1;
}

static int fail(struct ddi_vset_error *err, const char *what, const char *text, const char *at, size_t len)
{
    if (err)
        *err = (struct ddi_vset_error){what, (size_t)(at - text), len};
    return -1;
}

/* Ranges are bit spans [first, last]; both ends are version indexes. */
static ddi_vset span(int first, int last)
{
    ddi_vset hi = last >= 63 ? ~(ddi_vset)0 : ((ddi_vset)1 << (last + 1)) - 1;
    return hi & ~(((ddi_vset)1 << first) - 1);
}

/* The next space-separated token at or after *p: its start, and its length
 * in *len; NULL at the end. *p moves past it. */
static const char *next_token(const char **p, size_t *len)
{
    if (!*p)
        return NULL;
    while (**p == ' ')
        ++*p;
    *len = strcspn(*p, " ");
    if (!*len)
        return NULL;
    const char *token = *p;
    *p += *len;
    return token;
}

int ddi_vset_parse(const struct ddi_versions *v, const char *text, ddi_vset *out, struct ddi_vset_error *err)
{
    *out = text ? 0 : ddi_vset_all(v);
    size_t len;
    for (const char *at = text, *p; (p = next_token(&at, &len)) != NULL;) {
        const char *dash = memchr(p, '-', len);
        size_t head = dash ? (size_t)(dash - p) : len;
        int first = ddi_version_find_short(v, p, head);
        if (first < 0)
            return fail(err, "unknown version", text, p, head);
        int last = first;
        if (dash) {
            last = ddi_version_find_short(v, dash + 1, len - head - 1);
            if (last < 0)
                return fail(err, "unknown version", text, dash + 1, len - head - 1);
            if (last < first)
                return fail(err, "reversed version range", text, p, len);
        }
        *out |= span(first, last);
    }
    return 0;
}

int ddi_archset_parse(const struct ddi_versions *v, const char *text, ddi_archset *out, struct ddi_vset_error *err)
{
    *out = text ? 0 : ddi_archset_all(v);
    size_t len;
    for (const char *at = text, *p; (p = next_token(&at, &len)) != NULL;) {
        int a = ddi_arch_find(v, p, len);
        if (a < 0)
            return fail(err, "unknown architecture", text, p, len);
        *out |= 1u << a;
    }
    return 0;
}

/* Lenient: every token that names something counts, the others add nothing. */
ddi_vset ddi_vset_of(const struct ddi_versions *v, const char *text)
{
    if (!text)
        return ddi_vset_all(v);
    ddi_vset set = 0;
    size_t len;
    for (const char *at = text, *p; (p = next_token(&at, &len)) != NULL;) {
        ddi_vset one;
        char token[256];
        if (len < sizeof token) {
            memcpy(token, p, len);
            token[len] = '\0';
            if (ddi_vset_parse(v, token, &one, NULL) == 0)
                set |= one;
        }
    }
    return set;
}

ddi_archset ddi_archset_of(const struct ddi_versions *v, const char *text)
{
    if (!text)
        return ddi_archset_all(v);
    ddi_archset set = 0;
    for (unsigned i = 0; i < v->narchs; i++) {
        size_t n = v->arch[i] ? strlen(v->arch[i]) : 0;
        for (const char *p = text; n && (p = strstr(p, v->arch[i])) != NULL; p += n)
            if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
                set |= 1u << i;
    }
    return set;
}

ddi_vset ddi_vset_attr(const struct ddi_versions *v, xmlNodePtr n)
{
    return ddi_vset_of(v, sx_get(n, "versions"));
}

ddi_archset ddi_archset_attr(const struct ddi_versions *v, xmlNodePtr n)
{
    return ddi_archset_of(v, sx_get(n, "archs"));
}

/* The next maximal run [*first, *last] of the set at or after index from;
 * 0 when there is none. */
static int next_run(const struct ddi_versions *v, ddi_vset set, int from, int *first, int *last)
{
    while (from < (int)v->n && !ddi_vset_has(set, from))
        from++;
    if (from >= (int)v->n)
        return 0;
    *first = *last = from;
    while (*last + 1 < (int)v->n && ddi_vset_has(set, *last + 1))
        ++*last;
    return 1;
}

void ddi_vset_text(const struct ddi_versions *v, ddi_vset set, struct strbuf *sb)
{
    if ((set & ddi_vset_all(v)) != ddi_vset_all(v))
        ddi_vset_ranges(v, set, sb);
}

void ddi_vset_ranges(const struct ddi_versions *v, ddi_vset set, struct strbuf *sb)
{
    const char *sep = "";
    for (int first, last, at = 0; next_run(v, set, at, &first, &last); at = last + 1, sep = " ") {
        if (first == last)
            sb_printf(sb, "%s%s", sep, v->short_name[first]);
        else
            sb_printf(sb, "%s%s-%s", sep, v->short_name[first], v->short_name[last]);
    }
}

void ddi_vset_condition(const struct ddi_versions *v, ddi_vset set, struct strbuf *sb)
{
    set &= ddi_vset_all(v);
    if (set == ddi_vset_all(v) || !set) {
        sb_append(sb, set ? "1" : "0");
        return;
    }
    const char *sep = "";
    for (int first, last, at = 0; next_run(v, set, at, &first, &last); at = last + 1, sep = " || ") {
        int lower = first > 0, upper = last + 1 < (int)v->n;
        sb_printf(sb, "%s(", sep);
        if (lower)
            sb_printf(sb, "DXGKDDI_INTERFACE_VERSION >= %s", v->name[first]);
        if (lower && upper)
            sb_append(sb, " && ");
        if (upper)
            sb_printf(sb, "DXGKDDI_INTERFACE_VERSION < %s", v->name[last + 1]);
        sb_append(sb, ")");
    }
}

void ddi_archset_condition(const struct ddi_versions *v, ddi_archset set, struct strbuf *sb)
{
    set &= ddi_archset_all(v);
    if (set == ddi_archset_all(v) || !set) {
        sb_append(sb, set ? "1" : "0");
        return;
    }
    const char *sep = "";
    for (unsigned i = 0; i < v->narchs; i++)
        if (set >> i & 1) {
            sb_printf(sb, "%sdefined(%s)", sep, v->arch_macro[i]);
            sep = " || ";
        }
}

int ddi_version_wddm10(const char *s)
{
    if (!s)
        return -1;
    if (!strncmp(s, "DXGKDDI_INTERFACE_VERSION_", 26))
        s += 26;
    if (!strncmp(s, "VISTA", 5))
        return 10;
    if (!strcmp(s, "WIN7"))
        return 11;
    if (!strcmp(s, "WIN8"))
        return 12;
    unsigned major, minor;
    if (sscanf(s, "WDDM%u_%u", &major, &minor) == 2)
        return (int)(major * 10 + minor);
    return -1;
}
