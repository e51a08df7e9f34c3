/* Findings from a merged spec. Everything is read from the spec itself
 * (<layout>, <docs>, <merge>), so `ddigen lint SPEC.xml` on a committed
 * spec gives the same findings as the run that wrote it. */
#include "lint.h"
#include "lint_newer.h"

#include "../model/model.h"
#include "../model/specxml.h"

#include "../util/diag.h"
#include "../util/hash.h"
#include "../util/json.h"
#include "../util/output.h"
#include "../util/sarif.h"
#include "../util/strbuf.h"
#include "../util/wdk_layout.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    K_PAGE_UNMATCHED,
    K_DOC_FIELD_MISSING,
    K_DOC_FIELD_NEWER,
    K_FIELD_UNDOCUMENTED,
    K_BIT_MISMATCH,
    K_BIT_SHARED_BY_VERSION,
    K_BIT_CONFLICT,
    K_AVAILABILITY,
    K_SYNTAX,
    K_DIRECTION_IN_WRITTEN,
    K_UNION_MEMBER_MISMATCH,
    K_UNION_MEMBER_UNMAPPED,
    K_OPERAND_UNRESOLVED,
    K_OVERRIDE_STALE,
    K_REVIEW_STALE,
    K_REVIEW_MOVED,
    K_REVIEW_CHANGED,
    K_REVIEW_VANISHED,
    K_MODAL_UNREVIEWED,
    K_COUNT
};

const struct lint_kind lint_kinds[] = {
    {"page-unmatched", "PageUnmatched", LINT_WARNING,
     "A reference page names a structure or enum that the headers do not declare."},
    {"doc-field-missing", "DocFieldMissing", LINT_ERROR,
     "A documented member is not in the header in any DDI version, and nothing on the page dates it after the kit."},
    {"doc-field-newer", "DocFieldNewer", LINT_NOTE,
     "A documented member the kit lacks because the page documents a later release (its availability text, its "
     "number after the kit's last value, or its place after the kit's last member)."},
    {"field-undocumented", "FieldUndocumented", LINT_WARNING,
     "A header field of a documented structure has no documentation."},
    {"bit-mismatch", "BitMismatch", LINT_ERROR,
     "The documented bit position of a flag differs from the header's bit-field."},
    {"bit-shared-by-version", "BitSharedByVersion", LINT_NOTE,
     "Two documented flags claim the same bit; the header makes them alternatives by DDI version."},
    {"bit-conflict", "BitConflict", LINT_ERROR,
     "Two documented flags claim the same bit but the header does not make them alternatives."},
    {"availability-mismatch", "AvailabilityMismatch", LINT_WARNING,
     "The documented availability disagrees with the header's version conditionals."},
    {"syntax-mismatch", "SyntaxMismatch", LINT_WARNING,
     "The page's syntax block disagrees with its field list or with the header."},
    {"direction-in-written", "DirectionInWritten", LINT_WARNING,
     "A member documented [in] is one the DDI writes."},
    {"union-member-mismatch", "UnionMemberMismatch", LINT_WARNING,
     "The page says an enum value selects a different union member than the spec's discriminator."},
    {"union-member-unmapped", "UnionMemberUnmapped", LINT_NOTE,
     "An enum value of a discriminator selects no union member."},
    {"operand-unresolved", "OperandUnresolved", LINT_NOTE,
     "A rule names a field that could not be found in the header."},
    {"override-stale", "OverrideStale", LINT_WARNING,
     "An entry of spec/overrides.xml no longer applies (or is no longer needed)."},
    {"reviewed-stale", "ReviewedStale", LINT_WARNING,
     "An entry of spec/reviewed.xml names a page, record, field or extracted rule that is not there."},
    {"reviewed-sentence-moved", "ReviewedSentenceMoved", LINT_NOTE,
     "The sentence of a reviewed entry is on its page, at another line."},
    {"reviewed-sentence-changed", "ReviewedSentenceChanged", LINT_WARNING,
     "The sentence of a reviewed entry reads differently on its page now: review the entry again."},
    {"reviewed-sentence-vanished", "ReviewedSentenceVanished", LINT_WARNING,
     "The sentence of a reviewed entry is no longer on its page."},
    {"modal-unreviewed", "ModalUnreviewed", LINT_WARNING,
     "A modal sentence (must, should, cannot...) on a reviewed page that no extracted rule or reviewed entry covers."},
};
const unsigned lint_kind_count = K_COUNT;

struct linter {
    const struct ddi_model *m;
    const struct lint_options *opt;
    struct lint_result *out;
    struct strmap doc_pages;  /* source -> docs <page> */
    /* Per field number: documented on some page. Set on the first field of
     * a record with the field's ID (as field_by_record_id finds it), which
     * stands for every field with that ID. */
    unsigned char *documented;
    struct strmap seen;       /* fingerprints already reported */
    /* Lookups a page makes once per rule or field, indexed once per run: a
     * scan per lookup made lint quadratic in a page's fields (a page of
     * 12,500 members took 28 s). Keys are made by index_key. */
    struct strmap field_by_record_id; /* top record, id -> first field of r->all */
    struct strmap rule_by_page_id;    /* docs <page>, rule id -> first <rule> */
    struct strmap member_by_page_line; /* docs <page>, line -> first member in document order */
    struct strmap header_uris;         /* header name -> its path in the kit */
};

/* A key for an item of a container: the container by its address (it lives
 * as long as the run), the item by its name or number. */
static const char *index_key(struct linter *l, const void *container, const char *item)
{
    return arena_printf(&l->out->a, "%p\037%s", container, item);
}

/* A page's path relative to the docs root: the recorded source
 * (ddi-docs/d3dkmddi/x.md) without its first folder when the root is that
 * folder itself (its last name is ddi-docs), else as recorded (the root is
 * the parent, or not given). */
static const char *doc_uri(struct linter *l, const char *source)
{
    const char *root = l->opt ? l->opt->docs_root : NULL;
    if (!source || !root)
        return source;
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--;
    const char *base = root + n;
    while (base > root && base[-1] != '/')
        base--;
    size_t blen = (size_t)(root + n - base), first = strcspn(source, "/");
    return first == blen && source[first] == '/' && !strncmp(source, base, blen) ? source + first + 1 : source;
}

static const char *doc_path(struct linter *l, const char *source)
{
    if (!source)
        return NULL;
    return l->opt && l->opt->docs_root ? arena_printf(&l->out->a, "%s/%s", l->opt->docs_root, doc_uri(l, source))
                                       : source;
}

/* A header's path relative to the kit root: the include folder of the kit
 * that has it (shared/d3dkmddi.h); found once per name. Files the spec
 * names relative to something else (spec/overrides.xml) stay as they are. */
static const char *header_uri(struct linter *l, const char *file)
{
    const char *root = l->opt ? l->opt->headers_root : NULL;
    if (!file || !root || strchr(file, '/'))
        return file;
    const char *found = strmap_get(&l->header_uris, file);
    if (!found) {
        found = wdk_locate(&l->out->a, root, file);
        strmap_put(&l->header_uris, file, (void *)(found ? found : file));
    }
    return found ? found : file;
}

static const char *header_path(struct linter *l, const char *file)
{
    if (!file)
        return NULL;
    return l->opt && l->opt->headers_root && !strchr(file, '/')
               ? arena_printf(&l->out->a, "%s/%s", l->opt->headers_root, header_uri(l, file))
               : file;
}

/* identity: what the finding is about, without line numbers. */
static struct lint_finding *add(struct linter *l, int kind, const char *identity, const char *doc_source,
                                unsigned doc_line, const char *hfile, unsigned hline, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

static struct lint_finding *add(struct linter *l, int kind, const char *identity, const char *doc_source,
                                unsigned doc_line, const char *hfile, unsigned hline, const char *fmt, ...)
{
    const char *fp_text = arena_printf(&l->out->a, "%s|%s|%s", lint_kinds[kind].id, doc_source ? doc_source : "",
                                       identity);
    if (strmap_get(&l->seen, fp_text))
        return NULL;
    strmap_put(&l->seen, fp_text, (void *)fp_text);
    struct lint_finding *f = arena_alloc(&l->out->a, sizeof *f);
    va_list ap;
    va_start(ap, fmt);
    struct strbuf sb = {0};
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sb_append(&sb, buf);
    f->message = arena_strdup(&l->out->a, sb_str(&sb));
    sb_free(&sb);
    f->kind = &lint_kinds[kind];
    f->severity = lint_kinds[kind].severity;
    f->doc_file = doc_path(l, doc_source);
    f->doc_uri = doc_uri(l, doc_source);
    f->doc_line = doc_line;
    f->header_file = header_path(l, hfile);
    f->header_uri = header_uri(l, hfile);
    f->header_line = hline;
    f->fingerprint = arena_printf(&l->out->a, "%016llx", (unsigned long long)fnv1a64(fp_text));
    vec_push(&l->out->findings, f);
    return f;
}

/* ---------- lookups ---------- */

static const struct ddi_model_field *field_by_id(struct linter *l, const char *record, const char *id)
{
    const struct ddi_model_record *r = ddi_model_record_any(l->m, record);
    if (!r || !id)
        return NULL;
    char num[24];
    snprintf(num, sizeof num, "%lu", strtoul(id, NULL, 10));
    return strmap_get(&l->field_by_record_id, index_key(l, r, num));
}

/* The field a merge element (match, rule, operand) refers to. */
static const struct ddi_model_field *ref_field(struct linter *l, xmlNodePtr n, const char *page_record)
{
    const char *record = sx_get(n, "record") ? sx_get(n, "record") : page_record;
    return field_by_id(l, record, sx_get(n, "field-id"));
}

static xmlNodePtr docs_rule(struct linter *l, xmlNodePtr page, const char *id)
{
    return page && id ? strmap_get(&l->rule_by_page_id, index_key(l, page, id)) : NULL;
}

/* The docs member element on a page with this line (members are unique
 * per line). */
static xmlNodePtr find_member_by_line(struct linter *l, xmlNodePtr page, unsigned line)
{
    char num[16];
    snprintf(num, sizeof num, "%u", line);
    return page ? strmap_get(&l->member_by_page_line, index_key(l, page, num)) : NULL;
}

/* Indexes the members under parent, in document order (the first of a
 * line wins, as a scan would find it). Members nest as deep as the docs
 * reader makes them. */
static void index_members(struct linter *l, xmlNodePtr page, xmlNodePtr parent)
{
    for (xmlNodePtr n = sx_child(parent, NULL); n; n = sx_next(n, NULL)) {
        if (!sx_is(n, "field") && !sx_is(n, "value") && !sx_is(n, "param"))
            continue;
        char num[24];
        snprintf(num, sizeof num, "%lu", sx_get_ulong(n, "line", 0));
        const char *key = index_key(l, page, num);
        if (!strmap_get(&l->member_by_page_line, key))
            strmap_put(&l->member_by_page_line, key, n);
        index_members(l, page, n);
    }
}

static void index_lookups(struct linter *l, xmlNodePtr docs)
{
    for (size_t i = 0; i < l->m->nrecords; i++) {
        const struct ddi_model_record *r = l->m->records[i];
        for (size_t k = 0; k < r->nall; k++) {
            const struct ddi_model_field *f = r->all[k];
            char num[24];
            snprintf(num, sizeof num, "%lu", f->id);
            const char *key = index_key(l, r, num);
            if (!strmap_get(&l->field_by_record_id, key))
                strmap_put(&l->field_by_record_id, key, (void *)f);
        }
    }
    for (xmlNodePtr p = sx_child(docs, "page"); p; p = sx_next(p, "page")) {
        for (xmlNodePtr r = sx_child(sx_child(p, "rules"), "rule"); r; r = sx_next(r, "rule")) {
            const char *key = sx_get(r, "id") ? index_key(l, p, sx_get(r, "id")) : NULL;
            if (key && !strmap_get(&l->rule_by_page_id, key))
                strmap_put(&l->rule_by_page_id, key, r);
        }
        index_members(l, p, sx_child(p, "members"));
    }
}

/* The field that stands for f's ID in its top-level record: the first with it. */
static const struct ddi_model_field *id_holder(struct linter *l, const struct ddi_model_record *top,
                                               const struct ddi_model_field *f)
{
    char num[24];
    snprintf(num, sizeof num, "%lu", f->id);
    const struct ddi_model_field *first = strmap_get(&l->field_by_record_id, index_key(l, top, num));
    return first ? first : f;
}

static void mark_documented(struct linter *l, const struct ddi_model_field *f)
{
    l->documented[id_holder(l, f->owner->top, f)->index] = 1;
}

static int is_documented(struct linter *l, const struct ddi_model_record *top, const struct ddi_model_field *f)
{
    return l->documented[id_holder(l, top, f)->index];
}

static const char *versions_text(const char *v)
{
    return v ? v : "every version";
}

static int wddm10_of_doc(const char *s)
{
    unsigned major, minor;
    return s && sscanf(s, "%u.%u", &major, &minor) == 2 ? (int)(major * 10 + minor) : -1;
}

/* ---------- checks per rule kind ---------- */

/* Bit of a flag inside its word: from the documented word (Value) when it
 * resolved, else from the anonymous struct/union that holds the flag. */
static long bit_in_word(const struct ddi_model_field *f, const struct ddi_model_field *word)
{
    long at = ddi_model_first_offset(f), word_at = word ? ddi_model_first_offset(word) : -1;
    if (word && word_at >= 0 && at >= word_at)
        return at - word_at;
    const struct ddi_model_field *holder = f->owner->holder;
    long holder_at = holder ? ddi_model_first_offset(holder) : -1;
    return holder && holder_at >= 0 && at >= holder_at ? at - holder_at : at;
}

/* The next alternative of a field (a named field with its path, declared
 * for other versions); an anonymous member has none. */
static const struct ddi_model_field *next_alternative(const struct ddi_model_field *f)
{
    return f->name && *f->name ? ddi_model_next_named(f) : NULL;
}

/* Of the fields with f's path (alternatives by version), the one at bit. */
static const struct ddi_model_field *alternative_at(const struct ddi_model_field *f, const struct ddi_model_field *word,
                                                    long bit)
{
    for (const struct ddi_model_field *a = f; a; a = next_alternative(a))
        if (a->bitfield && bit_in_word(a, word) == bit)
            return a;
    return NULL;
}

static void check_bit(struct linter *l, xmlNodePtr page, xmlNodePtr mrule, xmlNodePtr drule, const char *record)
{
    const char *source = sx_get(page, "source");
    unsigned line = (unsigned)sx_get_ulong(mrule, "line", 0);
    const struct ddi_model_field *f = ref_field(l, mrule, record);
    if (!f || !f->bitfield)
        return;
    const struct ddi_model_field *word = NULL;
    xmlNodePtr wo = sx_operand(mrule, "word");
    if (wo)
        word = ref_field(l, wo, record);
    const char *index = sx_operand_value(drule, "index");
    if (!index)
        return;
    long doc_bit = strtol(index, NULL, 10);
    const struct ddi_model_field *at = alternative_at(f, word, doc_bit);
    if (!at) {
        add(l, K_BIT_MISMATCH, arena_printf(&l->out->a, "%s.%s", record, f->path), source, line, f->owner->top->file,
            f->line, "%s.%s: the page says bit %ld, the header has it at bit %ld%s%s", record, f->path, doc_bit,
            bit_in_word(f, word), word ? " of " : "", word ? word->path : "");
        return;
    }
    f = at;
    /* "the second through sixth bit": the width must agree too. */
    const char *width = sx_operand_value(drule, "width");
    if (width && strtol(width, NULL, 10) != f->bits) {
        add(l, K_BIT_MISMATCH, arena_printf(&l->out->a, "%s.%s", record, f->path), source, line, f->owner->top->file,
            f->line, "%s.%s: the page says bits %ld-%ld, the header has %d bits from bit %ld", record, f->path,
            doc_bit, doc_bit + strtol(width, NULL, 10) - 1, f->bits, doc_bit);
        return;
    }
    xmlNodePtr so = sx_operand(mrule, "shared-with");
    const struct ddi_model_field *other = so ? ref_field(l, so, record) : NULL;
    if (other)
        other = alternative_at(other, word, doc_bit);
    if (!other || other == f)
        return;
    const char *a = f->path, *b = other->path;
    int swap = strcmp(a, b) > 0;
    const char *pair = arena_printf(&l->out->a, "%s.%s+%s", record, swap ? b : a, swap ? a : b);
    if (!(f->versions & other->versions))
        add(l, K_BIT_SHARED_BY_VERSION, pair, source, line, f->owner->top->file, f->line,
            "%s.%s and %s both claim bit %ld; the header declares them as alternatives by DDI version (%s: %s; "
            "%s: %s)",
            record, swap ? b : a, swap ? a : b, doc_bit, swap ? b : a,
            versions_text(swap ? other->versions_attr : f->versions_attr), swap ? a : b,
            versions_text(swap ? f->versions_attr : other->versions_attr));
    else
        add(l, K_BIT_CONFLICT, pair, source, line, f->owner->top->file, f->line,
            "%s.%s and %s both claim bit %ld and the header has both in the same DDI versions (%s; %s)", record,
            swap ? b : a, swap ? a : b, doc_bit, versions_text(swap ? other->versions_attr : f->versions_attr),
            versions_text(swap ? f->versions_attr : other->versions_attr));
}

/* set: where the subject exists; versions: its versions= as written (NULL: every version). */
static void check_availability(struct linter *l, xmlNodePtr page, xmlNodePtr mrule, xmlNodePtr drule,
                               const char *record, ddi_vset set, const char *versions, const char *what,
                               const char *hfile, unsigned hline)
{
    const char *source = sx_get(page, "source");
    unsigned line = (unsigned)sx_get_ulong(mrule, "line", 0);
    const char *wddm = sx_operand_value(drule, "wddm"), *before = sx_operand_value(drule, "before-wddm");
    int first = ddi_vset_first(set), last = ddi_vset_last(set);
    if (first < 0 || last < 0)
        return;
    int hdr_first = ddi_version_wddm10(l->m->where.short_name[first]);
    int hdr_last = ddi_version_wddm10(l->m->where.short_name[last]);
    const char *id = arena_printf(&l->out->a, "%s.%s", record, what);
    if (wddm) {
        int doc = wddm10_of_doc(wddm);
        if (doc < 0 || hdr_first < 0 || doc == hdr_first)
            return;
        if (!versions && doc > hdr_first)
            return; /* declared unconditionally: the header does not date it */
        add(l, K_AVAILABILITY, id, source, line, hfile, hline,
            "%s: the page says available from WDDM %s, the header declares it from %s (%s)", id, wddm,
            l->m->where.short_name[first], versions_text(versions));
    } else if (before) {
        int doc = wddm10_of_doc(before);
        if (doc < 0 || hdr_last < 0 || hdr_last < doc)
            return;
        add(l, K_AVAILABILITY, id, source, line, hfile, hline,
            "%s: the page says only before WDDM %s, the header declares it up to %s (%s)", id, before,
            l->m->where.short_name[last], versions_text(versions));
    }
}

/* Prose that says the driver writes the member itself: a phrase such as
 * "the driver should update" followed closely by the member's name or
 * "this member". */
static const char *write_evidence(const char *text, const char *member)
{
    static const char *const phrases[] = {
        "driver should update", "driver must update", "driver updates", "driver should set", "driver must set",
        "driver sets", "driver writes", "driver should write", "driver must write", "driver returns",
        "driver should return", "driver must return", "driver fills", "driver should fill", NULL};
    if (!text || !member)
        return NULL;
    const char *dot = strrchr(member, '.');
    member = dot ? dot + 1 : member;
    char *lc = strdup(text), *name = strdup(member);
    const char *hit = NULL;
    if (lc && name) {
        for (char *p = lc; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        for (char *p = name; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        for (const char *const *p = phrases; *p && !hit; p++)
            for (const char *at = lc; (at = strstr(at, *p)) != NULL && !hit; at += strlen(*p)) {
                const char *after = at + strlen(*p);
                const char *obj = strstr(after, name), *self = strstr(after, "this member");
                if ((obj && obj - after <= 12) || (self && self - after <= 12))
                    hit = *p;
            }
    }
    free(lc);
    free(name);
    return hit;
}

static const char *writes_override(struct linter *l, xmlNodePtr merge, const char *record,
                                   const struct ddi_model_field *f)
{
    for (xmlNodePtr o = sx_child(merge, "override"); o; o = sx_next(o, "override"))
        if (!strcmp(sx_get(o, "kind"), "writes") && !strcmp(sx_get(o, "status"), "applied") &&
            !strcmp(sx_get(o, "record"), record) && !strcmp(sx_get(o, "field"), f->path))
            return arena_printf(&l->out->a, "spec/overrides.xml:%s", sx_get(o, "line"));
    return NULL;
}

static void check_direction(struct linter *l, xmlNodePtr merge, xmlNodePtr page, xmlNodePtr dpage, xmlNodePtr mrule,
                            xmlNodePtr drule, const char *record)
{
    const char *value = sx_operand_value(drule, "value");
    const struct ddi_model_field *f = ref_field(l, mrule, record);
    if (!value || strcmp(value, "in") != 0 || !f)
        return;
    unsigned line = (unsigned)sx_get_ulong(mrule, "line", 0);
    xmlNodePtr member = find_member_by_line(l, dpage, line);
    xmlNodePtr text = member ? sx_child(member, "text") : NULL;
    const char *evidence = NULL, *why = writes_override(l, merge, record, f);
    if (why)
        evidence = arena_printf(&l->out->a, "the DDI writes it (%s)", why);
    else if (f->sal && (strstr(f->sal, "_Out") || strstr(f->sal, "_Inout")))
        evidence = arena_printf(&l->out->a, "the header annotates it %s", f->sal);
    else if (text && text->children && (why = write_evidence((const char *)text->children->content, f->path)))
        evidence = arena_printf(&l->out->a, "the page itself says \"%s\"", why);
    if (evidence)
        add(l, K_DIRECTION_IN_WRITTEN, arena_printf(&l->out->a, "%s.%s", record, f->path), sx_get(page, "source"),
            line, f->owner->top->file, f->line, "%s.%s is documented [in], but %s", record, f->path, evidence);
}

/* The discriminator case an enum value has, or NULL. */
static xmlNodePtr case_of(xmlNodePtr merge, const char *value)
{
    for (xmlNodePtr d = sx_child(merge, "discriminator"); d; d = sx_next(d, "discriminator"))
        for (xmlNodePtr c = sx_child(d, "case"); c; c = sx_next(c, "case"))
            if (!strcmp(sx_get(c, "value"), value))
                return c;
    return NULL;
}

static void check_union_member(struct linter *l, xmlNodePtr merge, xmlNodePtr page, xmlNodePtr mrule,
                               xmlNodePtr drule)
{
    const char *value = sx_operand_value(drule, "value"), *member = sx_operand_value(drule, "member");
    const char *subject = sx_get(drule, "subject");
    if (!value && sx_get(page, "enum"))
        value = subject;
    if (!member && sx_get(page, "record"))
        member = sx_get(mrule, "field") ? sx_get(mrule, "field") : subject;
    if (!value || !member)
        return;
    xmlNodePtr c = case_of(merge, value);
    if (!c || !sx_get(c, "member") || !strcmp(sx_get(c, "member"), member))
        return;
    add(l, K_UNION_MEMBER_MISMATCH, arena_printf(&l->out->a, "%s", value), sx_get(page, "source"),
        (unsigned)sx_get_ulong(mrule, "line", 0), NULL, 0,
        "the page says %s selects the union member %s; the spec maps it to %s (%s)", value, member,
        sx_get(c, "member"), sx_get(c, "how"));
}

/* ---------- per page ---------- */

static void check_syntax(struct linter *l, xmlNodePtr page, xmlNodePtr dpage, const struct ddi_model_record *top)
{
    xmlNodePtr syn = sx_child(dpage, "syntax");
    const char *source = sx_get(page, "source");
    if (!syn)
        return;
    for (xmlNodePtr mm = sx_child(syn, "mismatch"); mm; mm = sx_next(mm, "mismatch")) {
        const char *text = mm->children && mm->children->content ? (const char *)mm->children->content : "";
        add(l, K_SYNTAX, arena_printf(&l->out->a, "%s:%s", sx_get(mm, "kind"), text), source,
            (unsigned)sx_get_ulong(mm, "line", 0), top ? top->file : NULL, top ? top->line : 0,
            "syntax block vs field list: %s", text);
    }
    if (!top)
        return;
    for (xmlNodePtr d = sx_child(syn, "decl"); d; d = sx_next(d, "decl")) {
        const char *path = sx_get(d, "path");
        if (sx_get(d, "anonymous") || !path || strstr(path, "(unnamed"))
            continue;
        if (ddi_model_named_field(top, path))
            continue;
        add(l, K_SYNTAX, arena_printf(&l->out->a, "decl:%s", path), source, (unsigned)sx_get_ulong(d, "line", 0),
            top->file, top->line, "the syntax block declares %s.%s, which the header does not have", top->name,
            path);
    }
}

/* A documented member the kit lacks: a note when the page shows it is of a
 * later release than the kit (lint_newer.c), else an error. */
static void lint_missing_member(struct linter *l, struct lint_newer_page *newer, xmlNodePtr m, const char *who,
                                int is_value, const char *hfile, unsigned hline)
{
    const char *source = sx_get(newer->dpage, "source");
    unsigned line = (unsigned)sx_get_ulong(m, "line", 0);
    const char *doc = sx_get(m, "doc") ? sx_get(m, "doc") : arena_printf(&l->out->a, "#%s", sx_get(m, "ordinal"));
    const char *what = is_value ? "value" : "field", *such = is_value ? "value" : "member";
    const char *id = arena_printf(&l->out->a, "%s.%s", who, doc), *dated = NULL;
    const char *why = sx_get(m, "doc") ? lint_newer_evidence(newer, doc, line, &dated) : NULL;
    if (why)
        add(l, K_DOC_FIELD_NEWER, id, source, line, hfile, hline,
            "%s %s is documented but this kit has no such %s: %s", what, id, such, why);
    else if (dated)
        add(l, K_DOC_FIELD_MISSING, id, source, line, hfile, hline,
            "%s %s is documented but the header has no such %s in any DDI version, though the page dates it %s, "
            "a version this kit has",
            what, id, such, dated);
    else
        add(l, K_DOC_FIELD_MISSING, id, source, line, hfile, hline,
            "%s %s is documented but the header has no such %s in any DDI version", what, id, such);
}

static void lint_page(struct linter *l, xmlNodePtr merge, xmlNodePtr page)
{
    const char *source = sx_get(page, "source"), *name = sx_get(page, "name");
    const char *record = sx_get(page, "record");
    xmlNodePtr dpage = strmap_get(&l->doc_pages, source);
    if (!dpage)
        return;
    const struct ddi_model_record *top = record ? ddi_model_record_any(l->m, record) : NULL;
    const struct ddi_model_enum *en = ddi_model_enum(l->m, sx_get(page, "enum"));
    const char *kind = sx_get(dpage, "kind");
    if (!top && !en && !sx_get(page, "function-type")) {
        if (kind && (!strcmp(kind, "struct") || !strcmp(kind, "union") || !strcmp(kind, "enum")))
            add(l, K_PAGE_UNMATCHED, name, source, 1, NULL, 0, "the page documents %s %s, which the headers do not declare",
                kind, name);
        return;
    }
    const char *hfile = top ? top->file : en ? en->file : NULL;
    unsigned hline = top ? top->line : en ? en->line : 0;
    /* The header's name (the typedef), not the page's, which may be the
     * tag (_DXGKARG_X): one name per record in every finding. */
    const char *who = top ? top->name : en ? en->name : name;
    struct lint_newer_page newer;
    lint_newer_page_init(&newer, &l->out->a, l->m, page, dpage, top, en);
    for (xmlNodePtr m = sx_child(page, "match"); m; m = sx_next(m, "match")) {
        const char *how = sx_get(m, "how");
        if (strcmp(how, "none") != 0) {
            const struct ddi_model_field *f = top ? ref_field(l, m, record) : NULL;
            /* a documented name covers every alternative of that path */
            for (const struct ddi_model_field *a = f; a; a = next_alternative(a))
                mark_documented(l, a);
            continue;
        }
        lint_missing_member(l, &newer, m, who, en != NULL, hfile, hline);
    }
    lint_newer_page_free(&newer);
    for (xmlNodePtr r = sx_child(page, "rule"); r; r = sx_next(r, "rule")) {
        const char *rk = sx_get(r, "kind");
        xmlNodePtr dr = docs_rule(l, dpage, sx_get(r, "ref"));
        if (!dr)
            continue;
        for (xmlNodePtr o = sx_child(r, "operand"); o; o = sx_next(o, "operand"))
            if (sx_get(o, "resolved"))
                add(l, K_OPERAND_UNRESOLVED, arena_printf(&l->out->a, "%s/%s", sx_get(r, "ref"), sx_get(o, "value")),
                    source, (unsigned)sx_get_ulong(r, "line", 0), hfile, hline,
                    "rule %s names %s, which is not a field of %s", sx_get(r, "ref"), sx_get(o, "value"), who);
        if (!strcmp(rk, "bit") && top)
            check_bit(l, page, r, dr, record);
        else if (!strcmp(rk, "direction") && top)
            check_direction(l, merge, page, dpage, r, dr, record);
        else if (!strcmp(rk, "union-member"))
            check_union_member(l, merge, page, r, dr);
        else if (!strcmp(rk, "availability")) {
            const struct ddi_model_field *f = top ? ref_field(l, r, record) : NULL;
            const struct ddi_model_value *v = en ? ddi_model_value(l->m, sx_get(r, "value")) : NULL;
            if (f)
                check_availability(l, page, r, dr, record, f->versions, f->versions_attr, f->path, f->owner->top->file,
                                   f->line);
            else if (v)
                check_availability(l, page, r, dr, en->name, v->versions, v->versions_attr, v->name, en->file,
                                   en->line);
            else if (!sx_get(dr, "subject") || !*sx_get(dr, "subject"))
                check_availability(l, page, r, dr, name,
                                   top  ? top->versions
                                   : en ? en->versions
                                        : ddi_vset_all(&l->m->where),
                                   top  ? top->versions_attr
                                   : en ? en->versions_attr
                                        : NULL,
                                   "(page)", hfile, hline);
        }
    }
    check_syntax(l, page, dpage, top);
}

static void lint_undocumented(struct linter *l, xmlNodePtr merge)
{
    struct strmap done = {0};
    for (xmlNodePtr p = sx_child(merge, "page"); p; p = sx_next(p, "page")) {
        const char *record = sx_get(p, "record");
        const struct ddi_model_record *top = record ? ddi_model_record_any(l->m, record) : NULL;
        if (!top || strmap_get(&done, record))
            continue;
        strmap_put(&done, record, (void *)top);
        for (size_t i = 0; i < top->nall; i++) {
            const struct ddi_model_field *f = top->all[i];
            if (!f->name || !*f->name)
                continue;
            if (is_documented(l, top, f))
                continue;
            struct lint_finding *x =
                add(l, K_FIELD_UNDOCUMENTED, arena_printf(&l->out->a, "%s.%s", record, f->path), NULL, 0, top->file,
                    f->line, "%s.%s (%s%s%s) has no documentation on any page of %s", record, f->path, f->type,
                    f->versions_attr ? ", " : "", f->versions_attr ? f->versions_attr : "", record);
            if (x) {
                x->primary_is_header = 1;
                x->doc_file = doc_path(l, sx_get(p, "source"));
                x->doc_uri = doc_uri(l, sx_get(p, "source"));
            }
        }
    }
    strmap_free(&done);
}

static void lint_discriminators(struct linter *l, xmlNodePtr merge)
{
    for (xmlNodePtr d = sx_child(merge, "discriminator"); d; d = sx_next(d, "discriminator")) {
        const struct ddi_model_enum *e = ddi_model_enum(l->m, sx_get(d, "enum"));
        for (xmlNodePtr c = sx_child(d, "case"); c; c = sx_next(c, "case"))
            if (!strcmp(sx_get(c, "how"), "none")) {
                struct lint_finding *x =
                    add(l, K_UNION_MEMBER_UNMAPPED, sx_get(c, "value"), NULL, 0, e ? e->file : NULL, e ? e->line : 0,
                        "%s (%s of %s) selects no member of %s; add a union-member override if one exists",
                        sx_get(c, "value"), sx_get(c, "number"), sx_get(d, "enum"), sx_get(d, "union"));
                if (x)
                    x->primary_is_header = 1;
            }
    }
}

static void lint_overrides(struct linter *l, xmlNodePtr merge)
{
    const char *file = sx_get(merge, "overrides");
    for (xmlNodePtr o = sx_child(merge, "override"); o; o = sx_next(o, "override")) {
        const char *status = sx_get(o, "status");
        if (!strcmp(status, "applied"))
            continue;
        const char *what = sx_get(o, "value") ? sx_get(o, "value") : sx_get(o, "field") ? sx_get(o, "field") : sx_get(o, "doc");
        struct lint_finding *x =
            add(l, K_OVERRIDE_STALE, arena_printf(&l->out->a, "%s:%s:%s", sx_get(o, "kind"), sx_get(o, "record"), what),
                NULL, 0, NULL, 0, "%s override for %s.%s is %s: %s", sx_get(o, "kind"), sx_get(o, "record"), what,
                !strcmp(status, "redundant") ? "no longer needed" : "no longer applicable",
                sx_get(o, "note") ? sx_get(o, "note") : status);
        if (x) {
            x->header_file = x->header_uri = file ? file : "spec/overrides.xml";
            x->header_line = (unsigned)sx_get_ulong(o, "line", 0);
            x->primary_is_header = 1;
        }
    }
}

/* ---------- reviewed pages ---------- */

/* Lines a reviewed sentence may drift before it is reported as moved: a
 * member's text is located only to its paragraph. */
#define REVIEW_LINE_SLACK 2

/* One piece of a page's text, normalized, and the line it starts at. */
struct page_text {
    const char *norm;
    unsigned line;
};

/* Lower-case letters and digits, every other run one space: markup,
 * quotes and line breaks do not make a sentence differ. */
static char *norm_text(struct arena *a, const char *s, size_t n)
{
    char *out = arena_alloc(a, n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isalnum(c))
            *o++ = (char)tolower(c);
        else if (o > out && o[-1] != ' ')
            *o++ = ' ';
    }
    while (o > out && o[-1] == ' ')
        o--;
    *o = '\0';
    return out;
}

static void push_text(struct linter *l, struct vec *out, const char *s, size_t n, unsigned line)
{
    struct page_text *t = arena_alloc(&l->out->a, sizeof *t);
    t->norm = norm_text(&l->out->a, s, n);
    t->line = line;
    if (*t->norm)
        vec_push(out, t);
}

static const char *content_of(xmlNodePtr n)
{
    return n && n->children && n->children->content ? (const char *)n->children->content : "";
}

/* A member's text, one piece per source line after its heading (the text
 * keeps the page's paragraph breaks; a paragraph is a line in the pages). */
static void member_texts(struct linter *l, xmlNodePtr parent, struct vec *out)
{
    for (xmlNodePtr n = sx_child(parent, NULL); n; n = sx_next(n, NULL)) {
        if (!sx_is(n, "field") && !sx_is(n, "value") && !sx_is(n, "param"))
            continue;
        unsigned line = (unsigned)sx_get_ulong(n, "line", 0) + 2;
        for (const char *p = content_of(sx_child(n, "text")); *p; line++) {
            size_t len = strcspn(p, "\n");
            push_text(l, out, p, len, line);
            p += len + (p[len] == '\n');
        }
        member_texts(l, n, out);
    }
}

/* Every sentence and text of a docs page with its line. */
static void page_texts(struct linter *l, xmlNodePtr page, struct vec *out)
{
    for (xmlNodePtr r = sx_child(sx_child(page, "rules"), "rule"); r; r = sx_next(r, "rule")) {
        const char *t = content_of(sx_child(r, "sentence"));
        push_text(l, out, t, strlen(t), (unsigned)sx_get_ulong(r, "line", 0));
    }
    for (xmlNodePtr x = sx_child(sx_child(page, "unextracted"), "sentence"); x; x = sx_next(x, "sentence"))
        push_text(l, out, content_of(x), strlen(content_of(x)), (unsigned)sx_get_ulong(x, "line", 0));
    xmlNodePtr d = sx_child(page, "description");
    if (d)
        push_text(l, out, content_of(d), strlen(content_of(d)), (unsigned)sx_get_ulong(d, "line", 0));
    member_texts(l, sx_child(page, "members"), out);
}

/* Shared words over the words of the longer: how alike two sentences read. */
static double likeness(const char *a, const char *b)
{
    unsigned na = 0, nb = 0, shared = 0;
    for (const char *p = a; *p; p += strcspn(p, " "), p += *p == ' ') {
        size_t n = strcspn(p, " ");
        na++;
        for (const char *q = b; *q; q += strcspn(q, " "), q += *q == ' ')
            if (strcspn(q, " ") == n && !strncmp(p, q, n)) {
                shared++;
                break;
            }
    }
    for (const char *q = b; *q; q += strcspn(q, " "), q += *q == ' ')
        nb++;
    unsigned most = na > nb ? na : nb;
    return most ? (double)shared / most : 0;
}

static struct lint_finding *add_review(struct linter *l, int kind, xmlNodePtr e, const char *page, unsigned line,
                                       const char *what)
{
    const char *file = e->parent ? sx_get(e->parent, "reviewed") : NULL;
    struct lint_finding *x = add(l, kind, arena_printf(&l->out->a, "%s:%s", sx_get(e, "action"), content_of(sx_child(e, "sentence"))),
                                 page, line, file ? file : "spec/reviewed.xml", (unsigned)sx_get_ulong(e, "line", 0),
                                 "%s", what);
    return x;
}

/* Where the sentence of an applied entry is on its page now. */
static void lint_review_sentence(struct linter *l, xmlNodePtr e, const struct vec *texts)
{
    const char *page = sx_get(e, "page");
    unsigned want = (unsigned)sx_get_ulong(e, "page-line", 0);
    const char *sentence = content_of(sx_child(e, "sentence"));
    const char *norm = norm_text(&l->out->a, sentence, strlen(sentence));
    const struct page_text *found = NULL, *alike = NULL;
    double best = 0;
    for (size_t i = 0; i < texts->len; i++) {
        const struct page_text *t = texts->items[i];
        if (strstr(t->norm, norm)) {
            if (!found || abs((int)t->line - (int)want) < abs((int)found->line - (int)want))
                found = t;
        } else {
            double k = likeness(norm, t->norm);
            if (k > best)
                best = k, alike = t;
        }
    }
    const char *entry = arena_printf(&l->out->a, "the %s entry of %s", sx_get(e, "action"),
                                     sx_get(e, "rule") ? sx_get(e, "rule") : page);
    if (found && abs((int)found->line - (int)want) > REVIEW_LINE_SLACK)
        add_review(l, K_REVIEW_MOVED, e, page, found->line,
                   arena_printf(&l->out->a, "the sentence of %s moved from line %u to %u", entry, want, found->line));
    else if (!found && alike && best >= 0.6)
        add_review(l, K_REVIEW_CHANGED, e, page, alike->line,
                   arena_printf(&l->out->a, "the sentence of %s reads differently now; review it again", entry));
    else if (!found)
        add_review(l, K_REVIEW_VANISHED, e, page, want,
                   arena_printf(&l->out->a, "the sentence of %s is no longer on the page", entry));
}

/* A modal sentence the docs stage made no rule of, on a page some entry
 * reviewed, that no entry of the page quotes. */
static void lint_unreviewed_modals(struct linter *l, xmlNodePtr merge, xmlNodePtr page, const char *source)
{
    for (xmlNodePtr x = sx_child(sx_child(page, "unextracted"), "sentence"); x; x = sx_next(x, "sentence")) {
        const char *norm = norm_text(&l->out->a, content_of(x), strlen(content_of(x)));
        int covered = 0;
        for (xmlNodePtr e = sx_child(merge, "review"); e && !covered; e = sx_next(e, "review")) {
            const char *s = content_of(sx_child(e, "sentence"));
            const char *en = norm_text(&l->out->a, s, strlen(s));
            covered = !strcmp(sx_get(e, "page"), source) && *en && (strstr(norm, en) || strstr(en, norm));
        }
        if (!covered)
            add(l, K_MODAL_UNREVIEWED, content_of(x), source, (unsigned)sx_get_ulong(x, "line", 0), NULL, 0,
                "modal sentence on a reviewed page that no rule or reviewed entry covers: \"%s\"", content_of(x));
    }
}

static void lint_reviewed(struct linter *l, xmlNodePtr merge)
{
    struct strmap reviewed_pages = {0};
    for (xmlNodePtr e = sx_child(merge, "review"); e; e = sx_next(e, "review")) {
        xmlNodePtr page = strmap_get(&l->doc_pages, sx_get(e, "page"));
        if (!strcmp(sx_get(e, "status"), "stale")) {
            struct lint_finding *x = add_review(
                l, K_REVIEW_STALE, e, NULL, 0,
                arena_printf(&l->out->a, "%s entry (%s %s%s%s) is stale: %s", sx_get(e, "action"),
                             sx_get(e, "kind") ? sx_get(e, "kind") : "sentence",
                             sx_get(e, "record") ? sx_get(e, "record") : sx_get(e, "page"), sx_get(e, "subject") ? "." : "",
                             sx_get(e, "subject") ? sx_get(e, "subject") : "", sx_get(e, "note")));
            if (x)
                x->primary_is_header = 1;
        }
        if (!page)
            continue;
        struct vec texts = {0};
        page_texts(l, page, &texts);
        lint_review_sentence(l, e, &texts);
        vec_free(&texts);
        if (!strmap_get(&reviewed_pages, sx_get(e, "page"))) {
            strmap_put(&reviewed_pages, sx_get(e, "page"), page);
            lint_unreviewed_modals(l, merge, page, sx_get(e, "page"));
        }
    }
    strmap_free(&reviewed_pages);
}

static const char *primary_file(const struct lint_finding *f)
{
    return f->primary_is_header || !f->doc_file ? f->header_file : f->doc_file;
}
static unsigned primary_line(const struct lint_finding *f)
{
    return f->primary_is_header || !f->doc_file ? f->header_line : f->doc_line;
}

static int by_location(const void *x, const void *y)
{
    const struct lint_finding *a = *(const struct lint_finding *const *)x, *b = *(const struct lint_finding *const *)y;
    int c = strcmp(primary_file(a) ? primary_file(a) : "", primary_file(b) ? primary_file(b) : "");
    if (c)
        return c;
    if (primary_line(a) != primary_line(b))
        return primary_line(a) < primary_line(b) ? -1 : 1;
    c = strcmp(a->kind->id, b->kind->id);
    return c ? c : strcmp(a->message, b->message);
}

int lint_run(xmlDocPtr spec, const struct lint_options *opt, struct lint_result *out)
{
    struct ddi_model *m = ddi_model_load(spec);
    if (!m) {
        memset(out, 0, sizeof *out);
        ddigen_error(NULL, 0, "out of memory");
        return -1;
    }
    int rc = lint_run_model(spec, m, opt, out);
    ddi_model_free(m);
    return rc;
}

int lint_run_model(xmlDocPtr spec, const struct ddi_model *model, const struct lint_options *opt,
                   struct lint_result *out)
{
    memset(out, 0, sizeof *out);
    struct linter l = {.opt = opt, .out = out, .m = model};
    if (!l.m || !(l.documented = calloc(l.m->nfields + 1, 1))) {
        ddigen_error(NULL, 0, "out of memory");
        return -1;
    }
    for (xmlNodePtr p = sx_child(sx_part(spec, "docs"), "page"); p; p = sx_next(p, "page"))
        strmap_put(&l.doc_pages, sx_get(p, "source"), p);
    index_lookups(&l, sx_part(spec, "docs"));
    xmlNodePtr merge = sx_part(spec, "merge");
    for (xmlNodePtr p = sx_child(merge, "page"); p; p = sx_next(p, "page"))
        lint_page(&l, merge, p);
    lint_undocumented(&l, merge);
    lint_discriminators(&l, merge);
    lint_overrides(&l, merge);
    lint_reviewed(&l, merge);
    if (out->findings.len > 1) /* no findings: items is NULL, which qsort may not get */
        qsort(out->findings.items, out->findings.len, sizeof *out->findings.items, by_location);
    for (size_t i = 0; i < out->findings.len; i++)
        out->counts[((struct lint_finding *)out->findings.items[i])->severity]++;
    strmap_free(&l.doc_pages);
    free(l.documented);
    strmap_free(&l.seen);
    strmap_free(&l.field_by_record_id);
    strmap_free(&l.rule_by_page_id);
    strmap_free(&l.member_by_page_line);
    strmap_free(&l.header_uris);
    out->docs_root = opt ? opt->docs_root : NULL;
    out->headers_root = opt ? opt->headers_root : NULL;
    return 0;
}

void lint_result_free(struct lint_result *r)
{
    vec_free(&r->findings);
    arena_free(&r->a);
}

static const char *const severity_names[] = {"note", "warning", "error"};

static void location(FILE *out, const char *file, unsigned line)
{
    if (file && line)
        fprintf(out, "%s:%u: ", file, line);
    else if (file)
        fprintf(out, "%s: ", file);
    else
        fputs("ddigen: ", out);
}

void lint_write_text(const struct lint_result *r, FILE *out)
{
    for (size_t i = 0; i < r->findings.len; i++) {
        const struct lint_finding *f = r->findings.items[i];
        location(out, primary_file(f), primary_line(f));
        fprintf(out, "%s: %s [%s]\n", severity_names[f->severity], f->message, f->kind->id);
        if (f->primary_is_header && f->doc_file) {
            location(out, f->doc_file, f->doc_line);
            fputs("note: documented here\n", out);
        } else if (!f->primary_is_header && f->header_file) {
            location(out, f->header_file, f->header_line);
            fputs("note: declared here\n", out);
        }
    }
}

int lint_write_text_file(const struct lint_result *r, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    lint_write_text(r, f);
    fclose(f);
    /* ddigen_write_file: "-" is stdout, anything else is written whole or
     * not at all. */
    int rc = ddigen_write_file(path, text, len);
    free(text);
    return rc;
}

/* ---------- SARIF 2.1.0 ---------- */

/* The findings as the one SARIF writer's results (util/sarif.c): the
 * primary side first, the other side as the related location, each
 * relative to its root (DOCS, HEADERS). */
static void sarif_result_of(const struct lint_finding *f, struct sarif_result *out)
{
    int header_primary = f->primary_is_header || !f->doc_file;
    const char *pf = header_primary ? f->header_uri : f->doc_uri;
    const char *other = header_primary ? f->doc_uri : f->header_uri;
    *out = (struct sarif_result){
        .rule = (unsigned)(f->kind - lint_kinds),
        .level = (enum sarif_level)f->severity,
        .message = f->message,
        .primary = {.file = pf, .line = primary_line(f), .base = header_primary ? "HEADERS" : "DOCS"},
        .fingerprint = f->fingerprint,
    };
    if (other && other != pf)
        out->related = (struct sarif_location){.file = other,
                                               .line = header_primary ? f->doc_line : f->header_line,
                                               .base = header_primary ? "DOCS" : "HEADERS",
                                               .message = header_primary ? "documented here" : "declared here"};
}

char *lint_sarif(const struct lint_result *r, const char *tool_version)
{
    struct sarif_rule rules[K_COUNT];
    for (unsigned i = 0; i < lint_kind_count; i++)
        rules[i] = (struct sarif_rule){lint_kinds[i].id, lint_kinds[i].name, lint_kinds[i].description,
                                       (enum sarif_level)lint_kinds[i].severity};
    struct sarif_result *results = calloc(r->findings.len + 1, sizeof *results);
    if (!results)
        return NULL;
    for (size_t i = 0; i < r->findings.len; i++)
        sarif_result_of(r->findings.items[i], &results[i]);
    const struct sarif_base bases[] = {
        {"DOCS", r->docs_root, "The reference pages (the folder given to ddigen docs, or its parent)."},
        {"HEADERS", r->headers_root, "The WDK Include/<version> folder the spec was made from."},
    };
    char *out = sarif_document(tool_version, rules, lint_kind_count, bases, 2, results, r->findings.len);
    free(results);
    return out;
}
