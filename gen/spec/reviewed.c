/* Reads spec/reviewed.xml (validated against the embedded reviewed.rng)
 * and applies it to the <merge> part the docs merge writes. */
#include "reviewed.h"

#include "overrides.h"
#include "schema.h"
#include "../model/specxml.h"

#include "../util/diag.h"
#include "../util/output.h"
#include "../util/strmap.h"

#include <stdlib.h>
#include <string.h>

/* A keep, drop or correct matches the extracted rule of its page, kind, record
 * and subject; when the page has several, the one whose line is nearest.
 * Lines only break ties: a page revision that shifts lines keeps the
 * entry applied (lint reports a sentence that moved or changed). */

const char *review_action_name(enum review_action a)
{
    switch (a) {
    case REVIEW_ADD: return "add";
    case REVIEW_KEEP: return "keep";
    case REVIEW_DROP: return "drop";
    case REVIEW_CORRECT: return "correct";
    case REVIEW_NO_RULE: return "no-rule";
    }
    return "?";
}

static const char *text_of(xmlNodePtr n)
{
    return n && n->children && n->children->content ? (const char *)n->children->content : "";
}

/* The <operand>s and <when>s of a rule body (<rule> of an add, <to>). */
static void read_body(struct reviewed *r, struct review *v, xmlNodePtr body)
{
    size_t nops = 0, nwhens = 0;
    for (xmlNodePtr c = sx_child(body, NULL); c; c = sx_next(c, NULL))
        nops += sx_is(c, "operand"), nwhens += sx_is(c, "when");
    struct review_operand *ops = arena_alloc(&r->a, (nops + 1) * sizeof *ops);
    struct review_when *whens = arena_alloc(&r->a, (nwhens + 1) * sizeof *whens);
    for (xmlNodePtr c = sx_child(body, NULL); c; c = sx_next(c, NULL)) {
        if (sx_is(c, "operand"))
            ops[v->noperands++] = (struct review_operand){sx_get(c, "name"), sx_get(c, "value")};
        else if (sx_is(c, "when"))
            whens[v->nwhens++] = (struct review_when){sx_get(c, "field"), sx_get(c, "is"), sx_get(c, "equals")};
    }
    v->operands = ops;
    v->whens = whens;
}

static enum review_action action_of(xmlNodePtr n)
{
    return sx_is(n, "add")       ? REVIEW_ADD
           : sx_is(n, "keep")    ? REVIEW_KEEP
           : sx_is(n, "drop")    ? REVIEW_DROP
           : sx_is(n, "correct") ? REVIEW_CORRECT
                                 : REVIEW_NO_RULE;
}

/* A kind outside gen/model/rule_kinds.h is an error of the file: no
 * lowering could ever read it. */
static int check_kind(const struct reviewed *r, unsigned line, const char *kind)
{
    if (!kind || ddi_rule_kind_find(kind) >= 0)
        return 0;
    ddigen_error(r->name, line, "unknown rule kind %s (expected one of gen/model/rule_kinds.h)", ddigen_quote(kind));
    return -1;
}

static int read_entry(struct reviewed *r, xmlNodePtr n)
{
    struct review *v = arena_alloc(&r->a, sizeof *v);
    v->action = action_of(n);
    v->line = (unsigned)xmlGetLineNo(n);
    v->page = sx_get(n, "page");
    v->page_line = (unsigned)sx_get_ulong(n, "line", 0);
    v->sentence = text_of(sx_child(n, "sentence"));
    v->reason = text_of(sx_child(n, "reason"));
    xmlNodePtr rule = sx_child(n, "rule");
    if (rule) {
        v->kind = sx_get(rule, "kind");
        v->record = sx_get(rule, "record");
        v->subject = sx_get(rule, "subject");
    }
    xmlNodePtr to = sx_child(n, "to");
    if (to) {
        v->to_kind = sx_get(to, "kind");
        v->to_subject = sx_get(to, "subject");
    }
    read_body(r, v, v->action == REVIEW_ADD ? rule : to);
    vec_push(&r->items, v);
    return check_kind(r, v->line, v->kind) | check_kind(r, v->line, v->to_kind);
}

int reviewed_load(struct reviewed *r, const char *path)
{
    memset(r, 0, sizeof *r);
    r->name = path;
    if (!(r->doc = overrides_read_valid(path, "reviewed.rng")))
        return -1;
    int rc = 0;
    for (xmlNodePtr n = sx_child(xmlDocGetRootElement(r->doc), NULL); n; n = sx_next(n, NULL))
        rc |= read_entry(r, n);
    return rc ? -1 : 0;
}

void reviewed_free(struct reviewed *r)
{
    xmlFreeDoc(r->doc);
    vec_free(&r->items);
    arena_free(&r->a);
    memset(r, 0, sizeof *r);
}

/* ---------- applying ---------- */

struct applier {
    struct reviewed *r;
    const struct ddi_model *m;
    xmlNodePtr merge;
    struct strmap pages;   /* source -> merge <page> */
    struct strmap claimed; /* merge <rule> already taken by an entry */
    struct strmap subject_of; /* docs rule ID -> subject as the page wrote it */
};

static void stale(struct review *v, const char *note)
{
    v->status = "stale";
    v->note = note;
}

static const char *subject_of_rule(struct applier *ap, xmlNodePtr rule)
{
    if (sx_get(rule, "field") && !sx_get(rule, "record"))
        return sx_get(rule, "field");
    return strmap_get(&ap->subject_of, sx_get(rule, "ref") ? sx_get(rule, "ref") : "");
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The extracted rule of the page a drop or correct names (see the note at
 * the top), or NULL. */
static xmlNodePtr find_extracted(struct applier *ap, xmlNodePtr page, const struct review *v)
{
    xmlNodePtr best = NULL;
    long best_d = 0;
    for (xmlNodePtr c = sx_child(page, "rule"); c; c = sx_next(c, "rule")) {
        if (!same(sx_get(c, "kind"), v->kind) || strmap_get(&ap->claimed, sx_get(c, "ref")) ||
            !same(sx_get(c, "provenance"), "extracted") || !same(subject_of_rule(ap, c), v->subject))
            continue;
        long d = labs((long)sx_get_ulong(c, "line", 0) - (long)v->page_line);
        if (!best || d < best_d)
            best = c, best_d = d;
    }
    return best;
}

/* Operands that name a field, as the merge resolves them (merge_docs.c). */
static int is_field_operand(const char *name)
{
    static const char *const names[] = {"ref", "field", "selects", "requires", "with", "word", "shared-with", NULL};
    for (const char *const *n = names; *n; n++)
        if (!strcmp(*n, name))
            return 1;
    return 0;
}

/* Kinds whose lowering reads their condition from `ref` operands: a field
 * that is set (gen/rules/kinds.c, lower_conditional). */
static int condition_is_ref(const char *kind)
{
    return !strcmp(kind, "null-when") || !strcmp(kind, "zero-when") || !strcmp(kind, "nonnull-iff");
}

/* field= (and field-id= when the field lies in the record itself) of a
 * designator from rec; 0, or -1 when it names no field. */
static int field_ref(struct applier *ap, xmlNodePtr n, const struct ddi_model_record *rec, const char *path)
{
    struct ddi_model_chain chain;
    if (ddi_model_resolve(ap->m, rec, path, &chain) != 0 || !chain.depth)
        return -1;
    sx_set(n, "field", path);
    if (chain.depth == 1 && chain.field[0]->id)
        sx_set_ulong(n, "field-id", chain.field[0]->id);
    return 0;
}

/* The resolved body of a rule (its field operands and conditions) into
 * the merge rule; NULL, or why the entry is stale. */
static const char *write_body(struct applier *ap, xmlNodePtr rule, const struct ddi_model_record *rec,
                              const struct review *v, const char *kind)
{
    for (size_t i = 0; i < v->noperands; i++) {
        const struct review_operand *o = &v->operands[i];
        if (!is_field_operand(o->name))
            continue;
        xmlNodePtr oe = sx_add(rule, "operand");
        sx_set(oe, "name", o->name);
        sx_set(oe, "value", o->value);
        if (field_ref(ap, oe, rec, o->value) != 0)
            return arena_printf(&ap->r->a, "%s has no field %s", rec->name, o->value);
    }
    for (size_t i = 0; i < v->nwhens; i++) {
        const struct review_when *w = &v->whens[i];
        int as_ref = w->is && !strcmp(w->is, "set") && condition_is_ref(kind);
        xmlNodePtr we = sx_add(rule, as_ref ? "operand" : "when");
        if (as_ref) {
            sx_set(we, "name", "ref");
            sx_set(we, "value", w->field);
        }
        if (field_ref(ap, we, rec, w->field) != 0)
            return arena_printf(&ap->r->a, "%s has no field %s", rec->name, w->field);
        if (as_ref)
            continue;
        sx_set(we, "is", w->is);
        sx_set(we, "equals", w->equals);
        const struct ddi_model_value *val = w->equals ? ddi_model_value(ap->m, w->equals) : NULL;
        if (w->equals && !val)
            return arena_printf(&ap->r->a, "no enumerator %s in the header", w->equals);
        if (val && val->id)
            sx_set_ulong(we, "value-id", val->id);
    }
    return NULL;
}

static void mark_reviewed(xmlNodePtr rule, const struct review *v)
{
    xmlSetProp(rule, BAD_CAST "provenance", BAD_CAST "reviewed");
    sx_set_after(rule, "review", review_action_name(v->action), "provenance");
    char line[24];
    snprintf(line, sizeof line, "%u", v->line);
    sx_set_after(rule, "review-line", line, "review");
}

/* An ID the page has not given: PAGE.subject:kind:reviewed, then -2, -3... */
static const char *added_id(struct applier *ap, xmlNodePtr page, const struct review *v)
{
    const char *base = arena_printf(&ap->r->a, "%s%s%s:%s:reviewed", sx_get(page, "name"), v->subject ? "." : "",
                                    v->subject ? v->subject : "", v->kind);
    const char *id = base;
    for (unsigned n = 2;; n++) {
        int taken = 0;
        for (xmlNodePtr c = sx_child(page, "rule"); c && !taken; c = sx_next(c, "rule"))
            taken = same(sx_get(c, "ref"), id);
        if (!taken)
            return id;
        id = arena_printf(&ap->r->a, "%s-%u", base, n);
    }
}

/* The rule element an add writes, after the page's last rule (rules come
 * after the matches in a merge page). */
static xmlNodePtr new_rule(xmlNodePtr page)
{
    xmlNodePtr last = NULL;
    for (xmlNodePtr c = sx_child(page, "rule"); c; c = sx_next(c, "rule"))
        last = c;
    xmlNodePtr n = xmlNewDocNode(page->doc, NULL, BAD_CAST "rule", NULL);
    return last ? xmlAddNextSibling(last, n) : xmlAddChild(page, n);
}

static void apply_add(struct applier *ap, struct review *v, xmlNodePtr page, const struct ddi_model_record *rec)
{
    if (v->subject && ddi_model_resolve(ap->m, rec, v->subject, &(struct ddi_model_chain){0}) != 0) {
        stale(v, arena_printf(&ap->r->a, "%s has no field %s", rec->name, v->subject));
        return;
    }
    xmlNodePtr rule = new_rule(page);
    v->rule = added_id(ap, page, v);
    sx_set(rule, "ref", v->rule);
    sx_set(rule, "kind", v->kind);
    sx_set_ulong(rule, "line", v->page_line);
    sx_set(rule, "provenance", "reviewed");
    mark_reviewed(rule, v);
    if (v->subject)
        field_ref(ap, rule, rec, v->subject);
    const char *why = write_body(ap, rule, rec, v, v->kind);
    if (why) {
        xmlUnlinkNode(rule);
        xmlFreeNode(rule);
        v->rule = NULL;
        stale(v, why);
    }
}

/* Replaces the extracted rule's kind, subject and body with the entry's. */
static void apply_correct(struct applier *ap, struct review *v, xmlNodePtr rule, const struct ddi_model_record *rec)
{
    const char *kind = v->to_kind ? v->to_kind : v->kind;
    const char *subject = v->to_subject ? v->to_subject : v->subject;
    xmlNodePtr copy = xmlCopyNode(rule, 2); /* attributes only: the body is replaced */
    xmlUnsetProp(copy, BAD_CAST "field");
    xmlUnsetProp(copy, BAD_CAST "field-id");
    xmlUnsetProp(copy, BAD_CAST "record");
    xmlUnsetProp(copy, BAD_CAST "resolved");
    xmlSetProp(copy, BAD_CAST "kind", BAD_CAST kind);
    const char *why = NULL;
    if (subject && field_ref(ap, copy, rec, subject) != 0)
        why = arena_printf(&ap->r->a, "%s has no field %s", rec->name, subject);
    if (!why)
        why = write_body(ap, copy, rec, v, kind);
    if (why) {
        xmlFreeNode(copy);
        stale(v, why);
        return;
    }
    mark_reviewed(copy, v);
    xmlReplaceNode(rule, copy);
    xmlFreeNode(rule);
}

static void apply_entry(struct applier *ap, struct review *v)
{
    v->status = "applied";
    xmlNodePtr page = strmap_get(&ap->pages, v->page);
    if (!page) {
        stale(v, "no such page among the docs");
        return;
    }
    if (v->action == REVIEW_NO_RULE)
        return;
    const struct ddi_model_record *rec = ddi_model_record(ap->m, v->record);
    if (!rec || !same(sx_get(page, "record"), v->record)) {
        stale(v, arena_printf(&ap->r->a, "the page documents %s, not %s",
                                  sx_get(page, "record") ? sx_get(page, "record") : "no record of the header",
                                  v->record));
        return;
    }
    if (v->action == REVIEW_ADD) {
        apply_add(ap, v, page, rec);
        return;
    }
    xmlNodePtr rule = find_extracted(ap, page, v);
    if (!rule) {
        stale(v, arena_printf(&ap->r->a, "no extracted %s rule on %s", v->kind,
                                  v->subject ? v->subject : "the record"));
        return;
    }
    v->rule = arena_strdup(&ap->r->a, sx_get(rule, "ref")); /* a correct frees the element */
    strmap_put(&ap->claimed, v->rule, rule);
    if (v->action == REVIEW_DROP || v->action == REVIEW_KEEP)
        mark_reviewed(rule, v);
    else
        apply_correct(ap, v, rule, rec);
}

static void write_review(struct applier *ap, const struct review *v)
{
    xmlNodePtr n = sx_add(ap->merge, "review");
    sx_set(n, "action", review_action_name(v->action));
    sx_set_ulong(n, "line", v->line);
    sx_set(n, "status", v->status);
    sx_set(n, "page", v->page);
    sx_set_ulong(n, "page-line", v->page_line);
    sx_set(n, "record", v->record);
    sx_set(n, "kind", v->kind);
    sx_set(n, "subject", v->subject);
    sx_set(n, "to-kind", v->to_kind);
    sx_set(n, "to-subject", v->to_subject);
    sx_set(n, "rule", v->rule);
    sx_set(n, "note", v->note);
    xmlNewTextChild(n, NULL, BAD_CAST "sentence", BAD_CAST v->sentence);
    for (size_t i = 0; i < v->noperands; i++) {
        xmlNodePtr o = sx_add(n, "operand");
        sx_set(o, "name", v->operands[i].name);
        sx_set(o, "value", v->operands[i].value);
    }
    for (size_t i = 0; i < v->nwhens; i++) {
        xmlNodePtr w = sx_add(n, "when");
        sx_set(w, "field", v->whens[i].field);
        sx_set(w, "is", v->whens[i].is);
        sx_set(w, "equals", v->whens[i].equals);
    }
    xmlNewTextChild(n, NULL, BAD_CAST "reason", BAD_CAST v->reason);
}

void reviewed_apply(struct reviewed *r, const struct ddi_model *m, xmlNodePtr merge, unsigned *applied,
                    unsigned *stale_count)
{
    struct applier ap = {.r = r, .m = m, .merge = merge};
    for (xmlNodePtr p = sx_child(merge, "page"); p; p = sx_next(p, "page"))
        if (sx_get(p, "source") && !strmap_get(&ap.pages, sx_get(p, "source")))
            strmap_put(&ap.pages, sx_get(p, "source"), p);
    for (size_t i = 0; i < m->ndocs_rules; i++)
        if (m->docs_rules[i].id && m->docs_rules[i].subject)
            strmap_put(&ap.subject_of, m->docs_rules[i].id, (void *)m->docs_rules[i].subject);
    sx_set(merge, "reviewed", r->name);
    for (size_t i = 0; i < r->items.len; i++)
        apply_entry(&ap, r->items.items[i]);
    for (size_t i = 0; i < r->items.len; i++) {
        const struct review *v = r->items.items[i];
        write_review(&ap, v);
        *(strcmp(v->status, "applied") ? stale_count : applied) += 1;
    }
    strmap_free(&ap.pages);
    strmap_free(&ap.claimed);
    strmap_free(&ap.subject_of);
}
