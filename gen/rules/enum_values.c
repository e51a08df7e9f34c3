/* Enum values: a field whose type is an enum holds one of the enum's values
 * defined at the compiled DDI version (a `range` check, operand enum=TYPE).
 * Only where the field holds exactly one value: never an enum used as a bit
 * mask, never a field whose page allows other values, never a value the
 * driver writes. A check that rejects a valid call is a kernel bug, so
 * every doubt leaves the field out, with the reason in the skip list. */
#include "kinds.h"

#include "../util/diag.h"

#include <ctype.h>
#include <string.h>

/* ---- meaning ------------------------------------------------------------- */

static unsigned long long width_mask(const struct rules_field *f)
{
    int bits = f->bits ? f->bits : f->width[0] * 8;
    return bits <= 0 || bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static int broken_enum(const struct rules_check *c, const struct rules_values *v)
{
    unsigned long long m = width_mask(&c->subject);
    for (size_t i = 0; i < c->ncases; i++)
        if (((unsigned long long)c->cases[i].number & m) == (v->subject & m) && (c->cases[i].versions >> v->version & 1))
            return 0;
    return 1;
}

static void render_value_is(struct strbuf *sb, const struct rules_check *c, long long number)
{
    sb_append(sb, " || (");
    rules_render_value(sb, &c->subject);
    if (number < 0)
        sb_printf(sb, " == (unsigned long long)(%lldll))", number);
    else
        sb_printf(sb, " == %lluull)", (unsigned long long)number);
}

/* !(0 || (v == A) || (v == B) ...): the values that exist wherever the
 * check does first, then those of each other version set under one #if of
 * the model's guard printer (preprocessor lines inside the if's condition,
 * as C allows). */
static void render_enum(struct strbuf *sb, const struct rules_check *c)
{
    int guarded = 0;
    sb_append(sb, "!(0");
    for (size_t i = 0; i < c->ncases; i++)
        if ((c->cases[i].versions & c->versions) == c->versions)
            render_value_is(sb, c, c->cases[i].number);
    for (size_t i = 0; i < c->ncases; i++) {
        uint64_t set = c->cases[i].versions;
        int first = (set & c->versions) != c->versions;
        for (size_t j = 0; j < i && first; j++)
            first = c->cases[j].versions != set;
        if (!first || !(set & c->versions))
            continue;
        sb_append(sb, "\n#if ");
        ddi_vset_condition(c->where, set, sb);
        sb_append(sb, "\n       ");
        for (size_t j = i; j < c->ncases; j++)
            if (c->cases[j].versions == set)
                render_value_is(sb, c, c->cases[j].number);
        sb_append(sb, "\n#endif");
        guarded = 1;
    }
    sb_append(sb, guarded ? "\n       )" : ")");
}

const struct rules_kind rules_enum_kind = {.op = "known", .broken = broken_enum, .render = render_enum};

/* ---- which fields -------------------------------------------------------- */

/* Values OR-ed together (1, 2, 4 ... and nothing else but 0 and a
 * force-to-32-bit sentinel): a bit mask, not one value. */
static int is_bit_mask(const struct ddi_model_enum *e)
{
    int powers = 0, others = 0;
    for (size_t i = 0; i < e->nvalues; i++) {
        unsigned long long v = (unsigned long long)e->values[i].value;
        if (!v || v == 0x7FFFFFFFull || v == 0xFFFFFFFFull)
            continue;
        if (v & (v - 1))
            others++;
        else
            powers++;
    }
    return powers >= 3 && !others;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* The page's text of the field (<docs> .../field[@id = RECORD.path]/text), or NULL. */
static const char *page_text(const struct ddi_model *m, const char *record, const char *path, struct arena *a)
{
    xmlNodePtr t = ddi_model_docs_field_text(m, arena_printf(a, "%s.%s", record, path));
    if (!t)
        return NULL;
    xmlChar *s = xmlNodeGetContent(t);
    char *copy = arena_strdup(a, (const char *)s);
    xmlFree(s);
    return copy;
}

/* Words of a page that let the field hold what the enum does not list, or
 * say when its value means anything. */
static const char *open_values(struct arena *a, const char *text)
{
    static const char *const cues[] = {"other value", "any value", "passed through", "pass through", "fourcc",
                                       "reserved", "ignore", "not used", "vendor", "bitwise", "combination",
                                       "or'd", "or-ed", "undefined",
                                       /* a value meaningful under a condition the check does not carry */
                                       "valid only", "only valid", "only if", "only when", "meaningful only", NULL};
    if (!text)
        return NULL;
    char *lc = arena_strdup(a, text);
    for (char *p = lc; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (const char *const *c = cues; *c; c++)
        if (strstr(lc, *c))
            return arena_printf(a, "the page says \"%s\": other values may be valid", *c);
    return NULL;
}

static void add_case(struct rules_check *c, const struct ddi_model_value *v, uint64_t versions)
{
    for (size_t i = 0; i < c->ncases; i++)
        if (c->cases[i].number == v->value) {
            c->cases[i].versions |= versions;
            return;
        }
    struct rules_case *k = &c->cases[c->ncases++];
    memset(k, 0, sizeof *k);
    k->number = v->value;
    k->value = v->name;
    k->versions = versions;
}

/* The enum's values, each where it exists, as the check's cases. */
static void enum_cases(struct arena *a, const struct ddi_model_enum *e, struct rules_check *c)
{
    c->cases = arena_alloc(a, (e->nvalues ? e->nvalues : 1) * sizeof *c->cases);
    for (size_t i = 0; i < e->nvalues; i++)
        add_case(c, &e->values[i], e->values[i].versions & e->versions);
}

int rules_lower_enum_value(struct rules_lowering *lw, const struct ddi_model_record *rec,
                           const struct ddi_model_field *f, int in_selected_member, unsigned dir,
                           struct rules_check *c, const char **reason)
{
    const struct ddi_model *m = rules_model(lw);
    struct arena *a = rules_arena(lw);
    const struct ddi_model_enum *e = f->type && f->path && *f->path ? ddi_model_type_enum(m, f->type) : NULL;
    if (!e || f->array)
        return 0;
    c->id = arena_printf(a, "%s.%s:enum", rec->name, f->path);
    c->kind = "range";
    c->kind_id = DDI_RULE_RANGE;
    c->how = &rules_enum_kind;
    c->enum_name = e->name;
    c->page = rec->file;
    c->line = (long)f->line;
    c->sentence = arena_printf(a, "%s is a %s: one of its values defined at the compiled DDI version.", f->path,
                               e->name);
    *reason = NULL;
    for (const struct ddi_model_record *o = f->owner; o && o != rec && !*reason; o = o->holder ? o->holder->owner : NULL)
        if (o->is_union && !in_selected_member)
            *reason = "lies in a union: another member may hold its bytes";
    if (!*reason && f->owner == rec && rec->is_union)
        *reason = "lies in a union: another member may hold its bytes";
    if (!*reason && (is_bit_mask(e) || has_suffix(f->path, "Flags") || has_suffix(f->path, "Mask")))
        *reason = arena_printf(a, "%s is used as a bit mask (values OR-ed)", e->name);
    if (!*reason && strstr(e->name, "FORMAT"))
        *reason = arena_printf(a, "%s is an open set of formats (FOURCC codes are valid too)", e->name);
    if (!*reason && !dir)
        *reason = "neither the page nor the header marks it [in]: who sets it is a guess";
    if (!*reason && !(dir & RULES_DIR_IN))
        *reason = "the driver writes it: a value it need not set is no value to refuse";
    if (!*reason) /* the page names the record by its typedef or its tag */
        *reason = open_values(a, page_text(m, rec->name, f->path, a));
    if (!*reason && rec->tag)
        *reason = open_values(a, page_text(m, rec->tag, f->path, a));
    struct ddi_model_chain chain;
    if (!*reason && (ddi_model_resolve(m, rec, f->path, &chain) != 0 || rules_field(lw, f->path, &chain, &c->subject)))
        *reason = "not a scalar field";
    if (*reason)
        return 1;
    c->versions &= c->subject.versions & e->versions;
    c->archs &= c->subject.archs;
    c->where = rules_where(lw);
    enum_cases(a, e, c);
    if (!c->ncases || !c->versions)
        *reason = "the enum has no value where the field exists";
    return 1;
}
