/* Builds the typed model of model.h from a spec document in one walk of
 * its <layout>, <docs> and <merge>; everything after reads the model. */
#include "model.h"
#include "specxml.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the document ---------------------------------------------------------- */

static long attr_long(xmlNodePtr n, const char *name)
{
    const char *v = sx_get(n, name);
    return v ? atol(v) : 0;
}

static int same(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* ---- elements to their model objects ------------------------------------ */

struct node_slot {
    const void *node;
    void *object;
    int is_record;
};
struct node_map {
    struct node_slot *slots;
    size_t len, cap;
};

static size_t node_hash(const void *p, size_t cap)
{
    return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1);
}

static void node_put(struct node_map *m, const void *node, void *object, int is_record)
{
    if (2 * (m->len + 1) > m->cap) {
        struct node_map bigger = {calloc(m->cap ? 2 * m->cap : 256, sizeof *m->slots), 0, m->cap ? 2 * m->cap : 256};
        if (!bigger.slots)
            abort();
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].node)
                node_put(&bigger, m->slots[i].node, m->slots[i].object, m->slots[i].is_record);
        free(m->slots);
        *m = bigger;
    }
    size_t i = node_hash(node, m->cap);
    while (m->slots[i].node && m->slots[i].node != node)
        i = (i + 1) & (m->cap - 1);
    m->len += !m->slots[i].node;
    m->slots[i] = (struct node_slot){node, object, is_record};
}

static const struct node_slot *node_get(const struct node_map *m, const void *node)
{
    if (!m || !m->cap || !node)
        return NULL;
    for (size_t i = node_hash(node, m->cap); m->slots[i].node; i = (i + 1) & (m->cap - 1))
        if (m->slots[i].node == node)
            return &m->slots[i];
    return NULL;
}

/* ---- layout ------------------------------------------------------------------ */

struct loader {
    struct ddi_model *m;
    struct arena *a;
    struct node_map *nodes;
    struct strmap docs_rules; /* <docs> rule by ID, while loading */
    struct strmap reviews;    /* <merge> review by its line, while loading */
};

static size_t count_children(xmlNodePtr n, const char *name)
{
    size_t k = 0;
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        k += sx_is(c, name);
    return k;
}

/* A zeroed array with room for an item per child of n called name. */
static void *child_array(struct loader *ld, xmlNodePtr n, const char *name, size_t item)
{
    size_t k = count_children(n, name);
    return arena_alloc(ld->a, (k ? k : 1) * item);
}

/* Where an element exists: its versions= as written, parsed, and its archs=. */
static void read_where(struct loader *ld, xmlNodePtr n, const char **attr, ddi_vset *versions, ddi_archset *archs)
{
    *attr = sx_get(n, "versions");
    *versions = ddi_vset_of(&ld->m->where, *attr);
    *archs = ddi_archset_attr(&ld->m->where, n);
}

/* The <layout> children called elem, over every layout part. */
static size_t count_declarations(xmlNodePtr root, const char *elem)
{
    size_t k = 0;
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        if (sx_is(part, "layout"))
            k += count_children(part, elem);
    return k;
}

/* The <size> or <offset> children of n, by arch index. */
static void read_measures(struct loader *ld, xmlNodePtr n, const char *elem, const char *value,
                          struct ddi_model_measures out[DDI_ARCH_MAX])
{
    size_t count[DDI_ARCH_MAX] = {0};
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (sx_is(c, elem)) {
            const char *arch = sx_get(c, "arch");
            int i = arch ? ddi_arch_find(&ld->m->where, arch, strlen(arch)) : -1;
            count[i < 0 ? 0 : i] += i >= 0;
        }
    struct ddi_model_measure *items[DDI_ARCH_MAX];
    for (int i = 0; i < DDI_ARCH_MAX; i++) {
        items[i] = count[i] ? arena_alloc(ld->a, count[i] * sizeof **items) : NULL;
        out[i] = (struct ddi_model_measures){items[i], 0};
    }
    for (xmlNodePtr c = n->children; c; c = c->next) {
        const char *arch = sx_is(c, elem) ? sx_get(c, "arch") : NULL;
        int i = arch ? ddi_arch_find(&ld->m->where, arch, strlen(arch)) : -1;
        if (i < 0)
            continue;
        const char *v = sx_get(c, value), *versions = sx_get(c, "versions");
        items[i][out[i].len++] = (struct ddi_model_measure){
            .versions = ddi_vset_of(&ld->m->where, versions),
            .every_version = versions == NULL,
            .value = v ? atol(v) : -1,
            .align = attr_long(c, "align"),
        };
    }
}

static void read_facts(struct loader *ld, struct ddi_model_field *f)
{
    f->base_fact = ddi_type_fact_with(f->node, NULL);
    size_t count[DDI_ARCH_MAX] = {0};
    for (int pass = 0; pass < 2; pass++)
        for (xmlNodePtr c = f->node->children; c; c = c->next) {
            const char *arch = sx_is(c, "type-size") ? sx_get(c, "arch") : NULL;
            int i = arch ? ddi_arch_find(&ld->m->where, arch, strlen(arch)) : -1;
            if (i < 0)
                continue;
            if (pass == 0) {
                count[i]++;
                continue;
            }
            if (!f->facts[i])
                f->facts[i] = arena_alloc(ld->a, count[i] * sizeof *f->facts[i]);
            struct ddi_model_fact *fact = (struct ddi_model_fact *)&f->facts[i][f->nfacts[i]++];
            fact->versions = ddi_vset_attr(&ld->m->where, c);
            fact->fact = ddi_type_fact_with(f->node, c);
        }
}

static struct ddi_model_record *add_record(struct loader *ld, xmlNodePtr n, struct ddi_model_record *top,
                                           struct ddi_model_field *holder, ddi_vset versions, ddi_archset archs);

/* versions, archs: what the holders of the field allow (up to the top record). */
static struct ddi_model_field *add_field(struct loader *ld, xmlNodePtr n, struct ddi_model_record *owner,
                                         ddi_vset versions, ddi_archset archs)
{
    struct ddi_model_field *f = arena_alloc(ld->a, sizeof *f);
    struct ddi_model_record *top = owner->top;
    f->node = n;
    f->name = sx_get(n, "name");
    f->path = sx_get(n, "path");
    f->type = sx_get(n, "type");
    f->sal = sx_get(n, "sal");
    f->comment_dir = sx_get(n, "comment-dir");
    f->spelled = sx_get(n, "spelled");
    f->canonical = sx_get(n, "canonical");
    f->array = sx_get(n, "array");
    f->index = ld->m->nfields++;
    f->bitfield = sx_get(n, "bits") != NULL;
    f->bits = f->bitfield ? atoi(sx_get(n, "bits")) : 0;
    f->id = (unsigned long)attr_long(n, "id");
    f->line = (unsigned)attr_long(n, "line");
    read_where(ld, n, &f->versions_attr, &f->versions, &f->archs);
    f->eff_versions = versions & f->versions;
    f->eff_archs = archs & f->archs;
    f->owner = owner;
    read_measures(ld, n, "offset", "bits", f->offsets);
    read_facts(ld, f);
    node_put(ld->nodes, n, f, 0);
    if (f->path) {
        struct ddi_model_field *first = strmap_get(&top->by_path, f->path);
        if (!first)
            strmap_put(&top->by_path, f->path, f);
        else {
            while (first->same_path)
                first = first->same_path;
            first->same_path = f;
        }
    }
    if (f->spelled && f->path && f->name && *f->name) {
        /* the designator as the header wrote it: the path with its last
         * segment (the name) replaced by the macro it came from */
        size_t prefix = strlen(f->path) - strlen(f->name);
        const char *as_written = arena_printf(ld->a, "%.*s%s", (int)prefix, f->path, f->spelled);
        if (!strmap_get(&top->by_spelled, as_written))
            strmap_put(&top->by_spelled, as_written, f);
    }
    top->nall++; /* counted now, filled in document order by fill_all */
    for (xmlNodePtr c = n->children; c && !f->nested; c = c->next)
        if (sx_is(c, "record"))
            f->nested = add_record(ld, c, top, f, f->eff_versions, f->eff_archs);
    return f;
}

static struct ddi_model_record *add_record(struct loader *ld, xmlNodePtr n, struct ddi_model_record *top,
                                           struct ddi_model_field *holder, ddi_vset versions, ddi_archset archs)
{
    struct ddi_model_record *r = arena_alloc(ld->a, sizeof *r);
    r->node = n;
    r->name = sx_get(n, "name");
    r->tag = sx_get(n, "tag");
    r->kind = sx_get(n, "kind");
    r->file = sx_get(n, "file");
    r->cxx_type = sx_get(n, "cxx-type");
    r->is_union = same(r->kind, "union");
    r->anonymous = same(sx_get(n, "anonymous"), "true");
    r->referenced = same(sx_get(n, "referenced"), "true");
    r->id = (unsigned long)attr_long(n, "id");
    r->line = (unsigned)attr_long(n, "line");
    read_where(ld, n, &r->versions_attr, &r->versions, &r->archs);
    r->top = top ? top : r;
    r->holder = holder;
    read_measures(ld, n, "size", "bytes", r->sizes);
    node_put(ld->nodes, n, r, 1);
    /* The top record's own existence is the record's, not its fields'. */
    if (top) {
        versions &= r->versions;
        archs &= r->archs;
    }
    for (xmlNodePtr c = n->children; c; c = c->next)
        r->nfields += sx_is(c, "field");
    r->fields = arena_alloc(ld->a, (r->nfields ? r->nfields : 1) * sizeof *r->fields);
    size_t i = 0;
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (sx_is(c, "field"))
            r->fields[i++] = add_field(ld, c, r, versions, archs);
    return r;
}

static void fill_all(struct ddi_model_record *r, struct ddi_model_record *top, size_t *at)
{
    for (size_t i = 0; i < r->nfields; i++) {
        top->all[(*at)++] = r->fields[i];
        if (r->fields[i]->nested)
            fill_all(r->fields[i]->nested, top, at);
    }
}

/* The record a field's named type stands for: by the type's name, else
 * the tag of a canonical "struct _TAG" that is not a pointer. */
static struct ddi_model_record *type_record(struct ddi_model *m, const struct ddi_model_field *f)
{
    struct ddi_model_record *r = f->type ? strmap_get(&m->by_name, f->type) : NULL;
    if (!r && f->canonical) {
        const char *sp = strchr(f->canonical, ' ');
        if (sp && !strchr(f->canonical, '*'))
            r = strmap_get(&m->by_tag, sp + 1);
    }
    return r;
}

/* ---- enums, typedefs, function types ---------------------------------- */

static void read_enum(struct loader *ld, struct ddi_model_enum *e, xmlNodePtr n)
{
    struct ddi_model *m = ld->m;
    e->node = n;
    e->name = sx_get(n, "name");
    e->tag = sx_get(n, "tag");
    e->file = sx_get(n, "file");
    read_where(ld, n, &e->versions_attr, &e->versions, &e->archs);
    e->id = (unsigned long)attr_long(n, "id");
    e->line = (unsigned)attr_long(n, "line");
    struct ddi_model_value *values = child_array(ld, n, "value", sizeof *values);
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!sx_is(c, "value"))
            continue;
        struct ddi_model_value *v = &values[e->nvalues++];
        const char *number = sx_get(c, "value");
        v->node = c;
        v->name = sx_get(c, "name");
        v->value = number ? strtoll(number, NULL, 10) : 0;
        read_where(ld, c, &v->versions_attr, &v->versions, &v->archs);
        v->id = (unsigned long)attr_long(c, "id");
        v->owner = e;
        if (v->name && !strmap_get(&m->value_by_name, v->name))
            strmap_put(&m->value_by_name, v->name, v);
    }
    e->values = values;
    if (e->name && !strmap_get(&m->enum_by_name, e->name))
        strmap_put(&m->enum_by_name, e->name, e);
}

static void read_functype(struct loader *ld, struct ddi_model_functype *f, xmlNodePtr n)
{
    f->node = n;
    f->name = sx_get(n, "name");
    f->file = sx_get(n, "file");
    f->result = sx_get(n, "result");
    f->sal = sx_get(n, "sal");
    f->pointer_to = sx_get(n, "pointer-to");
    read_where(ld, n, &f->versions_attr, &f->versions, &f->archs);
    f->line = (unsigned)attr_long(n, "line");
    struct ddi_model_param *params = child_array(ld, n, "param", sizeof *params);
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (sx_is(c, "param"))
            params[f->nparams++] = (struct ddi_model_param){sx_get(c, "name"), sx_get(c, "type"), sx_get(c, "sal")};
    f->params = params;
    if (f->name && !strmap_get(&ld->m->functype_by_name, f->name))
        strmap_put(&ld->m->functype_by_name, f->name, f);
}

static void read_declarations(struct loader *ld, xmlNodePtr root)
{
    struct ddi_model *m = ld->m;
    struct ddi_model_enum *enums = arena_alloc(ld->a, (count_declarations(root, "enum") + 1) * sizeof *enums);
    struct ddi_model_typedef *tds = arena_alloc(ld->a, (count_declarations(root, "typedef") + 1) * sizeof *tds);
    struct ddi_model_functype *fts = arena_alloc(ld->a, (count_declarations(root, "function-type") + 1) * sizeof *fts);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        for (xmlNodePtr n = sx_is(part, "layout") ? part->children : NULL; n; n = n->next)
            if (sx_is(n, "enum"))
                read_enum(ld, &enums[m->nenums++], n);
            else if (sx_is(n, "typedef")) {
                struct ddi_model_typedef *t = &tds[m->ntypedefs++];
                *t = (struct ddi_model_typedef){.node = n, .name = sx_get(n, "name"), .type = sx_get(n, "type")};
                read_where(ld, n, &t->versions_attr, &t->versions, &t->archs);
                if (t->name && !strmap_get(&m->typedef_by_name, t->name))
                    strmap_put(&m->typedef_by_name, t->name, t);
            } else if (sx_is(n, "function-type"))
                read_functype(ld, &fts[m->nfunctypes++], n);
    /* Tags after names, so that a name always wins over another's tag. */
    for (size_t i = 0; i < m->nenums; i++)
        if (enums[i].tag && !strmap_get(&m->enum_by_name, enums[i].tag))
            strmap_put(&m->enum_by_name, enums[i].tag, &enums[i]);
    m->enums = enums, m->typedefs = tds, m->functypes = fts;
}

static void read_layout(struct loader *ld, xmlNodePtr root)
{
    struct ddi_model *m = ld->m;
    struct vec tops = {0};
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        if (sx_is(part, "layout"))
            ddi_versions_read(&m->where, part);
    ddi_vset every = ddi_vset_all(&m->where);
    ddi_archset all_archs = ddi_archset_all(&m->where);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        for (xmlNodePtr n = sx_is(part, "layout") ? part->children : NULL; n; n = n->next)
            if (sx_is(n, "record"))
                vec_push(&tops, add_record(ld, n, NULL, NULL, every, all_archs));
    read_declarations(ld, root);
    m->nrecords = tops.len;
    m->records = arena_alloc(ld->a, (tops.len ? tops.len : 1) * sizeof *m->records);
    for (size_t i = 0; i < tops.len; i++) {
        struct ddi_model_record *r = tops.items[i];
        m->records[i] = r;
        if (r->name && !strmap_get(&m->by_name, r->name))
            strmap_put(&m->by_name, r->name, r);
        if (r->tag && !strmap_get(&m->by_tag, r->tag))
            strmap_put(&m->by_tag, r->tag, r);
        r->all = arena_alloc(ld->a, (r->nall ? r->nall : 1) * sizeof *r->all);
        size_t at = 0;
        fill_all(r, r, &at);
    }
    vec_free(&tops);
    for (size_t i = 0; i < m->nrecords; i++)
        for (size_t j = 0; j < m->records[i]->nall; j++)
            m->records[i]->all[j]->type_record = type_record(m, m->records[i]->all[j]);
}

/* ---- rules --------------------------------------------------------------- */

/* The text of an element: its one text node's, in place (the usual case:
 * no copy), else a copy of all of it. */
static const char *text_of(struct loader *ld, xmlNodePtr n)
{
    xmlNodePtr t = n->children;
    if (!t)
        return "";
    if (!t->next && t->type == XML_TEXT_NODE && t->content)
        return (const char *)t->content;
    xmlChar *all = xmlNodeGetContent(n);
    const char *copy = arena_strdup(ld->a, all ? (const char *)all : "");
    xmlFree(all);
    return copy;
}

static void read_docs_rule(struct loader *ld, struct ddi_model_docs_rule *r, xmlNodePtr d)
{
    r->node = d;
    r->id = sx_get(d, "id");
    r->kind = sx_get(d, "kind");
    r->subject = sx_get(d, "subject");
    r->condition = sx_get(d, "condition");
    struct ddi_model_docs_operand *ops = child_array(ld, d, "operand", sizeof *ops);
    for (xmlNodePtr c = d->children; c; c = c->next)
        if (sx_is(c, "operand"))
            ops[r->noperands++] = (struct ddi_model_docs_operand){sx_get(c, "name"), sx_get(c, "value")};
        else if (sx_is(c, "sentence"))
            r->sentence = text_of(ld, c); /* the last one, as written */
    r->operands = ops;
}

/* Every <docs> rule (docs.rng: page/rules/rule) in document order: counts
 * them, and reads them into out unless it is NULL. */
static size_t walk_docs_rules(struct loader *ld, xmlNodePtr root, struct ddi_model_docs_rule *out)
{
    size_t n = 0;
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        for (xmlNodePtr page = sx_is(part, "docs") ? part->children : NULL; page; page = page->next)
            for (xmlNodePtr rules = sx_is(page, "page") ? page->children : NULL; rules; rules = rules->next)
                for (xmlNodePtr r = sx_is(rules, "rules") ? rules->children : NULL; r; r = r->next)
                    if (sx_is(r, "rule") && out)
                        read_docs_rule(ld, &out[n++], r);
                    else
                        n += sx_is(r, "rule");
    return n;
}

/* The <text> of every <docs> field at any depth under n (a page's members
 * nest), by field ID, the first of each: one walk, where each reader of a
 * field's text once searched the whole <docs> part. */
static void index_docs_fields(struct ddi_model *m, xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || sx_is(c, "rules") || sx_is(c, "text"))
            continue;
        const char *id = sx_is(c, "field") ? sx_get(c, "id") : NULL;
        if (id && !strmap_get(&m->docs_field_text, id))
            for (xmlNodePtr t = c->children; t; t = t->next)
                if (sx_is(t, "text")) {
                    strmap_put(&m->docs_field_text, id, t);
                    break;
                }
        index_docs_fields(m, c);
    }
}

xmlNodePtr ddi_model_docs_field_text(const struct ddi_model *m, const char *id)
{
    return strmap_get(&m->docs_field_text, id);
}

/* Every <docs> rule, and by ID the first of each (for the merge's rules to join). */
static void read_docs_rules(struct loader *ld, xmlNodePtr root)
{
    size_t n = walk_docs_rules(ld, root, NULL);
    struct ddi_model_docs_rule *rules = arena_alloc(ld->a, (n ? n : 1) * sizeof *rules);
    ld->m->ndocs_rules = walk_docs_rules(ld, root, rules);
    for (size_t i = 0; i < ld->m->ndocs_rules; i++)
        if (rules[i].id && !strmap_get(&ld->docs_rules, rules[i].id))
            strmap_put(&ld->docs_rules, rules[i].id, &rules[i]);
    ld->m->docs_rules = rules;
}

static void join_docs_rule(struct ddi_model_rule *r, const struct ddi_model_docs_rule *d)
{
    static const struct ddi_model_docs_operand none;
    r->docs_node = d ? d->node : NULL;
    r->has_docs = d != NULL;
    r->condition = d ? d->condition : NULL;
    r->sentence = d ? d->sentence : NULL;
    r->docs_operands = d ? d->operands : &none;
    r->ndocs_operands = d ? d->noperands : 0;
}

static void read_operands(struct loader *ld, struct ddi_model_rule *r, xmlNodePtr mrule)
{
    struct ddi_model_operand *ops = child_array(ld, mrule, "operand", sizeof *ops);
    for (xmlNodePtr c = mrule->children; c; c = c->next) {
        if (!sx_is(c, "operand"))
            continue;
        struct ddi_model_operand *o = &ops[r->noperands++];
        o->name = sx_get(c, "name");
        o->value = sx_get(c, "value");
        o->field = sx_get(c, "field");
        o->record = sx_get(c, "record");
        o->resolved = o->field && !same(sx_get(c, "resolved"), "no");
        if (o->field)
            ddi_model_resolve(ld->m, r->record, o->field, &o->target);
    }
    r->operands = ops;
}

/* The <when> conditions of a merge rule, resolved from the rule's record. */
static void read_whens(struct loader *ld, struct ddi_model_rule *r, xmlNodePtr mrule)
{
    struct ddi_model_when *w = child_array(ld, mrule, "when", sizeof *w);
    for (xmlNodePtr c = mrule->children; c; c = c->next) {
        if (!sx_is(c, "when"))
            continue;
        struct ddi_model_when *x = &w[r->nwhens++];
        x->field = sx_get(c, "field");
        x->is = sx_get(c, "is");
        x->equals = sx_get(c, "equals");
        if (x->field)
            ddi_model_resolve(ld->m, r->record, x->field, &x->target);
    }
    r->whens = w;
}

/* A rule a reviewed entry added, dropped or corrected takes its sentence
 * and its docs operands from the entry (<merge> review), and states no
 * condition in prose: the entry's conditions are data (ref operands, whens). */
static void join_review(struct loader *ld, struct ddi_model_rule *r, xmlNodePtr mrule)
{
    const char *review = sx_get(mrule, "review");
    r->provenance = same(sx_get(mrule, "provenance"), "reviewed") ? DDI_PROVENANCE_REVIEWED : DDI_PROVENANCE_EXTRACTED;
    r->review = same(review, "add")       ? DDI_REVIEW_ADD
              : same(review, "keep")    ? DDI_REVIEW_KEEP
              : same(review, "drop")    ? DDI_REVIEW_DROP
              : same(review, "correct") ? DDI_REVIEW_CORRECT
                                        : DDI_REVIEW_NONE;
    r->review_line = attr_long(mrule, "review-line");
    xmlNodePtr e = sx_get(mrule, "review-line") ? strmap_get(&ld->reviews, sx_get(mrule, "review-line")) : NULL;
    if (e)
        r->review_reason = text_of(ld, sx_child(e, "reason") ? sx_child(e, "reason") : e);
    if (!e || r->review == DDI_REVIEW_DROP || r->review == DDI_REVIEW_KEEP)
        return; /* a dropped or kept rule keeps what the page said (a dropped one is not checked) */
    struct ddi_model_docs_operand *ops = child_array(ld, e, "operand", sizeof *ops);
    size_t n = 0;
    for (xmlNodePtr c = e->children; c; c = c->next)
        if (sx_is(c, "operand"))
            ops[n++] = (struct ddi_model_docs_operand){sx_get(c, "name"), sx_get(c, "value")};
        else if (sx_is(c, "sentence"))
            r->sentence = text_of(ld, c);
    r->docs_operands = ops;
    r->ndocs_operands = n;
    r->condition = NULL;
}

static struct ddi_model_rule *read_rule(struct loader *ld, struct ddi_model_record *rec, const char *page,
                                        xmlNodePtr mrule)
{
    struct ddi_model_rule *r = arena_alloc(ld->a, sizeof *r);
    r->id = sx_get(mrule, "ref");
    r->kind_name = sx_get(mrule, "kind");
    r->kind = ddi_rule_kind_find(r->kind_name);
    r->record = rec;
    r->page = page;
    r->line = attr_long(mrule, "line");
    r->merge_node = mrule;
    r->field = sx_get(mrule, "field");
    r->field_record = sx_get(mrule, "record");
    join_docs_rule(r, strmap_get(&ld->docs_rules, r->id));
    /* A subject matched through a named type (DiscardContent.Flags.Reserved)
     * has its field= relative to that type's record; the page's subject is
     * the designator from this record. */
    r->subject = r->field && r->has_docs && r->field_record ? sx_get(r->docs_node, "subject") : r->field;
    if (r->subject)
        ddi_model_resolve(ld->m, rec, r->subject, &r->subject_field);
    read_operands(ld, r, mrule);
    read_whens(ld, r, mrule);
    join_review(ld, r, mrule);
    return r;
}

/* Per top-level record while loading: its rules and the IDs seen. */
struct pending {
    struct vec rules, writes;
    struct strmap seen;
};

static struct pending *pending_of(struct loader *ld, struct strmap *pend, struct ddi_model_record *rec)
{
    struct pending *p = strmap_get(pend, rec->name);
    if (!p) {
        p = arena_alloc(ld->a, sizeof *p);
        strmap_put(pend, rec->name, p);
    }
    return p;
}

static void read_page(struct loader *ld, struct pending *p, struct ddi_model_record *rec, xmlNodePtr page)
{
    const char *source = sx_get(page, "source");
    for (xmlNodePtr c = page->children; c; c = c->next) {
        const char *id = sx_is(c, "rule") ? sx_get(c, "ref") : NULL;
        if (!id || !sx_get(c, "kind") || strmap_get(&p->seen, id))
            continue;
        strmap_put(&p->seen, id, (void *)1);
        vec_push(&p->rules, read_rule(ld, rec, source, c));
    }
}

static void read_discriminator(struct loader *ld, struct ddi_model_record *rec, xmlNodePtr n)
{
    struct ddi_model_discriminator *d = arena_alloc(ld->a, sizeof *d);
    d->node = n;
    d->selector = sx_get(n, "selector");
    d->enum_name = sx_get(n, "enum");
    d->union_name = sx_get(n, "union");
    struct ddi_model_case *cases = child_array(ld, n, "case", sizeof *cases);
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!sx_is(c, "case"))
            continue;
        struct ddi_model_case *kc = &cases[d->ncases++];
        const char *num = sx_get(c, "number");
        kc->number = num ? atoll(num) : 0;
        kc->value = sx_get(c, "value");
        kc->member = sx_get(c, "member");
        kc->versions = ddi_vset_attr(&ld->m->where, c);
        kc->member_field = kc->member ? ddi_model_field(rec, kc->member) : NULL;
    }
    d->cases = cases;
    rec->discriminator = d;
}

static void *vec_array(struct loader *ld, struct vec *v)
{
    void **out = arena_alloc(ld->a, (v->len ? v->len : 1) * sizeof *out);
    memcpy(out, v->items, v->len * sizeof *out);
    return out;
}

static void read_merge(struct loader *ld, xmlNodePtr root)
{
    struct strmap pend = {0};
    read_docs_rules(ld, root);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        if (sx_is(part, "docs"))
            index_docs_fields(ld->m, part);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        for (xmlNodePtr n = sx_is(part, "merge") ? part->children : NULL; n; n = n->next)
            if (sx_is(n, "review") && sx_get(n, "line") && !strmap_get(&ld->reviews, sx_get(n, "line")))
                strmap_put(&ld->reviews, sx_get(n, "line"), n);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next)
        for (xmlNodePtr n = sx_is(part, "merge") ? part->children : NULL; n; n = n->next) {
            struct ddi_model_record *rec =
                strmap_get(&ld->m->by_name, sx_get(n, "record") ? sx_get(n, "record") : "");
            if (!rec || n->type != XML_ELEMENT_NODE)
                continue;
            if (sx_is(n, "page"))
                read_page(ld, pending_of(ld, &pend, rec), rec, n);
            else if (sx_is(n, "discriminator") && !rec->discriminator)
                read_discriminator(ld, rec, n);
            else if (sx_is(n, "override") && same(sx_get(n, "kind"), "writes") && sx_get(n, "field"))
                vec_push(&pending_of(ld, &pend, rec)->writes, (void *)sx_get(n, "field"));
        }
    for (size_t i = 0; i < ld->m->nrecords; i++) {
        struct ddi_model_record *rec = ld->m->records[i];
        struct pending *p = rec->name ? strmap_get(&pend, rec->name) : NULL;
        if (!p || strmap_get(&ld->m->by_name, rec->name) != rec)
            continue;
        rec->nrules = p->rules.len;
        rec->rules = vec_array(ld, &p->rules);
        rec->nwrites = p->writes.len;
        rec->writes = vec_array(ld, &p->writes);
        vec_free(&p->rules), vec_free(&p->writes), strmap_free(&p->seen);
    }
    strmap_free(&pend);
    strmap_free(&ld->docs_rules);
    strmap_free(&ld->reviews);
}

/* ---- the model ---------------------------------------------------------------- */

struct ddi_model *ddi_model_load(xmlDocPtr spec)
{
    struct ddi_model *m = calloc(1, sizeof *m);
    struct node_map *nodes = calloc(1, sizeof *nodes);
    if (!m || !nodes) {
        free(m), free(nodes);
        return NULL;
    }
    m->doc = spec;
    m->nodes = nodes;
    struct loader ld = {.m = m, .a = &m->arena, .nodes = nodes};
    xmlNodePtr root = spec ? xmlDocGetRootElement(spec) : NULL;
    read_layout(&ld, root);
    read_merge(&ld, root);
    return m;
}

void ddi_model_free(struct ddi_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nrecords; i++)
        strmap_free(&m->records[i]->by_path), strmap_free(&m->records[i]->by_spelled);
    strmap_free(&m->by_name), strmap_free(&m->by_tag);
    strmap_free(&m->enum_by_name), strmap_free(&m->value_by_name);
    strmap_free(&m->typedef_by_name), strmap_free(&m->functype_by_name);
    strmap_free(&m->docs_field_text);
    struct node_map *nodes = m->nodes;
    free(nodes->slots);
    free(nodes);
    arena_free(&m->arena);
    free(m);
}

const struct ddi_model_record *ddi_model_record(const struct ddi_model *m, const char *name)
{
    return m && name ? strmap_get(&m->by_name, name) : NULL;
}

const struct ddi_model_record *ddi_model_record_by_tag(const struct ddi_model *m, const char *tag)
{
    return m && tag ? strmap_get(&m->by_tag, tag) : NULL;
}

const struct ddi_model_record *ddi_model_record_any(const struct ddi_model *m, const char *name)
{
    const struct ddi_model_record *r = ddi_model_record(m, name);
    const char *dot = name && !r ? strchr(name, '.') : NULL;
    if (!dot)
        return r ? r : ddi_model_record_by_tag(m, name);
    /* a nested record is named after its top-level record: look there */
    char small[256];
    size_t len = (size_t)(dot - name);
    if (len >= sizeof small)
        return NULL;
    memcpy(small, name, len);
    small[len] = '\0';
    const struct ddi_model_record *top = ddi_model_record(m, small);
    for (size_t i = 0; top && i < top->nall; i++)
        if (top->all[i]->nested && same(top->all[i]->nested->name, name))
            return top->all[i]->nested;
    return NULL;
}

const struct ddi_model_field *ddi_model_field(const struct ddi_model_record *top, const char *path)
{
    return top && path ? strmap_get(&top->top->by_path, path) : NULL;
}

static int named(const struct ddi_model_field *f)
{
    return f->name && *f->name;
}

const struct ddi_model_field *ddi_model_named_field(const struct ddi_model_record *top, const char *path)
{
    const struct ddi_model_field *f = path && *path ? ddi_model_field(top, path) : NULL;
    return f && !named(f) ? ddi_model_next_named(f) : f;
}

const struct ddi_model_field *ddi_model_next_named(const struct ddi_model_field *f)
{
    for (f = f->same_path; f && !named(f); f = f->same_path)
        ;
    return f;
}

const struct ddi_model_field *ddi_model_field_spelled(const struct ddi_model_record *top, const char *path)
{
    return top && path ? strmap_get(&top->top->by_spelled, path) : NULL;
}

long ddi_model_first_offset(const struct ddi_model_field *f)
{
    for (int i = 0; i < DDI_ARCH_MAX; i++)
        if (f->offsets[i].len)
            return f->offsets[i].items[0].value;
    return -1;
}

const struct ddi_model_enum *ddi_model_enum(const struct ddi_model *m, const char *name)
{
    return name ? strmap_get(&m->enum_by_name, name) : NULL;
}

const struct ddi_model_value *ddi_model_value(const struct ddi_model *m, const char *name)
{
    return name ? strmap_get(&m->value_by_name, name) : NULL;
}

const struct ddi_model_functype *ddi_model_functype(const struct ddi_model *m, const char *name)
{
    return name ? strmap_get(&m->functype_by_name, name) : NULL;
}

const char *ddi_model_typedef_type(const struct ddi_model *m, const char *name)
{
    const struct ddi_model_typedef *t = name ? strmap_get(&m->typedef_by_name, name) : NULL;
    return t ? t->type : NULL;
}

/* "const struct _X" -> "_X" in buf; NULL for pointers, arrays and names
 * longer than buf. */
static const char *bare_type(char *buf, size_t cap, const char *type)
{
    if (!type || strchr(type, '*') || strchr(type, '['))
        return NULL;
    static const char *const drop[] = {"const ", "volatile ", "struct ", "union ", "enum ", NULL};
    for (int again = 1; again;) {
        again = 0;
        for (const char *const *d = drop; *d; d++)
            if (!strncmp(type, *d, strlen(*d))) {
                type += strlen(*d);
                again = 1;
            }
    }
    size_t n = strlen(type);
    while (n && type[n - 1] == ' ')
        n--;
    if (n >= cap)
        return NULL;
    memcpy(buf, type, n);
    buf[n] = '\0';
    return buf;
}

/* Follows typedefs from type (at most 8 deep) to the first name that
 * find knows; NULL when none does. */
static const void *follow_typedefs(const struct ddi_model *m, const char *type,
                                   const void *(*find)(const struct ddi_model *, const char *))
{
    char buf[256];
    for (int depth = 0; depth < 8 && type; depth++) {
        const char *t = bare_type(buf, sizeof buf, type);
        const void *found = t ? find(m, t) : NULL;
        if (!t || found)
            return found;
        type = ddi_model_typedef_type(m, t);
    }
    return NULL;
}

static const void *top_record_named(const struct ddi_model *m, const char *name)
{
    const struct ddi_model_record *r = ddi_model_record(m, name);
    return r ? r : ddi_model_record_by_tag(m, name);
}

static const void *enum_named(const struct ddi_model *m, const char *name)
{
    return ddi_model_enum(m, name);
}

const struct ddi_model_record *ddi_model_type_record(const struct ddi_model *m, const char *type)
{
    return follow_typedefs(m, type, top_record_named);
}

const struct ddi_model_enum *ddi_model_type_enum(const struct ddi_model *m, const char *type)
{
    return follow_typedefs(m, type, enum_named);
}

const struct ddi_model_field *ddi_model_field_of(const struct ddi_model *m, xmlNodePtr node)
{
    const struct node_slot *s = node_get(m->nodes, node);
    return s && !s->is_record ? s->object : NULL;
}

const struct ddi_model_record *ddi_model_record_of(const struct ddi_model *m, xmlNodePtr node)
{
    const struct node_slot *s = node_get(m->nodes, node);
    return s && s->is_record ? s->object : NULL;
}

/* The longest proper prefix of path (cut at a dot) that is a field of top
 * with a named record type; *rest is what follows the dot. */
static const struct ddi_model_field *typed_prefix(const struct ddi_model_record *top, const char *path,
                                                  const char **rest)
{
    size_t len = strlen(path);
    char small[256], *buf = len < sizeof small ? small : malloc(len + 1);
    const struct ddi_model_field *found = NULL;
    if (!buf)
        return NULL;
    memcpy(buf, path, len + 1);
    for (char *dot = strrchr(buf, '.'); dot && !found; dot = strrchr(buf, '.')) {
        *dot = '\0';
        const struct ddi_model_field *pre = ddi_model_field(top, buf);
        if (pre && pre->type_record) {
            found = pre;
            *rest = path + (dot - buf) + 1;
        }
    }
    if (buf != small)
        free(buf);
    return found;
}

int ddi_model_resolve(const struct ddi_model *m, const struct ddi_model_record *top, const char *path,
                      struct ddi_model_chain *out)
{
    (void)m;
    memset(out, 0, sizeof *out);
    const char *rest = path;
    while (rest && top && out->depth < DDI_MODEL_MAX_CHAIN) {
        const char *next = NULL;
        const struct ddi_model_field *f = ddi_model_field(top, rest);
        if (!f)
            f = typed_prefix(top, rest, &next);
        if (!f)
            break;
        out->field[out->depth++] = f;
        if (!next)
            return 0;
        top = f->type_record;
        rest = next;
    }
    if (out->depth == DDI_MODEL_MAX_CHAIN)
        return 0; /* as deep as a chain goes: the rest is not followed */
    out->depth = 0;
    return -1;
}

const struct ddi_model_measure *ddi_model_measure_at(const struct ddi_model_measures *ms, int version)
{
    for (size_t i = 0; i < ms->len; i++)
        if (version < 0 ? ms->items[i].every_version : ddi_vset_has(ms->items[i].versions, version))
            return &ms->items[i];
    return NULL;
}

long ddi_model_offset(const struct ddi_model_field *f, int arch, int version)
{
    const struct ddi_model_measure *o =
        arch >= 0 && arch < DDI_ARCH_MAX ? ddi_model_measure_at(&f->offsets[arch], version) : NULL;
    return o ? o->value : -1;
}

struct ddi_type_fact ddi_model_fact(const struct ddi_model_field *f, int arch, int version)
{
    for (size_t i = 0; arch >= 0 && arch < DDI_ARCH_MAX && i < f->nfacts[arch]; i++)
        if (version < 0 || ddi_vset_has(f->facts[arch][i].versions, version))
            return f->facts[arch][i].fact;
    return f->base_fact;
}

const char *ddi_model_operand_named(const struct ddi_model_docs_operand *ops, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (same(ops[i].name, name))
            return ops[i].value;
    return NULL;
}

const char *ddi_model_docs_operand(const struct ddi_model_rule *r, const char *name)
{
    return ddi_model_operand_named(r->docs_operands, r->ndocs_operands, name);
}
