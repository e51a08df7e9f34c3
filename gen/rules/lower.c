/* Rule lowering: reads the merged spec (layout, docs rules, merge
 * resolutions, discriminators) and decides, per documented rule, the check
 * it becomes or why it cannot be one. */
#include "rules.h"

#include "kinds.h"

#include "../model/type_facts.h"

#include "../util/arena.h"
#include "../util/diag.h"
#include "../util/strmap.h"

#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <stdlib.h>
#include <string.h>

struct lower {
    struct rules_plan *plan;
    struct arena *a;
    xmlDocPtr doc;
    struct strmap records; /* top-level layout record by name */
    struct strmap tags;    /* ... by tag */
    struct strmap docs_rules; /* docs <rule> by id */
};

/* Attribute as an arena string (NULL when absent). */
static const char *prop(struct lower *l, xmlNodePtr n, const char *name)
{
    xmlChar *v = n ? xmlGetProp(n, BAD_CAST name) : NULL;
    if (!v)
        return NULL;
    char *s = arena_strdup(l->a, (const char *)v);
    xmlFree(v);
    return s;
}

static int is_elem(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static uint64_t all_versions(const struct rules_plan *plan)
{
    return ddi_vset_all(&plan->where);
}

/* An unknown name gives the empty set: a check that cannot be placed is
 * not compiled anywhere. */
static uint64_t parse_versions(const struct rules_plan *plan, const char *text)
{
    return ddi_vset_of(&plan->where, text);
}

static unsigned parse_archs(const struct rules_plan *plan, const char *text)
{
    return ddi_archset_of(&plan->where, text);
}

/* ---- fields ------------------------------------------------------------ */

static xmlNodePtr find_field(xmlNodePtr rec, const char *path)
{
    for (xmlNodePtr f = rec->children; f; f = f->next) {
        if (!is_elem(f, "field"))
            continue;
        xmlChar *p = xmlGetProp(f, BAD_CAST "path");
        int hit = p && strcmp((const char *)p, path) == 0;
        xmlFree(p);
        if (hit)
            return f;
        for (xmlNodePtr r = f->children; r; r = r->next)
            if (is_elem(r, "record")) {
                xmlNodePtr inner = find_field(r, path);
                if (inner)
                    return inner;
            }
    }
    return NULL;
}

/* The record a field's named type stands for (Protection -> the
 * D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE record), or NULL. */
static xmlNodePtr type_record(struct lower *l, xmlNodePtr field)
{
    const char *type = prop(l, field, "type"), *canon = prop(l, field, "canonical");
    xmlNodePtr r = type ? strmap_get(&l->records, type) : NULL;
    if (!r && canon) {
        const char *sp = strchr(canon, ' ');
        if (sp && !strchr(canon, '*'))
            r = strmap_get(&l->tags, sp + 1);
    }
    return r;
}

/* Bytes of a field's value on one architecture as the layout measured
 * it (0 when it is not an integer, enum or pointer); LARGE_INTEGER, a
 * union, is read through its QuadPart. */
static int scalar_width(struct lower *l, xmlNodePtr field, size_t arch, int *pointer, int *is_signed, int *quad)
{
    const char *canon = prop(l, field, "canonical");
    if (canon && strstr(canon, "LARGE_INTEGER") && !strchr(canon, '*')) {
        *quad = 1;
        return 8;
    }
    struct ddi_type_fact f = ddi_type_fact_at(&l->plan->where, field, l->plan->where.arch[arch], -1);
    if (!ddi_type_is_integer(&f))
        return 0;
    *pointer = f.cls == DDI_TYPE_POINTER;
    *is_signed |= f.cls == DDI_TYPE_SIGNED;
    return (int)f.bytes;
}

/* Intersects the versions and archs of a field and of every field and
 * record that holds it up to the top-level record. */
static void field_existence(struct lower *l, xmlNodePtr n, struct rules_field *f)
{
    for (; n && !(is_elem(n, "record") && is_elem(n->parent, "layout")); n = n->parent) {
        if (!is_elem(n, "field") && !is_elem(n, "record"))
            continue;
        f->versions &= parse_versions(l->plan, prop(l, n, "versions"));
        f->archs &= parse_archs(l->plan, prop(l, n, "archs"));
    }
}

/* Resolves a designator from rec into a chain of fields; 0 ok, -1 when it
 * names no field or a field that is not a scalar. */
static int resolve(struct lower *l, xmlNodePtr rec, const char *path, struct rules_field *f)
{
    memset(f, 0, sizeof *f);
    f->path = arena_strdup(l->a, path);
    f->versions = all_versions(l->plan);
    f->archs = ddi_archset_all(&l->plan->where);
    const char *rest = path;
    while (rest && f->depth < RULES_MAX_CHAIN) {
        xmlNodePtr field = find_field(rec, rest);
        const char *next = NULL;
        if (!field) {
            /* the longest prefix that is a field of a named record type */
            char *buf = arena_strdup(l->a, rest);
            for (char *dot = strrchr(buf, '.'); dot && !field; dot = strrchr(buf, '.')) {
                *dot = '\0';
                xmlNodePtr pre = find_field(rec, buf);
                if (pre && type_record(l, pre)) {
                    field = pre;
                    next = rest + (dot - buf) + 1;
                }
            }
            if (!field)
                return -1;
        }
        f->chain[f->depth++] = field;
        field_existence(l, field, f);
        if (!next)
            break;
        rec = type_record(l, field);
        rest = next;
        if (!rec)
            return -1;
    }
    xmlNodePtr last = f->chain[f->depth - 1];
    const char *bits = prop(l, last, "bits");
    int quad = 0;
    f->bits = bits ? atoi(bits) : 0;
    for (size_t i = 0; i < l->plan->where.narchs; i++)
        f->width[i] = f->bits ? (f->bits + 7) / 8 : scalar_width(l, last, i, &f->pointer, &f->is_signed, &quad);
    if (f->bits)
        f->pointer = 0;
    f->access = quad ? arena_concat(l->a, path, ".QuadPart", NULL) : f->path;
    if (!f->bits && !f->width[0])
        return -1;
    if (prop(l, last, "array"))
        return -1; /* an array is not one value; its elements have no rule here */
    return 0;
}

/* ---- per-record lowering --------------------------------------------- */

struct building {
    struct vec checks, skips, masks, members;
    struct strmap seen;  /* rule IDs already lowered for this record */
    struct strmap dirs;  /* field path -> direction bits (as pointer-sized int) */
    xmlNodePtr disc;     /* <discriminator> of the record, if any */
};

static void skip(struct lower *l, struct building *b, const char *id, const char *kind, const char *reason,
                 const char *page, long line)
{
    struct rules_skip *s = arena_alloc(l->a, sizeof *s);
    s->id = id, s->kind = kind, s->reason = reason, s->page = page, s->line = line;
    vec_push(&b->skips, s);
}

static unsigned dir_of(struct building *b, const char *path, struct arena *a)
{
    char *p = arena_strdup(a, path);
    for (;;) {
        void *d = strmap_get(&b->dirs, p);
        if (d)
            return (unsigned)(uintptr_t)d;
        char *dot = strrchr(p, '.');
        if (!dot)
            return RULES_DIR_BOTH;
        *dot = '\0';
    }
}

static const char *member_of(struct lower *l, struct building *b, const char *path)
{
    if (!b->disc || !path)
        return NULL;
    size_t n = strcspn(path, ".");
    for (xmlNodePtr c = b->disc->children; c; c = c->next) {
        const char *m = is_elem(c, "case") ? prop(l, c, "member") : NULL;
        if (m && strlen(m) == n && strncmp(m, path, n) == 0 && path[n] == '.')
            return m;
    }
    return NULL;
}

static const char *docs_operand(struct lower *l, xmlNodePtr docs_rule, const char *name)
{
    for (xmlNodePtr o = docs_rule ? docs_rule->children : NULL; o; o = o->next)
        if (is_elem(o, "operand")) {
            const char *n = prop(l, o, "name");
            if (streq(n, name))
                return prop(l, o, "value");
        }
    return NULL;
}


/* Field operands of a merge rule with the given name; -1 (and the reason)
 * when one did not resolve or is not a scalar. */
static int partners(struct lower *l, xmlNodePtr rec, xmlNodePtr mrule, const char *name, struct rules_check *c,
                    const char **reason)
{
    for (xmlNodePtr o = mrule->children; o; o = o->next) {
        if (!is_elem(o, "operand") || !streq(prop(l, o, "name"), name))
            continue;
        const char *field = prop(l, o, "field"), *value = prop(l, o, "value");
        if (!field || streq(prop(l, o, "resolved"), "no")) {
            *reason = arena_printf(l->a, "operand '%s' did not resolve to a field",
                                   value ? ddigen_quote(value) : "?");
            return -1;
        }
        if (c->npartners == RULES_MAX_PARTNERS) {
            *reason = "too many operands";
            return -1;
        }
        if (resolve(l, rec, field, &c->partner[c->npartners]) != 0) {
            *reason = arena_printf(l->a, "operand '%s' is not a scalar field", ddigen_quote(field));
            return -1;
        }
        c->versions &= c->partner[c->npartners].versions;
        c->archs &= c->partner[c->npartners].archs;
        c->npartners++;
    }
    return 0;
}

/* The rule being lowered, as kinds.c sees it. */
struct rules_lowering {
    struct lower *l;
    xmlNodePtr rec, mrule, drule;
    int has_subject;
};

const char *rules_operand(struct rules_lowering *lw, const char *name)
{
    return docs_operand(lw->l, lw->drule, name);
}

int rules_partners(struct rules_lowering *lw, const char *name, struct rules_check *c, const char **reason)
{
    return partners(lw->l, lw->rec, lw->mrule, name, c, reason);
}

int rules_has_subject(const struct rules_lowering *lw)
{
    return lw->has_subject;
}

/* Fills c from one merge rule; returns NULL, or why it is not a check. */
static const char *lower_rule(struct lower *l, xmlNodePtr rec, xmlNodePtr mrule, xmlNodePtr drule,
                              struct rules_check *c)
{
    const char *field = prop(l, mrule, "field");
    /* A subject matched through a named type (DiscardContent.Flags.Reserved)
     * has its field= relative to that type's record; the page's subject is
     * the designator from this record. */
    if (field && drule && prop(l, mrule, "record"))
        field = prop(l, drule, "subject");
    int k = ddi_rule_kind_find(c->kind);
    const struct rules_kind *how = k >= 0 ? &rules_kinds[k] : NULL;
    if (how && how->unchecked)
        return how->unchecked;
    /* The docs stage marks a rule whose sentence states a condition its
     * operands do not carry ("When the driver is first called with a new
     * paging buffer, this address is aligned on 4 KB"): checked
     * unconditionally it would refuse the calls the condition exempts. */
    if (how && how->unconditional_only && prop(l, drule, "condition"))
        return "the sentence states a condition the rule does not carry";
    int set_rule = how && how->subject_optional && !field;
    if (!field && !set_rule)
        return "names no field of the record";
    if (field && resolve(l, rec, field, &c->subject) != 0)
        return arena_printf(l->a, "'%s' is not a scalar field", ddigen_quote(field));
    if (field) {
        c->versions &= c->subject.versions;
        c->archs &= c->subject.archs;
    }
    if (!how || !how->lower)
        return "no check for this kind";
    c->kind_id = (enum ddi_rule_kind)k;
    c->how = how;
    struct rules_lowering lw = {l, rec, mrule, drule, field != NULL};
    const char *why = how->lower(&lw, c);
    if (why)
        return why;
    if (!c->versions || !c->archs)
        return "its fields never exist together";
    return NULL;
}

static void add_check(struct lower *l, struct building *b, struct rules_check *c, xmlNodePtr drule)
{
    c->dir = dir_of(b, c->subject.path ? c->subject.path : "", l->a);
    c->member = member_of(l, b, c->subject.path);
    c->mask_group = -1;
    c->sentence = NULL;
    for (xmlNodePtr s = drule ? drule->children : NULL; s; s = s->next)
        if (is_elem(s, "sentence")) {
            xmlChar *t = xmlNodeGetContent(s);
            c->sentence = arena_strdup(l->a, (const char *)t);
            xmlFree(t);
        }
    struct rules_check *copy = arena_alloc(l->a, sizeof *copy);
    *copy = *c;
    vec_push(&b->checks, copy);
}

static void read_directions(struct lower *l, struct building *b, xmlNodePtr page)
{
    for (xmlNodePtr r = page->children; r; r = r->next) {
        if (!is_elem(r, "rule") || !streq(prop(l, r, "kind"), "direction"))
            continue;
        const char *field = prop(l, r, "field");
        const char *v = docs_operand(l, strmap_get(&l->docs_rules, prop(l, r, "ref")), "value");
        if (!field || !v)
            continue;
        unsigned d = streq(v, "in") ? RULES_DIR_IN : streq(v, "out") ? RULES_DIR_OUT : RULES_DIR_BOTH;
        d |= (unsigned)(uintptr_t)strmap_get(&b->dirs, field);
        strmap_put(&b->dirs, field, (void *)(uintptr_t)d);
    }
}

static void lower_page(struct lower *l, struct building *b, xmlNodePtr rec, xmlNodePtr page)
{
    const char *source = prop(l, page, "source");
    for (xmlNodePtr r = page->children; r; r = r->next) {
        if (!is_elem(r, "rule"))
            continue;
        const char *id = prop(l, r, "ref"), *kind = prop(l, r, "kind");
        if (!id || !kind || strmap_get(&b->seen, id) || streq(kind, "direction"))
            continue;
        strmap_put(&b->seen, id, (void *)1);
        if (strpbrk(id, "\"\\\n") || strstr(id, "*/")) {
            skip(l, b, "(unprintable ID)", kind, "the ID cannot be written in a C string", source, 0);
            continue;
        }
        xmlNodePtr drule = strmap_get(&l->docs_rules, id);
        const char *line = prop(l, r, "line");
        struct rules_check c = {.id = id, .kind = kind, .page = source, .line = line ? atol(line) : 0};
        c.versions = all_versions(l->plan);
        c.archs = ddi_archset_all(&l->plan->where);
        const char *why = lower_rule(l, rec, r, drule, &c);
        if (why)
            skip(l, b, id, kind, why, source, c.line);
        else
            add_check(l, b, &c, drule);
    }
}

static void lower_discriminator(struct lower *l, struct building *b, xmlNodePtr rec, const char *name)
{
    const char *selector = prop(l, b->disc, "selector");
    struct rules_check c = {.kind = "discriminator", .kind_id = DDI_RULE_DISCRIMINATOR,
                            .how = &rules_kinds[DDI_RULE_DISCRIMINATOR]};
    c.id = arena_printf(l->a, "%s.%s:known-value", name, selector ? selector : "?");
    c.versions = all_versions(l->plan);
    c.archs = ddi_archset_all(&l->plan->where);
    if (!selector || resolve(l, rec, selector, &c.subject) != 0) {
        skip(l, b, c.id, c.kind, "the selector is not a scalar field", NULL, 0);
        return;
    }
    c.versions &= c.subject.versions;
    size_t n = 0;
    for (xmlNodePtr k = b->disc->children; k; k = k->next)
        n += is_elem(k, "case");
    c.cases = arena_alloc(l->a, (n ? n : 1) * sizeof *c.cases);
    for (xmlNodePtr k = b->disc->children; k; k = k->next) {
        if (!is_elem(k, "case"))
            continue;
        struct rules_case *rc = &c.cases[c.ncases++];
        const char *num = prop(l, k, "number");
        rc->number = num ? atoll(num) : 0;
        rc->value = prop(l, k, "value");
        rc->member = prop(l, k, "member");
        rc->versions = parse_versions(l->plan, prop(l, k, "versions"));
        /* The value is known where the enum has it; its member is checked
         * only where the union has that member too (VIRTUAL_TRANSFER is an
         * operation from WIN7, its TransferVirtual member from WDDM 2.0). */
        xmlNodePtr f = rc->member ? find_field(rec, rc->member) : NULL;
        if (!f)
            rc->member = NULL;
        if (rc->member) {
            struct rules_field mf;
            memset(&mf, 0, sizeof mf);
            mf.versions = all_versions(l->plan);
            mf.archs = ~0u;
            field_existence(l, f, &mf);
            rc->member_versions = rc->versions & mf.versions;
            vec_push(&b->members, (void *)rc->member);
        }
    }
    c.page = NULL;
    c.sentence = arena_printf(l->a, "%s selects the member of the union; its value must be a known %s.",
                              selector, prop(l, b->disc, "enum"));
    c.dir = dir_of(b, selector, l->a);
    c.member = NULL;
    c.mask_group = -1;
    struct rules_check *copy = arena_alloc(l->a, sizeof *copy);
    *copy = c;
    vec_push(&b->checks, copy);
}

/* The flag word (Value) that shares a union with the struct holding the
 * bitfield f, or NULL. */
static xmlNodePtr flag_word(struct lower *l, xmlNodePtr f)
{
    xmlNodePtr inner = f->parent, anon = inner ? inner->parent : NULL, uni = anon ? anon->parent : NULL;
    if (!is_elem(inner, "record") || !is_elem(anon, "field") || !is_elem(uni, "record") ||
        !streq(prop(l, uni, "kind"), "union"))
        return NULL;
    for (xmlNodePtr w = uni->children; w; w = w->next)
        if (is_elem(w, "field") && streq(prop(l, w, "name"), "Value") && !prop(l, w, "bits"))
            return w;
    return NULL;
}

static long bit_offset(struct lower *l, xmlNodePtr f, const char *arch)
{
    for (xmlNodePtr o = f->children; o; o = o->next)
        if (is_elem(o, "offset") && streq(prop(l, o, "arch"), arch) && !prop(l, o, "versions")) {
            const char *bits = prop(l, o, "bits");
            return bits ? atol(bits) : -1;
        }
    return -1;
}

/* Reserved bitfields that always exist go through one test of the flag
 * word against their mask; the per-field checks run only when it fails. */
static void group_masks(struct lower *l, struct building *b, xmlNodePtr rec)
{
    for (size_t i = 0; i < b->checks.len; i++) {
        struct rules_check *c = b->checks.items[i];
        if (c->kind_id != DDI_RULE_RESERVED_ZERO || !c->subject.bits || c->subject.depth != 1)
            continue;
        xmlNodePtr f = c->subject.chain[0], w = flag_word(l, f);
        if (!w)
            continue;
        struct rules_field word;
        if (resolve(l, rec, prop(l, w, "path"), &word) != 0 || word.versions != c->versions || c->archs != word.archs)
            continue;
        long shift = -1;
        int same = 1;
        for (size_t a = 0; a < l->plan->where.narchs; a++) {
            long fo = bit_offset(l, f, l->plan->where.arch[a]), wo = bit_offset(l, w, l->plan->where.arch[a]);
            long s = fo < 0 || wo < 0 ? -1 : fo - wo;
            if (a == 0)
                shift = s;
            same &= s == shift;
        }
        if (!same || shift < 0 || shift + c->subject.bits > word.width[0] * 8)
            continue;
        unsigned long long bits = (c->subject.bits >= 64 ? ~0ull : (1ull << c->subject.bits) - 1) << shift;
        size_t g = 0;
        for (; g < b->masks.len; g++) {
            struct rules_mask *m = b->masks.items[g];
            if (streq(m->word.path, word.path) && m->dir == c->dir &&
                ((!m->member && !c->member) || streq(m->member, c->member)))
                break;
        }
        if (g == b->masks.len) {
            struct rules_mask *m = arena_alloc(l->a, sizeof *m);
            m->word = word;
            m->dir = c->dir;
            m->member = c->member;
            vec_push(&b->masks, m);
        }
        ((struct rules_mask *)b->masks.items[g])->mask |= bits;
        c->mask_group = (int)g;
    }
}

static void *vec_copy(struct lower *l, struct vec *v, size_t elem)
{
    char *out = arena_alloc(l->a, (v->len ? v->len : 1) * elem);
    for (size_t i = 0; i < v->len; i++)
        memcpy(out + i * elem, v->items[i], elem);
    return out;
}

static int lower_record(struct lower *l, const char *name, struct rules_record *out)
{
    xmlNodePtr rec = strmap_get(&l->records, name);
    if (!rec || streq(prop(l, rec, "referenced"), "true"))
        return 0;
    struct building b = {0};
    xmlXPathContextPtr x = xmlXPathNewContext(l->doc);
    xmlXPathRegisterVariableNS(x, BAD_CAST "r", NULL, xmlXPathNewString(BAD_CAST name));
    xmlXPathObjectPtr pages = xmlXPathEvalExpression(BAD_CAST "/ddi-spec/merge/page[@record = $r]", x);
    xmlXPathObjectPtr disc = xmlXPathEvalExpression(BAD_CAST "/ddi-spec/merge/discriminator[@record = $r]", x);
    xmlXPathObjectPtr writes =
        xmlXPathEvalExpression(BAD_CAST "/ddi-spec/merge/override[@kind = 'writes' and @record = $r]", x);
    int np = pages && pages->nodesetval ? pages->nodesetval->nodeNr : 0;
    b.disc = disc && disc->nodesetval && disc->nodesetval->nodeNr ? disc->nodesetval->nodeTab[0] : NULL;
    for (int i = 0; i < np; i++)
        read_directions(l, &b, pages->nodesetval->nodeTab[i]);
    for (int i = 0; writes && writes->nodesetval && i < writes->nodesetval->nodeNr; i++) {
        const char *f = prop(l, writes->nodesetval->nodeTab[i], "field");
        if (f)
            strmap_put(&b.dirs, f, (void *)(uintptr_t)RULES_DIR_BOTH);
    }
    if (b.disc)
        lower_discriminator(l, &b, rec, name);
    for (int i = 0; i < np; i++)
        lower_page(l, &b, rec, pages->nodesetval->nodeTab[i]);
    group_masks(l, &b, rec);
    int keep = b.checks.len || b.skips.len;
    if (keep) {
        out->name = arena_strdup(l->a, name);
        out->layout = rec;
        out->versions = parse_versions(l->plan, prop(l, rec, "versions"));
        out->archs = parse_archs(l->plan, prop(l, rec, "archs"));
        out->nchecks = b.checks.len;
        out->checks = vec_copy(l, &b.checks, sizeof *out->checks);
        out->nmasks = b.masks.len;
        out->masks = vec_copy(l, &b.masks, sizeof *out->masks);
        out->nskips = b.skips.len;
        out->skips = vec_copy(l, &b.skips, sizeof *out->skips);
        out->nmembers = b.members.len;
        const char **m = arena_alloc(l->a, (b.members.len + 1) * sizeof *m);
        for (size_t i = 0; i < b.members.len; i++)
            m[i] = b.members.items[i];
        out->members = m;
    }
    vec_free(&b.checks), vec_free(&b.skips), vec_free(&b.masks), vec_free(&b.members);
    strmap_free(&b.seen), strmap_free(&b.dirs);
    xmlXPathFreeObject(pages), xmlXPathFreeObject(disc), xmlXPathFreeObject(writes);
    xmlXPathFreeContext(x);
    return keep;
}

/* ---- the plan ---------------------------------------------------------- */

static void index_spec(struct lower *l)
{
    xmlNodePtr root = xmlDocGetRootElement(l->doc);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next) {
        if (!is_elem(part, "layout"))
            continue;
        ddi_versions_read(&l->plan->where, part);
        for (xmlNodePtr n = part->children; n; n = n->next) {
            if (!is_elem(n, "record"))
                continue;
            const char *name = prop(l, n, "name"), *tag = prop(l, n, "tag");
            if (name && !strmap_get(&l->records, name))
                strmap_put(&l->records, name, n);
            if (tag && !strmap_get(&l->tags, tag))
                strmap_put(&l->tags, tag, n);
        }
    }
    xmlXPathContextPtr x = xmlXPathNewContext(l->doc);
    xmlXPathObjectPtr rules = xmlXPathEvalExpression(BAD_CAST "/ddi-spec/docs//rule", x);
    for (int i = 0; rules && rules->nodesetval && i < rules->nodesetval->nodeNr; i++) {
        const char *id = prop(l, rules->nodesetval->nodeTab[i], "id");
        if (id && !strmap_get(&l->docs_rules, id))
            strmap_put(&l->docs_rules, id, rules->nodesetval->nodeTab[i]);
    }
    xmlXPathFreeObject(rules);
    xmlXPathFreeContext(x);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of records with a merge page or a discriminator, sorted, unique. */
static void candidate_records(struct lower *l, struct vec *names)
{
    xmlXPathContextPtr x = xmlXPathNewContext(l->doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression(
        BAD_CAST "/ddi-spec/merge/page/@record | /ddi-spec/merge/discriminator/@record", x);
    for (int i = 0; o && o->nodesetval && i < o->nodesetval->nodeNr; i++) {
        xmlChar *v = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
        vec_push(names, arena_strdup(l->a, (const char *)v));
        xmlFree(v);
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(x);
    if (names->len)
        qsort(names->items, names->len, sizeof(void *), by_name);
}

struct rules_plan *rules_lower(xmlDocPtr spec)
{
    struct arena *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    struct rules_plan *plan = arena_alloc(a, sizeof *plan);
    plan->arena = a;
    struct lower l = {.plan = plan, .a = a, .doc = spec};
    index_spec(&l);
    struct vec names = {0};
    candidate_records(&l, &names);
    plan->records = arena_alloc(a, (names.len + 1) * sizeof *plan->records);
    for (size_t i = 0; i < names.len; i++) {
        if (i && strcmp(names.items[i], names.items[i - 1]) == 0)
            continue;
        plan->nrecords += (size_t)lower_record(&l, names.items[i], &plan->records[plan->nrecords]);
    }
    vec_free(&names);
    strmap_free(&l.records), strmap_free(&l.tags), strmap_free(&l.docs_rules);
    return plan;
}

void rules_plan_free(struct rules_plan *plan)
{
    if (!plan)
        return;
    struct arena *a = plan->arena;
    arena_free(a);
    free(a);
}

const struct rules_record *rules_find(const struct rules_plan *plan, const char *record)
{
    for (size_t i = 0; plan && record && i < plan->nrecords; i++)
        if (strcmp(plan->records[i].name, record) == 0)
            return &plan->records[i];
    return NULL;
}
