/* Layout and type facts a rule must agree with before it becomes a check
 * (ground.h): shared bits, address-like fields, read-only arguments. */
#include "ground.h"
#include "reach.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared bits ---------------------------------------------------------- */

/* Whether a holds b at some depth (b lies in a's nested record). */
static int holds(const struct ddi_model_field *a, const struct ddi_model_field *b)
{
    for (const struct ddi_model_record *r = b->owner; r && r->holder; r = r->holder->owner)
        if (r->holder == a)
            return 1;
    return 0;
}

/* Bits a field takes on an arch, 0 when unknown (a flexible array, a :0). */
static long width_bits(const struct ddi_model_field *f, int arch, int version)
{
    if (f->bitfield)
        return f->bits;
    long count = 1;
    if (f->array) {
        char *end;
        count = strtol(f->array, &end, 10);
        if (*end || count <= 0)
            return 0;
    }
    if (f->nested) {
        const struct ddi_model_measure *s = ddi_model_measure_at(&f->nested->sizes[arch], version);
        return s ? s->value * 8 * count : 0;
    }
    return (long)ddi_model_fact(f, arch, version).bytes * 8 * count;
}

/* The flag word over a bitfield: a scalar beside the (anonymous) struct
 * that holds f, in one union: union { struct { A:1; Reserved:31; }; UINT Value; }. */
static int flag_word_of(const struct ddi_model_field *word, const struct ddi_model_field *f)
{
    const struct ddi_model_field *box = f->owner ? f->owner->holder : NULL;
    return f->bitfield && !word->bitfield && !word->nested && box && !f->owner->is_union &&
           box->owner == word->owner && word->owner->is_union;
}

/* Whether the pages of f's record call x reserved (a reserved or
 * reserved-zero rule on it). */
static int called_reserved(const struct ddi_model_record *top, const struct ddi_model_field *x)
{
    for (size_t i = 0; i < top->nrules; i++) {
        const struct ddi_model_rule *r = top->rules[i];
        const struct ddi_model_chain *c = &r->subject_field;
        if ((r->kind == DDI_RULE_RESERVED || r->kind == DDI_RULE_RESERVED_ZERO) && c->depth &&
            c->field[c->depth - 1] == x)
            return 1;
    }
    return 0;
}

/* The field of record u on the way down to f (f itself when u holds it
 * directly), or NULL when f is not in u. */
static const struct ddi_model_field *member_in(const struct ddi_model_field *f, const struct ddi_model_record *u)
{
    for (; f; f = f->owner ? f->owner->holder : NULL)
        if (f->owner == u)
            return f;
    return NULL;
}

/* Whether x and f lie in two named members of the innermost union that
 * holds both (Map.BaseAddress, Unmap.BaseAddress): alternatives a selector
 * chooses between, not two names of one value. */
static int alternatives(const struct ddi_model_field *f, const struct ddi_model_field *x)
{
    for (const struct ddi_model_record *u = f->owner; u; u = u->holder ? u->holder->owner : NULL) {
        const struct ddi_model_field *mx = member_in(x, u);
        if (!mx)
            continue;
        const struct ddi_model_field *mf = member_in(f, u);
        return u->is_union && mf != mx && mf->nested && mx->nested && mf->name && mf->name[0] && mx->name &&
               mx->name[0];
    }
    return 0;
}

static int overlap_at(const struct ddi_model_field *f, const struct ddi_model_field *x, int arch, int version)
{
    long fo = ddi_model_offset(f, arch, version), xo = ddi_model_offset(x, arch, version);
    long fw = width_bits(f, arch, version), xw = width_bits(x, arch, version);
    if (fo < 0 || xo < 0 || !fw || !xw)
        return 0;
    return fo < xo + xw && xo < fo + fw;
}

static int overlaps(const struct ddi_versions *where, const struct ddi_model_field *f,
                    const struct ddi_model_field *x)
{
    ddi_vset both = f->eff_versions & x->eff_versions;
    ddi_archset archs = f->eff_archs & x->eff_archs;
    for (unsigned a = 0; a < where->narchs; a++) {
        if (!(archs >> a & 1))
            continue;
        for (unsigned v = 0; v < where->n; v++)
            if (ddi_vset_has(both, (int)v) && overlap_at(f, x, (int)a, (int)v))
                return 1;
    }
    return 0;
}

const struct ddi_model_field *ground_shared_bits(const struct ddi_versions *where, const struct ddi_model_field *f)
{
    const struct ddi_model_record *top = f->owner ? f->owner->top : NULL;
    for (size_t i = 0; top && i < top->nall; i++) {
        const struct ddi_model_field *x = top->all[i];
        if (x == f || !x->name || !x->name[0] || holds(x, f) || holds(f, x) || flag_word_of(x, f) ||
            alternatives(f, x))
            continue;
        if (x->nested && x->nested->anonymous)
            continue; /* an anonymous struct or union: its named fields are tried themselves */
        if (overlaps(where, f, x) && !called_reserved(top, x))
            return x;
    }
    return NULL;
}

/* ---- addresses, sizes, offsets ------------------------------------------ */

/* A CamelCase word of name ("Index" in PhysicalAdapterIndex, "Id" in
 * SegmentId but not in Identity): starts at a capital, ends at the next
 * capital, digit, underscore or the end. */
static int has_word(const char *name, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(name, word); p; p = strstr(p + 1, word)) {
        char next = p[n];
        if (next == '\0' || next == '_' || (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9'))
            return 1;
    }
    return 0;
}

/* The documented unit of the field is bytes (a units rule of its page). */
static int counted_in_bytes(const struct ddi_model_field *f)
{
    const struct ddi_model_record *top = f->owner ? f->owner->top : NULL;
    for (size_t i = 0; top && i < top->nrules; i++) {
        const struct ddi_model_rule *r = top->rules[i];
        const struct ddi_model_chain *c = &r->subject_field;
        const char *unit = r->kind == DDI_RULE_UNITS ? ddi_model_docs_operand(r, "unit") : NULL;
        if (unit && !strcmp(unit, "bytes") && c->depth && c->field[c->depth - 1] == f)
            return 1;
    }
    return 0;
}

int ground_is_location(const struct rules_field *sf)
{
    static const char *const never[] = {"Index", "Count", "Id", "Ordinal", "Number", "Handle"};
    static const char *const roles[] = {"Address", "Addr", "Size", "Offset", "Pitch", "Base", "Stride", "Va"};
    if (sf->pointer)
        return 1;
    if (!sf->depth || sf->bits)
        return 0;
    const struct ddi_model_field *f = sf->chain[sf->depth - 1];
    const char *name = f->name ? f->name : "";
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        if (has_word(name, never[i]))
            return 0;
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++)
        if (has_word(name, roles[i]))
            return 1;
    const char *type = f->type ? f->type : "";
    if (strstr(type, "ADDRESS") || strstr(type, "SIZE_T"))
        return 1;
    return counted_in_bytes(f);
}

/* ---- arguments the driver cannot write ----------------------------------- */

/* One record a function type takes through a pointer: by pointers to
 * const only, or by at least one it may write through. */
struct ground_taken {
    const struct ddi_model_record *rec;
    int writable;
};

int ground_read_only_init(struct ground_read_only *ro, const struct ddi_model *m)
{
    *ro = (struct ground_read_only){0};
    size_t cap = 0;
    for (size_t i = 0; i < m->nfunctypes; i++)
        cap += m->functypes[i].nparams;
    ro->taken = calloc(cap ? cap : 1, sizeof *ro->taken);
    if (!ro->taken)
        return -1;
    for (size_t i = 0; i < m->nfunctypes; i++) {
        const struct ddi_model_functype *ft = &m->functypes[i];
        for (size_t k = 0; k < ft->nparams; k++) {
            int stars = 0, is_const = 0;
            const struct ddi_model_record *rec = reach_pointee(m, ft->params[k].type, &stars, &is_const);
            /* a pointer to a pointer: the driver may write the inner one */
            if (!rec || stars != 1)
                continue;
            struct ground_taken *t = strmap_get(&ro->by_name, rec->name);
            if (!t) {
                t = &ro->taken[ro->ntaken++];
                t->rec = rec;
                strmap_put(&ro->by_name, rec->name, t);
            }
            t->writable |= !is_const;
        }
    }
    return 0;
}

int ground_read_only(const struct ground_read_only *ro, const struct ddi_model_record *rec)
{
    const struct ground_taken *t = strmap_get(&ro->by_name, rec->name);
    return t && t->rec == rec && !t->writable;
}

void ground_read_only_free(struct ground_read_only *ro)
{
    strmap_free(&ro->by_name);
    free(ro->taken);
}
