/* Evidence that a documented member the kit lacks belongs to a later
 * release, strongest first:
 *   1. its own availability text dates it after the kit's newest version
 *      (and when that text dates it in a version the kit has, nothing
 *      excuses it: the page contradicts the kit);
 *   2. an enum value numbered after the kit's last value (enums grow at
 *      their end);
 *   3. documented after every member the kit has (records grow at their
 *      end too, gated by version; Reserved, Value, padding and an enum's
 *      sentinel aside, which stay last whatever the release), when the
 *      page documents every member the kit has (else the last one may be
 *      one of them by another name);
 *   4. the page dates other members after the kit's newest version: it is
 *      a later release's page.
 * A member under a missing parent (MapApertureSegment2.hDevice) takes its
 * parent's verdict. */
#include "lint_newer.h"

#include "../model/model.h"
#include "../model/specxml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Values at or above this are sentinels (_FORCE_UINT, D3DDDI_COLOR_SPACE_CUSTOM),
 * not the end of the enum's numbering. */
#define SENTINEL_VALUE 0x7FFFFFFFLL

/* "2.2" -> 22, or -1. */
static int wddm10_of_text(const char *s)
{
    unsigned major, minor;
    return s && sscanf(s, "%u.%u", &major, &minor) == 2 ? (int)(major * 10 + minor) : -1;
}

static const char *wddm_text(struct arena *a, int w10)
{
    return arena_printf(a, "WDDM %d.%d", w10 / 10, w10 % 10);
}

/* Members every release documents last, whatever it added before them. */
static int is_filler(const char *doc)
{
    const char *dot = strrchr(doc, '.'), *base = dot ? dot + 1 : doc;
    size_t n = strlen(base);
    return !strncasecmp(base, "Reserved", 8) || !strcasecmp(base, "Value") || !strcasecmp(base, "Padding") ||
           !strcasecmp(base, "Unused") || (n > 4 && !strcmp(base + n - 4, "_MAX"));
}

static void kit_newest(struct lint_newer_page *p, const struct ddi_model *m)
{
    p->kit_newest = -1;
    for (unsigned i = 0; i < m->where.n; i++) {
        int w = ddi_version_wddm10(m->where.short_name[i]);
        if (w > p->kit_newest) {
            p->kit_newest = w;
            p->kit_newest_name = m->where.short_name[i];
        }
    }
}

static void page_newest(struct lint_newer_page *p)
{
    p->page_newest = -1;
    for (xmlNodePtr r = sx_child(sx_child(p->dpage, "rules"), "rule"); r; r = sx_next(r, "rule")) {
        int w = strcmp(sx_get(r, "kind"), "availability") ? -1 : wddm10_of_text(sx_operand_value(r, "wddm"));
        if (w > p->page_newest) {
            p->page_newest = w;
            p->page_newest_line = (unsigned)sx_get_ulong(r, "line", 0);
        }
    }
}

/* An enum's sentinel (a value at or above SENTINEL_VALUE) stays last when
 * values are added before it. */
static int is_sentinel(const struct ddi_model_enum *en, const char *name)
{
    for (size_t i = 0; en && name && i < en->nvalues; i++)
        if (!strcmp(en->values[i].name, name))
            return en->values[i].value >= SENTINEL_VALUE || en->values[i].value < 0;
    return 0;
}

static void last_kit_member(struct lint_newer_page *p, xmlNodePtr mpage, const struct ddi_model_enum *en)
{
    for (xmlNodePtr m = sx_child(mpage, "match"); m; m = sx_next(m, "match")) {
        const char *doc = sx_get(m, "doc");
        unsigned line = (unsigned)sx_get_ulong(m, "line", 0);
        if (strcmp(sx_get(m, "how"), "none") != 0 && doc && !is_filler(doc) && !is_sentinel(en, sx_get(m, "value")) &&
            line > p->last_kit_member_line)
            p->last_kit_member_line = line;
    }
}

static void kit_last_value(struct lint_newer_page *p, const struct ddi_model_enum *en)
{
    for (size_t i = 0; en && i < en->nvalues; i++) {
        long long v = en->values[i].value;
        if (v >= 0 && v < SENTINEL_VALUE && (!p->has_last_value || v > p->kit_last_value)) {
            p->kit_last_value = v;
            p->has_last_value = 1;
        }
    }
}

/* How many members of the kit's type no match of the page took (a field
 * counts when a field with its path did: alternatives by version). When
 * one is left, a member documented last may be it under another name, so
 * its place says nothing. */
static unsigned kit_members_undocumented(xmlNodePtr mpage, const struct ddi_model_record *top,
                                         const struct ddi_model_enum *en)
{
    struct strmap ids = {0}, paths = {0};
    char num[24];
    for (xmlNodePtr m = sx_child(mpage, "match"); m; m = sx_next(m, "match")) {
        const char *id = sx_get(m, top ? "field-id" : "value-id");
        if (id && strcmp(sx_get(m, "how"), "none") != 0)
            strmap_put(&ids, id, (void *)1);
    }
    unsigned left = 0;
    for (size_t i = 0; top && i < top->nall; i++) {
        snprintf(num, sizeof num, "%lu", top->all[i]->id);
        if (strmap_get(&ids, num))
            strmap_put(&paths, top->all[i]->path, (void *)1);
    }
    for (size_t i = 0; top && i < top->nall; i++)
        left += top->all[i]->name && *top->all[i]->name && !strmap_get(&paths, top->all[i]->path);
    for (size_t i = 0; !top && en && i < en->nvalues; i++) {
        snprintf(num, sizeof num, "%lu", en->values[i].id);
        left += !strmap_get(&ids, num);
    }
    strmap_free(&ids);
    strmap_free(&paths);
    return left;
}

void lint_newer_page_init(struct lint_newer_page *p, struct arena *a, const struct ddi_model *m, xmlNodePtr mpage,
                          xmlNodePtr dpage, const struct ddi_model_record *top, const struct ddi_model_enum *en)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->dpage = dpage;
    kit_newest(p, m);
    page_newest(p);
    if (kit_members_undocumented(mpage, top, en) == 0)
        last_kit_member(p, mpage, en);
    kit_last_value(p, en);
}

void lint_newer_page_free(struct lint_newer_page *p)
{
    strmap_free(&p->verdicts);
}

/* The latest availability the page gives the member itself, or -1. */
static int own_availability(const struct lint_newer_page *p, const char *doc, unsigned *line)
{
    int best = -1;
    for (xmlNodePtr r = sx_child(sx_child(p->dpage, "rules"), "rule"); r; r = sx_next(r, "rule")) {
        const char *subject = sx_get(r, "subject");
        int w = subject && !strcmp(subject, doc) && !strcmp(sx_get(r, "kind"), "availability")
                    ? wddm10_of_text(sx_operand_value(r, "wddm"))
                    : -1;
        if (w > best) {
            best = w;
            *line = (unsigned)sx_get_ulong(r, "line", 0);
        }
    }
    return best;
}

/* The docs <value> of an enum page with this name (members nest). */
static xmlNodePtr doc_value(xmlNodePtr parent, const char *name)
{
    for (xmlNodePtr n = sx_child(parent, NULL); n; n = sx_next(n, NULL)) {
        if (sx_is(n, "value") && sx_get(n, "name") && !strcmp(sx_get(n, "name"), name))
            return n;
        xmlNodePtr deeper = sx_is(n, "field") || sx_is(n, "value") ? doc_value(n, name) : NULL;
        if (deeper)
            return deeper;
    }
    return NULL;
}

/* The number a page gives an enum value, when it is after the kit's last. */
static int numbered_after_kit(const struct lint_newer_page *p, const char *doc, long long *number)
{
    xmlNodePtr v = p->has_last_value ? doc_value(sx_child(p->dpage, "members"), doc) : NULL;
    const char *text = v ? sx_get(v, "value") : NULL;
    char *end = NULL;
    long long n = text ? strtoll(text, &end, 0) : 0;
    if (!text || end == text || *end)
        return 0;
    *number = n;
    return n > p->kit_last_value && n < SENTINEL_VALUE;
}

static const char *judge(struct lint_newer_page *p, const char *doc, unsigned line, const char **dated)
{
    struct arena *a = p->a;
    unsigned at = 0;
    int own = own_availability(p, doc, &at);
    if (own >= 0 && p->kit_newest >= 0) {
        if (own > p->kit_newest)
            return arena_printf(a, "the page dates it %s (line %u), after this kit's newest version %s",
                                wddm_text(a, own), at, p->kit_newest_name);
        *dated = arena_printf(a, "%s, line %u", wddm_text(a, own), at);
        return NULL;
    }
    long long number = 0;
    if (numbered_after_kit(p, doc, &number))
        return arena_printf(a, "numbered %lld, after this kit's last value %lld", number, p->kit_last_value);
    if (p->last_kit_member_line && line > p->last_kit_member_line)
        return arena_printf(a, "documented after every member this kit has (line %u): the type grew after this kit",
                            p->last_kit_member_line);
    if (p->kit_newest >= 0 && p->page_newest > p->kit_newest)
        return arena_printf(a, "the page documents a later release: it dates members %s (line %u), after this kit's "
                               "newest version %s",
                            wddm_text(a, p->page_newest), p->page_newest_line, p->kit_newest_name);
    return NULL;
}

const char *lint_newer_evidence(struct lint_newer_page *p, const char *doc, unsigned line, const char **dated)
{
    *dated = NULL;
    const char *dot = strrchr(doc, '.');
    if (dot) { /* under a missing parent: the parent's verdict */
        char *parent = arena_strndup(p->a, doc, (size_t)(dot - doc));
        const char *seen = strmap_get(&p->verdicts, parent);
        if (seen) {
            strmap_put(&p->verdicts, arena_strdup(p->a, doc), (void *)seen);
            return *seen ? arena_printf(p->a, "a member of %s, which is newer: %s", parent, seen) : NULL;
        }
    }
    const char *why = judge(p, doc, line, dated);
    strmap_put(&p->verdicts, arena_strdup(p->a, doc), (void *)(why ? why : ""));
    return why;
}
