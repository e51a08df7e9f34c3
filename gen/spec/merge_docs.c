/* Reconciles the doc view with the header view of a spec and writes the
 * <merge> part: per page, how each documented member was matched to a
 * header field, and each rule with its subject and field operands resolved;
 * then the discriminators (enum field -> union member) and the overrides
 * with their status. lint.c turns this part into findings. */
#include "merge_docs.h"

#include "../model/model.h"
#include "../model/specxml.h"

#include "../util/diag.h"
#include "../util/similar.h"
#include "../util/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A documented member (field, enum value or parameter) of one page. */
struct dmember {
    xmlNodePtr node;
    const char *path; /* NULL for a description that lost its name */
    const char *array;
    const char *text;
    const char *candidate;
    unsigned line, ordinal;
    /* result */
    const struct ddi_model_field *field;
    const struct ddi_model_value *value;
    const char *how;
    const char *designator;
    int score;
};

struct merger {
    struct ddi_model *model; /* of the layout (the spec has no <merge> yet) */
    unsigned *documented;    /* per field number: doc members matched to it */
    struct arena a;
    struct overrides *ovr;
    struct spec_merge_stats *st;
    xmlNodePtr out;
    int errors;
};

/* ---------- small string helpers ---------- */

static const char *text_of(xmlNodePtr n)
{
    xmlNodePtr t = sx_child(n, "text");
    return t && t->children && t->children->content ? (const char *)t->children->content : "";
}

/* Lower-case letters and digits and dots only: "Reserved [5]" and
 * "reserved.[5]" compare equal after array suffixes are gone. */
static char *normalize(struct arena *a, const char *s)
{
    char *out = arena_alloc(a, strlen(s) + 1), *o = out;
    for (; *s; s++)
        if (isalnum((unsigned char)*s) || *s == '.')
            *o++ = (char)tolower((unsigned char)*s);
    *o = '\0';
    return out;
}

/* "Reserved[5]" / "Reserved.[8]" / "A[2].B" -> "Reserved" / "Reserved" / "A.B" */
static char *strip_arrays(struct arena *a, const char *s)
{
    char *out = arena_alloc(a, strlen(s) + 1), *o = out;
    for (; *s; s++) {
        if (*s == '[') {
            while (*s && *s != ']')
                s++;
            if (!*s)
                break;
            continue;
        }
        *o++ = *s;
    }
    *o = '\0';
    /* drop empty segments left by ".[8]" */
    size_t n = strlen(out);
    while (n && out[n - 1] == '.')
        out[--n] = '\0';
    for (char *p = out; (p = strstr(p, "..")) != NULL;)
        memmove(p, p + 1, strlen(p));
    return out;
}

/* Drops "(unnamed union)" / "(unnamed struct)" segments. */
static char *strip_anonymous(struct arena *a, const char *s)
{
    struct strbuf sb = {0};
    const char *p = s;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (strncmp(p, "(unnamed", 8) != 0) {
            if (sb.len)
                sb_append(&sb, ".");
            sb_appendn(&sb, p, len);
        }
        p += len;
        if (*p == '.')
            p++;
    }
    char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static const char *last_segment(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static char *parent_path(struct arena *a, const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? arena_strndup(a, path, (size_t)(dot - path)) : arena_strdup(a, "");
}

/* ---------- path resolution in a record ---------- */

struct resolved {
    const struct ddi_model_field *field;
    const char *how;
    const char *designator; /* from the page's record, when it is not the field's own path */
};

/* A C designator through named struct types: "Protection.NoAccess" where
 * Protection's type is a record of its own. */
static const struct ddi_model_field *resolve_through_types(struct merger *m, const struct ddi_model_record *top,
                                                           const char *path, int depth)
{
    const struct ddi_model_field *f = ddi_model_named_field(top, path);
    if (f || depth > 4)
        return f;
    for (const char *dot = strchr(path, '.'); dot; dot = strchr(dot + 1, '.')) {
        char *head = arena_strndup(&m->a, path, (size_t)(dot - path));
        const struct ddi_model_field *h = ddi_model_named_field(top, head);
        const struct ddi_model_record *t = h ? ddi_model_type_record(m->model, h->type) : NULL;
        if (t) {
            const struct ddi_model_field *inner = resolve_through_types(m, t, dot + 1, depth + 1);
            if (inner)
                return inner;
        }
    }
    return NULL;
}

/* The field whose path normalizes equal, or whose last segment is within a
 * small edit distance of the documented one under the same parent. */
static struct resolved resolve_fuzzy(struct merger *m, const struct ddi_model_record *top, const char *path)
{
    struct resolved r = {0};
    const char *want = normalize(&m->a, path);
    const char *want_parent = normalize(&m->a, parent_path(&m->a, path));
    const char *want_last = last_segment(path);
    const struct ddi_model_field *best = NULL;
    unsigned best_d = 99, ties = 0;
    for (size_t i = 0; i < top->nall; i++) {
        const struct ddi_model_field *f = top->all[i];
        if (!f->name || !*f->name)
            continue;
        if (!strcmp(normalize(&m->a, f->path), want)) {
            r.field = f;
            r.how = "normalized";
            return r;
        }
        if (strcmp(normalize(&m->a, parent_path(&m->a, f->path)), want_parent) != 0)
            continue;
        unsigned d = similar_distance(last_segment(f->path), want_last);
        if (d < best_d) {
            best = f;
            best_d = d;
            ties = 0;
        } else if (d == best_d) {
            ties++;
        }
    }
    size_t len = strlen(want_last);
    if (best && !ties && len >= 4 && best_d <= (len >= 8 ? 2u : 1u)) {
        r.field = best;
        r.how = "typo";
    }
    return r;
}

static struct resolved resolve_path(struct merger *m, const struct ddi_model_record *top, const char *path)
{
    struct resolved r = {0};
    if (!path || !*path)
        return r;
    if ((r.field = ddi_model_named_field(top, path))) {
        r.how = "exact";
        return r;
    }
    if ((r.field = ddi_model_field_spelled(top, path))) {
        r.how = "macro-name";
        return r;
    }
    if (strstr(path, "(unnamed")) {
        const struct ddi_model_record *nested =
            ddi_model_record_any(m->model, arena_printf(&m->a, "%s.%s", top->name, path));
        if (nested && nested->holder && nested->top == top) {
            r.field = nested->holder;
            r.how = "anonymous-member";
            return r;
        }
        const char *bare = strip_anonymous(&m->a, path);
        if ((r.field = ddi_model_named_field(top, bare))) {
            r.how = "anonymous-path";
            return r;
        }
    }
    const char *noarr = strip_arrays(&m->a, path);
    if (strcmp(noarr, path) != 0 && (r.field = ddi_model_named_field(top, noarr))) {
        r.how = "array-suffix";
        return r;
    }
    if ((r.field = resolve_through_types(m, top, noarr, 0))) {
        r.how = "through-type";
        r.designator = noarr;
        return r;
    }
    return resolve_fuzzy(m, top, noarr);
}

/* An operand that names a field: tried beside the subject first (sibling
 * flags, the members of the same sub-struct), then from the record root. */
static struct resolved resolve_operand(struct merger *m, const struct ddi_model_record *top, const char *subject,
                                       const char *name)
{
    struct resolved r = {0};
    char *scope = subject ? arena_strdup(&m->a, subject) : arena_strdup(&m->a, "");
    for (;;) {
        char *p = parent_path(&m->a, scope);
        const char *cand = *p ? arena_printf(&m->a, "%s.%s", p, name) : name;
        const struct ddi_model_field *f = ddi_model_named_field(top, cand);
        if (f) {
            r.field = f;
            r.how = "exact";
            return r;
        }
        if ((f = ddi_model_field_spelled(top, cand))) {
            r.field = f;
            r.how = "macro-name";
            return r;
        }
        if ((f = resolve_through_types(m, top, cand, 0))) {
            r.field = f;
            r.how = "through-type";
            r.designator = cand;
            return r;
        }
        if (!*p)
            break;
        scope = p;
    }
    r = resolve_fuzzy(m, top, name);
    return r;
}

/* ---------- output helpers ---------- */

/* The C designator of a field from its top-level record; an anonymous
 * member is named by its nested record ("A.(unnamed union)"). */
static const char *field_designator(const struct ddi_model_field *f)
{
    if (f->name && *f->name)
        return f->path;
    if (f->nested) {
        size_t n = strlen(f->owner->top->name);
        const char *name = f->nested->name;
        return !strncmp(name, f->owner->top->name, n) && name[n] == '.' ? name + n + 1 : name;
    }
    return "";
}

/* designator: how the page's record reaches the field (through a field of
 * a named struct type it differs from the field's own path), or NULL. */
static void set_field_ref(xmlNodePtr n, const struct ddi_model_field *f, const struct ddi_model_record *page_top,
                          const char *designator)
{
    sx_set(n, "field", designator ? designator : field_designator(f));
    if (f->owner->top != page_top)
        sx_set(n, "record", f->owner->top->name);
    if (f->id)
        sx_set_ulong(n, "field-id", f->id);
}

/* ---------- members ---------- */

static void collect_members(struct merger *m, xmlNodePtr parent, struct vec *out)
{
    for (xmlNodePtr n = sx_child(parent, NULL); n; n = sx_next(n, NULL)) {
        if (!sx_is(n, "field") && !sx_is(n, "value") && !sx_is(n, "param"))
            continue;
        struct dmember *d = arena_alloc(&m->a, sizeof *d);
        d->node = n;
        d->path = sx_get(n, "path");
        if (!d->path)
            d->path = sx_get(n, "name");
        if (sx_get(n, "heading") && !strcmp(sx_get(n, "heading"), "unnamed"))
            d->path = NULL;
        d->array = sx_get(n, "array");
        d->text = text_of(n);
        d->candidate = sx_get(n, "candidate");
        d->line = (unsigned)sx_get_ulong(n, "line", 0);
        d->ordinal = (unsigned)sx_get_ulong(n, "ordinal", 0);
        vec_push(out, d);
        collect_members(m, n, out);
    }
}

static struct override *field_match_override(struct merger *m, const char *record, const char *doc)
{
    if (!m->ovr)
        return NULL;
    for (size_t i = 0; i < m->ovr->items.len; i++) {
        struct override *o = m->ovr->items.items[i];
        if (o->kind == OVR_FIELD_MATCH && !strcmp(o->record, record) && !strcmp(o->doc, doc))
            return o;
    }
    return NULL;
}

/* Words of a member name: "pBankRangeTable" -> bank range table,
 * "NbOfBanks" -> number of banks. Returns how many of them the text has. */
static int words_in_text(const char *name, const char *text_lc, int *nwords)
{
    char word[64];
    int found = 0;
    *nwords = 0;
    const char *s = name;
    if (s[0] == 'p' && isupper((unsigned char)s[1]))
        s++;
    while (*s) {
        size_t n = 0;
        word[n++] = (char)tolower((unsigned char)*s++);
        while (*s && !isupper((unsigned char)*s) && *s != '_' && n < sizeof word - 1)
            word[n++] = (char)tolower((unsigned char)*s++);
        while (*s == '_')
            s++;
        word[n] = '\0';
        const char *w = !strcmp(word, "nb") || !strcmp(word, "num") ? "number" : word;
        if (strlen(w) < 3 || !strcmp(w, "of"))
            continue;
        (*nwords)++;
        if (strstr(text_lc, w))
            found++;
    }
    return found;
}

/* Evidence that an unnamed description is about member f (0 = none). */
static int content_score(struct merger *m, const struct dmember *d, const struct ddi_model_field *f)
{
    char *lc = arena_strdup(&m->a, d->text);
    for (char *p = lc; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    char *name_lc = arena_strdup(&m->a, f->name);
    for (char *p = name_lc; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    int score = 0;
    if (f->type && strlen(f->type) > 3 && strstr(d->text, f->type))
        score += 3; /* "A DXGK_SEGMENTFLAGS structure that ..." */
    for (const char *p = lc; (p = strstr(p, name_lc)) != NULL; p += strlen(name_lc)) {
        /* "... in the Flags member" refers to another member */
        if (!strncmp(p + strlen(name_lc), " member", 7))
            continue;
        score += 2;
        break;
    }
    int nwords, found = words_in_text(f->name, lc, &nwords);
    if (nwords && found == nwords)
        score += 2;
    else if (found)
        score += 1;
    if (d->candidate && !strcmp(d->candidate, f->name))
        score += 1;
    return score;
}

/* The C members of a record: fields reached through anonymous levels only. */
static int is_member_level(const struct ddi_model_field *f)
{
    if (!f->name || !*f->name)
        return 0;
    for (const struct ddi_model_record *r = f->owner; r->holder; r = r->holder->owner)
        if (!r->anonymous)
            return 0;
    return 1;
}

/* Unnamed descriptions in order against the header members nobody has
 * documented on this page: a monotone alignment that maximizes content
 * evidence (order decides where content is silent). */
static void match_unnamed(struct merger *m, const struct ddi_model_record *top, struct dmember **d, size_t nd)
{
    struct vec members = {0};
    for (size_t i = 0; i < top->nall; i++) {
        const struct ddi_model_field *f = top->all[i];
        if (is_member_level(f) && !m->documented[f->index])
            vec_push(&members, (void *)f);
    }
    size_t nm = members.len;
    enum { SKIP_DESC = -50 };
    int *dp = calloc((nd + 1) * (nm + 1), sizeof *dp);
    char *from = calloc((nd + 1) * (nm + 1), 1);
#define AT(i, j) ((i) * (nm + 1) + (j))
    for (size_t i = 1; i <= nd; i++) {
        dp[AT(i, 0)] = dp[AT(i - 1, 0)] + SKIP_DESC;
        from[AT(i, 0)] = 'd';
    }
    for (size_t j = 1; j <= nm; j++)
        from[AT(0, j)] = 'm';
    for (size_t i = 1; i <= nd; i++)
        for (size_t j = 1; j <= nm; j++) {
            int take = dp[AT(i - 1, j - 1)] + 10 + content_score(m, d[i - 1], members.items[j - 1]);
            int skip_member = dp[AT(i, j - 1)];
            int skip_desc = dp[AT(i - 1, j)] + SKIP_DESC;
            int best = take;
            char how = 't';
            if (skip_member > best) {
                best = skip_member;
                how = 'm';
            }
            if (skip_desc > best) {
                best = skip_desc;
                how = 'd';
            }
            dp[AT(i, j)] = best;
            from[AT(i, j)] = how;
        }
    for (size_t i = nd, j = nm; i > 0;) {
        char how = from[AT(i, j)];
        if (how == 't') {
            struct dmember *x = d[i - 1];
            x->field = members.items[j - 1];
            x->score = content_score(m, x, x->field);
            x->how = x->score > 0 ? "order+content" : "order";
            m->documented[x->field->index]++;
            i--;
            j--;
        } else if (how == 'm') {
            j--;
        } else {
            i--;
        }
    }
#undef AT
    free(dp);
    free(from);
    vec_free(&members);
}

/* Rules that say which bit a member is: used to find a field the doc
 * names differently (renamed by version). */
static const char *bit_rule_index(xmlNodePtr page, const char *subject)
{
    for (xmlNodePtr r = sx_child(sx_child(page, "rules"), "rule"); r; r = sx_next(r, "rule")) {
        if (!sx_get(r, "kind") || strcmp(sx_get(r, "kind"), "bit") != 0 || !sx_get(r, "subject") ||
            strcmp(sx_get(r, "subject"), subject) != 0)
            continue;
        for (xmlNodePtr o = sx_child(r, "operand"); o; o = sx_next(o, "operand"))
            if (!strcmp(sx_get(o, "name"), "index"))
                return sx_get(o, "value");
    }
    return NULL;
}

static void match_by_bit(struct merger *m, const struct ddi_model_record *top, xmlNodePtr page, struct dmember *d)
{
    const char *index = bit_rule_index(page, d->path);
    if (!index)
        return;
    long bit = strtol(index, NULL, 10);
    const struct ddi_model_field *only = NULL;
    unsigned n = 0;
    for (size_t i = 0; i < top->nall; i++) {
        const struct ddi_model_field *f = top->all[i];
        if (f->bits == 1 && ddi_model_first_offset(f) == bit && !m->documented[f->index]) {
            only = f;
            n++;
        }
    }
    if (n == 1) {
        d->field = only;
        d->how = only->versions_attr ? "renamed-by-version" : "bit-position";
    }
}

static void match_page_members(struct merger *m, xmlNodePtr page, const struct ddi_model_record *top, struct vec *dms)
{
    struct vec unnamed = {0};
    const char *page_name = sx_get(page, "name");
    for (size_t i = 0; i < dms->len; i++) {
        struct dmember *d = dms->items[i];
        if (!d->path) {
            vec_push(&unnamed, d);
            continue;
        }
        struct override *o = field_match_override(m, page_name, d->path);
        if (o) {
            const struct ddi_model_field *f = ddi_model_named_field(top, o->field);
            if (f) {
                d->field = f;
                d->how = "override";
                o->uses++;
            }
        }
        if (!d->field) {
            struct resolved r = resolve_path(m, top, d->path);
            d->field = r.field;
            d->how = r.how;
            d->designator = r.designator;
        }
        if (d->field)
            m->documented[d->field->index]++;
    }
    for (size_t i = 0; i < dms->len; i++) {
        struct dmember *d = dms->items[i];
        if (d->path && !d->field) {
            match_by_bit(m, top, page, d);
            if (d->field)
                m->documented[d->field->index]++;
        }
    }
    if (unnamed.len)
        match_unnamed(m, top, (struct dmember **)unnamed.items, unnamed.len);
    vec_free(&unnamed);
}

static void match_enum_members(struct merger *m, const struct ddi_model_enum *e, struct vec *dms)
{
    for (size_t i = 0; i < dms->len; i++) {
        struct dmember *d = dms->items[i];
        if (!d->path)
            continue;
        const char *name = strip_arrays(&m->a, d->path);
        for (size_t j = 0; j < e->nvalues && !d->value; j++) {
            const struct ddi_model_value *v = &e->values[j];
            if (!strcmp(v->name, name))
                d->value = v, d->how = "exact";
        }
        for (size_t j = 0; j < e->nvalues && !d->value; j++) {
            const struct ddi_model_value *v = &e->values[j];
            if (!strcmp(normalize(&m->a, v->name), normalize(&m->a, name)))
                d->value = v, d->how = "normalized";
        }
    }
}

/* ---------- rules ---------- */

static int is_field_operand(const char *kind, const char *name)
{
    static const char *const names[] = {"ref", "field", "selects", "requires", "with", "word", "shared-with", NULL};
    if (!strcmp(kind, "union-member"))
        return !strcmp(name, "member");
    for (const char *const *n = names; *n; n++)
        if (!strcmp(*n, name))
            return 1;
    return 0;
}

/* The union member a union-member rule names lives in the record the
 * discriminator enum selects in; without a record, search every union
 * whose name the page's record starts with. */
static const struct ddi_model_field *union_member_named(const struct ddi_model_record *r, const char *member)
{
    for (size_t j = 0; r && r->is_union && j < r->nfields; j++)
        if (r->fields[j]->name && !strcmp(r->fields[j]->name, member))
            return r->fields[j];
    return NULL;
}

static const struct ddi_model_field *find_union_member(struct merger *m, const char *member)
{
    /* every record in document order: each top-level one, then the ones its fields hold */
    for (size_t i = 0; i < m->model->nrecords; i++) {
        const struct ddi_model_record *top = m->model->records[i];
        const struct ddi_model_field *f = union_member_named(top, member);
        for (size_t k = 0; k < top->nall && !f; k++)
            f = union_member_named(top->all[k]->nested, member);
        if (f)
            return f;
    }
    return NULL;
}

/* A condition the docs stage read as data (operand cond: F, F==0,
 * F==ENUMERATOR) into a <when> of the merge rule, when F names a field of
 * the record as written (beside the subject, or from the record root; no
 * fuzzy match: a near name is another field, and the rule would hold under
 * the wrong condition). Unresolved, nothing is written and the rule stays
 * under its prose condition (not a check). */
static void write_condition(struct merger *m, xmlNodePtr r, xmlNodePtr rule, const struct ddi_model_record *top,
                            const char *subject_path)
{
    const char *cond = sx_operand_value(rule, "cond");
    if (!cond || !top)
        return;
    const char *eq = strstr(cond, "==");
    const char *name = eq ? arena_strndup(&m->a, cond, (size_t)(eq - cond)) : cond;
    struct resolved res = resolve_operand(m, top, subject_path, name);
    if (!res.field || (strcmp(res.how, "exact") && strcmp(res.how, "macro-name") && strcmp(res.how, "through-type")))
        return;
    xmlNodePtr w = sx_add(r, "when");
    set_field_ref(w, res.field, top, res.designator);
    if (!eq) {
        sx_set(w, "is", "set");
    } else if (!strcmp(eq + 2, "0")) {
        sx_set(w, "is", "clear");
    } else {
        sx_set(w, "equals", eq + 2);
        const struct ddi_model_value *v = ddi_model_value(m->model, eq + 2);
        if (v && v->id)
            sx_set_ulong(w, "value-id", v->id);
    }
}

static void write_rule(struct merger *m, xmlNodePtr pe, xmlNodePtr rule, const struct ddi_model_record *top,
                       const struct ddi_model_enum *en, struct strmap *by_subject)
{
    const char *kind = sx_get(rule, "kind"), *subject = sx_get(rule, "subject");
    xmlNodePtr r = sx_add(pe, "rule");
    sx_set(r, "ref", sx_get(rule, "id"));
    sx_set(r, "kind", kind);
    sx_set(r, "line", sx_get(rule, "line"));
    sx_set(r, "provenance", "extracted"); /* until a reviewed entry decides otherwise */
    m->st->rules++;
    struct dmember *d = subject && *subject ? strmap_get(by_subject, subject) : NULL;
    if (subject && *subject) {
        if (d && d->field && top) {
            set_field_ref(r, d->field, top, NULL);
            m->st->rules_attached++;
        } else if (d && d->value) {
            sx_set(r, "value", d->value->name);
            if (d->value->id)
                sx_set_ulong(r, "value-id", d->value->id);
            m->st->rules_attached++;
        } else if (!d && ddi_model_value(m->model, subject)) {
            /* a row of a value table on a struct page ("X | Supported in
             * Windows 7") is about that enum value, not the field */
            const struct ddi_model_value *v = ddi_model_value(m->model, subject);
            sx_set(r, "value", v->name);
            if (v->id)
                sx_set_ulong(r, "value-id", v->id);
            m->st->rules_attached++;
        } else {
            sx_set(r, "resolved", "no");
        }
    } else if (top || en) {
        m->st->rules_attached++; /* about the page's record or enum itself */
    }
    const char *subject_path = d && d->field ? d->field->path : subject;
    for (xmlNodePtr o = sx_child(rule, "operand"); o; o = sx_next(o, "operand")) {
        const char *name = sx_get(o, "name"), *value = sx_get(o, "value");
        int field_op = is_field_operand(kind, name);
        int value_op = !strcmp(kind, "union-member") && !strcmp(name, "value");
        int cap_op = !strcmp(kind, "requires-cap") && !strcmp(name, "cap");
        if (!field_op && !value_op && !cap_op)
            continue;
        m->st->operands++;
        xmlNodePtr oe = sx_add(r, "operand");
        sx_set(oe, "name", name);
        sx_set(oe, "value", value);
        struct resolved res = {0};
        if (value_op) {
            const struct ddi_model_value *v = ddi_model_value(m->model, value);
            if (v) {
                sx_set(oe, "enum", v->owner->name);
                if (v->id)
                    sx_set_ulong(oe, "value-id", v->id);
                m->st->operands_resolved++;
            } else {
                sx_set(oe, "resolved", "no");
            }
            continue;
        }
        if (cap_op) {
            const struct ddi_model_record *in = ddi_model_record_any(m->model, sx_operand_value(rule, "in"));
            if (in)
                res = resolve_operand(m, in, NULL, value);
            if (res.field)
                set_field_ref(oe, res.field, NULL, res.designator);
        } else if (!strcmp(kind, "union-member") && en) {
            const struct ddi_model_field *f = find_union_member(m, value);
            if (f) {
                res.field = f;
                res.how = "exact";
                set_field_ref(oe, f, NULL, NULL);
            }
        } else if (top) {
            res = resolve_operand(m, top, subject_path, value);
            if (res.field)
                set_field_ref(oe, res.field, top, res.designator);
        }
        if (res.field) {
            if (strcmp(res.how, "exact") != 0)
                sx_set(oe, "how", res.how);
            m->st->operands_resolved++;
        } else {
            sx_set(oe, "resolved", "no");
        }
    }
    write_condition(m, r, rule, top, subject_path);
}

/* ---------- pages ---------- */

static void write_match(struct merger *m, xmlNodePtr pe, const struct dmember *d, const struct ddi_model_record *top)
{
    xmlNodePtr n = sx_add(pe, "match");
    sx_set_ulong(n, "line", d->line);
    if (d->path)
        sx_set(n, "doc", d->path);
    else
        sx_set_ulong(n, "ordinal", d->ordinal);
    sx_set(n, "how", d->how ? d->how : "none");
    if (d->field && top)
        set_field_ref(n, d->field, top, d->designator);
    if (d->value) {
        sx_set(n, "value", d->value->name);
        if (d->value->id)
            sx_set_ulong(n, "value-id", d->value->id);
    }
    if (d->field && !d->path)
        sx_set_ulong(n, "score", (unsigned long)d->score);
    m->st->members++;
    if (d->field || d->value)
        m->st->members_matched++;
    if (!d->path) {
        m->st->unnamed++;
        if (d->field)
            m->st->unnamed_matched++;
    }
}

static void merge_page(struct merger *m, xmlNodePtr page)
{
    const char *name = sx_get(page, "name"), *kind = sx_get(page, "kind");
    xmlNodePtr pe = sx_add(m->out, "page");
    sx_set(pe, "source", sx_get(page, "source"));
    sx_set(pe, "name", name);
    m->st->pages++;
    const struct ddi_model_record *top = NULL;
    const struct ddi_model_enum *en = NULL;
    const struct ddi_model_functype *fn = NULL;
    if (kind && !strcmp(kind, "enum"))
        en = ddi_model_enum(m->model, name);
    else if (kind && (!strcmp(kind, "callback") || !strcmp(kind, "function")))
        fn = ddi_model_functype(m->model, name);
    else {
        top = ddi_model_record_any(m->model, name);
        if (top && top->top != top)
            top = NULL;
    }
    if (top) {
        sx_set(pe, "record", top->name);
        if (top->id)
            sx_set_ulong(pe, "record-id", top->id);
    } else if (en) {
        sx_set(pe, "enum", en->name);
        if (en->id)
            sx_set_ulong(pe, "enum-id", en->id);
    } else if (fn) {
        sx_set(pe, "function-type", fn->name);
    }
    if (top || en || fn)
        m->st->pages_matched++;
    struct vec dms = {0};
    collect_members(m, sx_child(page, "members"), &dms);
    if (top)
        match_page_members(m, page, top, &dms);
    else if (en)
        match_enum_members(m, en, &dms);
    else if (fn)
        for (size_t i = 0; i < dms.len; i++) {
            struct dmember *d = dms.items[i];
            for (size_t k = 0; k < fn->nparams && d->path; k++)
                if (!strcmp(fn->params[k].name, d->path))
                    d->how = "exact";
        }
    struct strmap by_subject = {0};
    for (size_t i = 0; i < dms.len; i++) {
        struct dmember *d = dms.items[i];
        if (top || en)
            write_match(m, pe, d, top);
        const char *key = d->path ? d->path : arena_printf(&m->a, "#%u", d->ordinal);
        if (!strmap_get(&by_subject, key))
            strmap_put(&by_subject, key, d);
    }
    for (xmlNodePtr r = sx_child(sx_child(page, "rules"), "rule"); r; r = sx_next(r, "rule"))
        write_rule(m, pe, r, top, en, &by_subject);
    strmap_free(&by_subject);
    vec_free(&dms);
}

/* ---------- discriminators ---------- */

/* "DXGK_OPERATION_VIRTUAL_TRANSFER" minus the enum's common prefix, as
 * lower-case words sorted: "transfer virtual". */
static char *sorted_words(struct arena *a, const char *s, int from_camel)
{
    char words[16][48];
    int n = 0;
    while (*s && n < 16) {
        size_t k = 0;
        if (from_camel) {
            words[n][k++] = (char)tolower((unsigned char)*s++);
            while (*s && !isupper((unsigned char)*s) && *s != '_' && k < 47)
                words[n][k++] = (char)tolower((unsigned char)*s++);
        } else {
            while (*s && *s != '_' && k < 47)
                words[n][k++] = (char)tolower((unsigned char)*s++);
        }
        while (*s == '_')
            s++;
        words[n][k] = '\0';
        if (k)
            n++;
    }
    qsort(words, (size_t)n, sizeof words[0], (int (*)(const void *, const void *))strcmp);
    struct strbuf sb = {0};
    for (int i = 0; i < n; i++) {
        if (i)
            sb_append(&sb, " ");
        sb_append(&sb, words[i]);
    }
    char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static size_t common_prefix(const struct ddi_model_enum *e)
{
    if (e->nvalues < 2)
        return 0;
    const char *first = e->values[0].name;
    size_t n = strlen(first);
    for (size_t i = 1; i < e->nvalues; i++) {
        const char *v = e->values[i].name;
        size_t k = 0;
        while (k < n && first[k] == v[k])
            k++;
        n = k;
    }
    while (n && first[n - 1] != '_')
        n--;
    return n;
}

/* CamelCase of the words in order: MAP_APERTURE_SEGMENT2 -> MapApertureSegment2 */
static char *camel(struct arena *a, const char *s)
{
    char *out = arena_alloc(a, strlen(s) + 1), *o = out;
    int up = 1;
    for (; *s; s++) {
        if (*s == '_') {
            up = 1;
            continue;
        }
        *o++ = up ? (char)toupper((unsigned char)*s) : (char)tolower((unsigned char)*s);
        up = 0;
    }
    *o = '\0';
    return out;
}

struct case_map {
    const struct ddi_model_value *value;
    const struct ddi_model_field *member;
    const char *how;
    struct override *by;
};

static const struct ddi_model_field *derive_member(struct merger *m, const struct ddi_model_record *u,
                                                   const char *value_tail, const char **how)
{
    const char *want = camel(&m->a, value_tail);
    const char *want_words = sorted_words(&m->a, value_tail, 0);
    for (size_t j = 0; j < u->nfields; j++) {
        const struct ddi_model_field *f = u->fields[j];
        if (f->name && !strcasecmp(f->name, want)) {
            *how = "name";
            return f;
        }
    }
    for (size_t j = 0; j < u->nfields; j++) {
        const struct ddi_model_field *f = u->fields[j];
        if (f->name && *f->name && !strcmp(sorted_words(&m->a, f->name, 1), want_words)) {
            *how = "name-reordered";
            return f;
        }
    }
    return NULL;
}

static struct override *union_override(struct merger *m, const struct ddi_model_enum *e,
                                       const struct ddi_model_value *v, const struct ddi_model_record *top)
{
    if (!m->ovr)
        return NULL;
    for (size_t i = 0; i < m->ovr->items.len; i++) {
        struct override *o = m->ovr->items.items[i];
        if (o->kind == OVR_UNION_MEMBER && !strcmp(o->enum_name, e->name) && !strcmp(o->value, v->name) &&
            !strcmp(o->record, top->name))
            return o;
    }
    return NULL;
}

static void try_discriminator(struct merger *m, const struct ddi_model_record *top,
                              const struct ddi_model_field *selector, const struct ddi_model_enum *e,
                              const struct ddi_model_record *u)
{
    size_t prefix = common_prefix(e), matched = 0;
    struct case_map *cases = calloc(e->nvalues ? e->nvalues : 1, sizeof *cases);
    for (size_t i = 0; i < e->nvalues; i++) {
        const struct ddi_model_value *v = &e->values[i];
        cases[i].value = v;
        cases[i].member = derive_member(m, u, v->name + prefix, &cases[i].how);
        if (cases[i].member)
            matched++;
    }
    if (matched < 2 || matched * 2 < e->nvalues) {
        free(cases);
        return;
    }
    for (size_t i = 0; i < e->nvalues; i++) {
        struct override *o = union_override(m, e, cases[i].value, top);
        if (!o)
            continue;
        const struct ddi_model_field *f = NULL;
        for (size_t j = 0; j < u->nfields && !f; j++) {
            const struct ddi_model_field *x = u->fields[j];
            if (x->name && !strcmp(x->name, o->member))
                f = x;
        }
        o->uses++;
        if (!f) {
            o->status = "stale";
            o->note = arena_printf(&m->a, "the union of %s has no member %s", top->name, o->member);
        } else if (cases[i].member == f) {
            o->status = "redundant";
            o->note = arena_printf(&m->a, "%s is derived from the name %s without the override", o->member,
                                   cases[i].value->name);
        } else {
            o->status = "applied";
            cases[i].member = f;
            cases[i].how = "override";
            cases[i].by = o;
        }
    }
    xmlNodePtr d = sx_add(m->out, "discriminator");
    sx_set(d, "record", top->name);
    sx_set(d, "selector", selector->path);
    if (selector->id)
        sx_set_ulong(d, "selector-id", selector->id);
    sx_set(d, "enum", e->name);
    sx_set(d, "union", u->name);
    m->st->discriminators++;
    for (size_t i = 0; i < e->nvalues; i++) {
        xmlNodePtr c = sx_add(d, "case");
        sx_set(c, "value", cases[i].value->name);
        sx_set(c, "number", arena_printf(&m->a, "%lld", cases[i].value->value));
        if (cases[i].value->id)
            sx_set_ulong(c, "value-id", cases[i].value->id);
        sx_set(c, "versions", cases[i].value->versions_attr);
        m->st->cases++;
        if (cases[i].member) {
            sx_set(c, "member", cases[i].member->path);
            if (cases[i].member->id)
                sx_set_ulong(c, "field-id", cases[i].member->id);
            sx_set(c, "how", cases[i].how);
            if (cases[i].by)
                sx_set_ulong(c, "override-line", cases[i].by->line);
            m->st->cases_mapped++;
        } else {
            sx_set(c, "how", "none");
        }
    }
    for (size_t j = 0; j < u->nfields; j++) {
        const struct ddi_model_field *f = u->fields[j];
        int used = 0;
        for (size_t i = 0; i < e->nvalues; i++)
            used |= cases[i].member == f;
        if (!used && f->name && *f->name) {
            xmlNodePtr n = sx_add(d, "unselected");
            sx_set(n, "member", f->path);
            if (f->id)
                sx_set_ulong(n, "field-id", f->id);
        }
    }
    free(cases);
}

static void find_discriminators(struct merger *m)
{
    for (size_t i = 0; i < m->model->nrecords; i++) {
        const struct ddi_model_record *top = m->model->records[i];
        for (size_t j = 0; j < top->nfields; j++) {
            const struct ddi_model_field *sel = top->fields[j];
            const struct ddi_model_enum *e = sel->name && *sel->name ? ddi_model_type_enum(m->model, sel->type) : NULL;
            if (!e || e->nvalues < 2)
                continue;
            /* the unions nested in this record (held by one of its fields) */
            for (size_t k = 0; k < top->nall; k++) {
                const struct ddi_model_record *u = top->all[k]->nested;
                if (u && u->kind && !strcmp(u->kind, "union"))
                    try_discriminator(m, top, sel, e, u);
            }
        }
    }
}

/* ---------- overrides ---------- */

static void check_override(struct merger *m, struct override *o, const char *ovr_name)
{
    const struct ddi_model_record *rec = ddi_model_record_any(m->model, o->record);
    if (!rec) {
        ddigen_error(ovr_name, o->line, "%s override names nothing: no record %s in the header",
                     override_kind_name(o->kind), o->record);
        m->errors++;
        o->status = "unknown";
        return;
    }
    if (o->kind == OVR_UNION_MEMBER) {
        const struct ddi_model_enum *e = ddi_model_enum(m->model, o->enum_name);
        if (!e) {
            ddigen_error(ovr_name, o->line, "union-member override names nothing: no enum %s in the header",
                         o->enum_name);
            m->errors++;
            o->status = "unknown";
            return;
        }
        if (o->status)
            return;
        int has_value = 0;
        for (size_t i = 0; i < e->nvalues; i++)
            has_value |= !strcmp(e->values[i].name, o->value);
        o->status = "stale";
        o->note = has_value ? arena_printf(&m->a, "no union of %s is selected by %s", o->record, o->enum_name)
                            : arena_printf(&m->a, "%s has no value %s", o->enum_name, o->value);
        return;
    }
    const struct ddi_model_field *f = ddi_model_named_field(rec, o->field);
    if (!f) {
        o->status = "stale";
        o->note = arena_printf(&m->a, "%s has no field %s", o->record, o->field);
        return;
    }
    if (o->kind == OVR_WRITES) {
        o->status = "applied";
        return;
    }
    if (ddi_model_named_field(rec, o->doc)) {
        o->status = "redundant";
        o->note = arena_printf(&m->a, "%s has a field %s itself", o->record, o->doc);
    } else if (!o->uses) {
        o->status = "stale";
        o->note = arena_printf(&m->a, "no page of %s documents %s", o->record, o->doc);
    } else {
        o->status = "applied";
    }
}

static void write_overrides(struct merger *m)
{
    if (!m->ovr)
        return;
    for (size_t i = 0; i < m->ovr->items.len; i++) {
        struct override *o = m->ovr->items.items[i];
        check_override(m, o, m->ovr->name);
        xmlNodePtr n = sx_add(m->out, "override");
        sx_set(n, "kind", override_kind_name(o->kind));
        sx_set_ulong(n, "line", o->line);
        sx_set(n, "status", o->status);
        sx_set(n, "record", o->record);
        sx_set(n, "enum", o->enum_name);
        sx_set(n, "value", o->value);
        sx_set(n, "member", o->member);
        sx_set(n, "doc", o->doc);
        sx_set(n, "field", o->field);
        if (o->kind == OVR_WRITES && !strcmp(o->status, "applied")) {
            const struct ddi_model_field *f =
                ddi_model_named_field(ddi_model_record_any(m->model, o->record), o->field);
            if (f && f->id)
                sx_set_ulong(n, "field-id", f->id);
        }
        sx_set(n, "note", o->note);
        xmlNewTextChild(n, NULL, BAD_CAST "reason", BAD_CAST o->reason);
        if (!strcmp(o->status, "applied"))
            m->st->overrides_applied++;
        else if (!strcmp(o->status, "unknown"))
            m->st->overrides_unknown++;
        else
            m->st->overrides_stale++;
    }
}

int spec_merge(xmlDocPtr spec, struct overrides *ovr, struct reviewed *rev, struct spec_merge_stats *st)
{
    struct spec_merge_stats local = {0};
    struct merger m = {.ovr = ovr, .st = st ? st : &local};
    *m.st = (struct spec_merge_stats){0};
    xmlNodePtr root = xmlDocGetRootElement(spec);
    xmlNodePtr old = sx_child(root, "merge");
    if (old) { /* before the model is loaded: it would join rules to it */
        xmlUnlinkNode(old);
        xmlFreeNode(old);
    }
    m.model = ddi_model_load(spec);
    m.documented = m.model ? calloc(m.model->nfields + 1, sizeof *m.documented) : NULL;
    if (!m.documented) {
        ddigen_error(NULL, 0, "out of memory");
        ddi_model_free(m.model);
        return -1;
    }
    m.out = xmlNewNode(NULL, BAD_CAST "merge");
    static const char *const before[] = {"layout", "docs", "retired-ids", NULL};
    sx_insert_part(root, m.out, before);
    if (ovr)
        sx_set(m.out, "overrides", ovr->name);
    for (xmlNodePtr p = sx_child(sx_part(spec, "docs"), "page"); p; p = sx_next(p, "page"))
        merge_page(&m, p);
    find_discriminators(&m);
    write_overrides(&m);
    if (rev)
        reviewed_apply(rev, m.model, m.out, &m.st->reviewed_applied, &m.st->reviewed_stale);
    free(m.documented);
    ddi_model_free(m.model);
    arena_free(&m.a);
    return m.errors ? -1 : 0;
}
