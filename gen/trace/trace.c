/* `ddigen trace FILE --spec SPEC`: see trace.h. Each call is read twice:
 * once to rebuild the record's bytes for the rules hook, once to print, so
 * that a violation is shown at the field it is about. */
#include "trace.h"

#include "image.h"
#include "model/specxml.h"
#include "model/wire.h"
#include "rules_hook.h"
#include "spec/schema.h"
#include "util/arena.h"
#include "util/cli.h"
#include "util/diag.h"
#include "util/hash.h"
#include "util/json.h"
#include "util/output.h"
#include "util/strmap.h"

#include "ddi_cbor.h"
#include "ddi_trace.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VIOLATIONS 64
#define ID_BITS 65536u /* field IDs tracked for "missing" (beyond: not reported) */

struct tracer {
    xmlDocPtr spec;
    xmlNodePtr layout;
    struct trace_layout lay;
    const struct ddi_model *m; /* lay.model: every record, field and enum read here */
    int json, report_missing;
    const char *path;
    FILE *out;
    ddi_cbor_reader r;
    /* The call being read: its index, its offset, its record and where its
     * map starts (errors name the key path from there). */
    unsigned call;
    size_t call_offset;
    const struct ddi_model_record *call_rec;
    const uint8_t *rec_start;
    int printing;
    uint8_t *image;
    size_t image_size;
    ddi_violation viol[MAX_VIOLATIONS];
    size_t nviol;
    enum trace_rules_status rules;
    struct strmap enums; /* tag -> struct vec of the model's enums with it, in document order */
    struct by_number *records, *ddis; /* sorted by number (index_numbers) */
    struct ddi_wire_index wire;
    /* Per model field (ddi_model_field.index): its enum wire + 1, 0 until
     * first read. A field's class is fixed (the unions around it are those
     * of its own top record), so it is decided once, not on every call. */
    unsigned char *wire_of_field;
    size_t nrecords, nddis;
};

/* An element of the layout by a number (a record by its ID, a function
 * type by its trace ID), the first of the document for each number. */
struct by_number {
    long number;
    size_t order;
    const void *item;
};

static int by_number_order(const void *a, const void *b)
{
    const struct by_number *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static const void *number_find(const struct by_number *v, size_t n, long number)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first entry not below number */
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].number == number ? v[lo].item : NULL;
}

/* Sorts the model's records by ID and function types by trace ID, once:
 * each call looks its record and DDI up by number. */
static int index_numbers(struct tracer *t)
{
    t->m = t->lay.model;
    t->records = calloc(t->m->nrecords ? t->m->nrecords : 1, sizeof *t->records);
    t->ddis = calloc(t->m->nfunctypes ? t->m->nfunctypes : 1, sizeof *t->ddis);
    if (!t->records || !t->ddis)
        return -1;
    for (size_t i = 0; i < t->m->nrecords; i++)
        t->records[t->nrecords++] = (struct by_number){(long)t->m->records[i]->id, i, t->m->records[i]};
    for (size_t i = 0; i < t->m->nfunctypes; i++)
        t->ddis[t->nddis++] = (struct by_number){(long)ddi_trace_id(t->m->functypes[i].name), i, &t->m->functypes[i]};
    qsort(t->records, t->nrecords, sizeof *t->records, by_number_order);
    qsort(t->ddis, t->nddis, sizeof *t->ddis, by_number_order);
    return 0;
}

static const struct ddi_model_record *find_record_by_id(struct tracer *t, uint32_t id)
{
    return number_find(t->records, t->nrecords, (long)id);
}

static const char *ddi_name(struct tracer *t, uint32_t id)
{
    const struct ddi_model_functype *f = number_find(t->ddis, t->nddis, (long)id);
    return f ? f->name : NULL;
}

static int named(const struct ddi_model_field *f)
{
    return f->name && *f->name;
}

static const char *path_of(const struct ddi_model_field *f)
{
    return f->path ? f->path : "";
}

/* The enumerator a value of an enum-typed field names, or NULL. */
static const char *enum_name(struct tracer *t, const struct ddi_model_field *field, int64_t value)
{
    const char *c = field->canonical ? field->canonical : "";
    if (strncmp(c, "enum ", 5))
        return NULL;
    struct vec *same_tag = strmap_get(&t->enums, c + 5);
    for (size_t i = 0; same_tag && i < same_tag->len; i++) {
        const struct ddi_model_enum *e = same_tag->items[i];
        for (size_t k = 0; k < e->nvalues; k++)
            if (e->values[k].value == value && trace_layout_has(&t->lay, e->values[k].node))
                return e->values[k].name;
    }
    return NULL;
}

/* The field with stable ID id at this map level: a field of rec, or of the
 * anonymous records inside it (their members share the level). */
static const struct ddi_model_field *find_field(const struct ddi_model_record *rec, long id)
{
    for (size_t i = 0; i < rec->nfields; i++) {
        const struct ddi_model_field *f = rec->fields[i];
        if (named(f) && (long)f->id == id)
            return f;
        if (!named(f) && f->nested) {
            const struct ddi_model_field *found = find_field(f->nested, id);
            if (found)
                return found;
        }
    }
    return NULL;
}

/* The marshalled record a field of record type is held by value as, or NULL. */
static const struct ddi_model_record *held_record(struct tracer *t, const struct ddi_model_field *f)
{
    xmlNodePtr r = ddi_wire_record(&t->wire, ddi_wire_canonical(f->node));
    return r ? ddi_model_record_of(t->m, r) : NULL;
}

/* ---- output ------------------------------------------------------------ */

static void indent(struct tracer *t, unsigned depth)
{
    if (t->printing && !t->json)
        fprintf(t->out, "%*s", (int)(2 * depth + 2), "");
}

static void out(struct tracer *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct tracer *t, const char *fmt, ...)
{
    if (!t->printing)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(t->out, fmt, ap);
    va_end(ap);
}

/* A string: quoted and escaped by the one JSON writer in JSON, as it is in
 * text. */
static void out_strn(struct tracer *t, const char *s, size_t n)
{
    if (!t->printing)
        return;
    if (t->json)
        json_write_strn(t->out, s, n);
    else
        fwrite(s, 1, n, t->out);
}

static void out_str(struct tracer *t, const char *s)
{
    out_strn(t, s, strlen(s));
}

/* Violations of a field, after its value. */
static void print_violations(struct tracer *t, const char *path)
{
    int first = 1;
    for (size_t i = 0; i < t->nviol && i < 1; i++) { /* the hook fills the first */
        if (!t->viol[i].field || strcmp(t->viol[i].field, path))
            continue;
        if (t->json) {
            out(t, "%s", first ? ", \"violations\": [" : ", ");
            out_str(t, t->viol[i].rule_id);
        } else
            out(t, "   ! breaks %s", t->viol[i].rule_id);
        first = 0;
    }
    if (!first && t->json)
        out(t, "]");
}

/* ---- reading ----------------------------------------------------------- */

/* dst = src, cut to fit. */
static void copy_cut(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* The spec's name of a key path (ddi_cbor_path) from the call's record:
 * "Fill.FillPattern", "Fields[2].X", "?70000" for a key the spec does not
 * know; and the numeric path ("10.27", "40[2].7"). */
static void name_path(struct tracer *t, const ddi_cbor_path *p, char *names, size_t nsize, char *keys, size_t ksize)
{
    const struct ddi_model_record *rec = t->call_rec;
    char prefix[512] = "";
    size_t kl = 0;
    names[0] = keys[0] = 0;
    for (unsigned i = 0; i < p->len; i++) {
        char tmp[600];
        if ((p->index_mask >> i) & 1u) {
            snprintf(tmp, sizeof tmp, "%s[%" PRIu64 "]", names, p->key[i]);
            copy_cut(names, nsize, tmp);
            kl += (size_t)snprintf(keys + kl, kl < ksize ? ksize - kl : 0, "[%" PRIu64 "]", p->key[i]);
            snprintf(prefix, sizeof prefix, "%s.", names);
            continue;
        }
        int other = (p->other_mask >> i) & 1u;
        if (other)
            kl += (size_t)snprintf(keys + kl, kl < ksize ? ksize - kl : 0, "%s?", i ? "." : "");
        else
            kl += (size_t)snprintf(keys + kl, kl < ksize ? ksize - kl : 0, "%s%" PRIu64, i ? "." : "", p->key[i]);
        if (kl >= ksize)
            kl = ksize ? ksize - 1 : 0;
        const struct ddi_model_field *f =
            rec && !other && p->key[i] <= (uint64_t)LONG_MAX ? find_field(rec, (long)p->key[i]) : NULL;
        if (f) {
            snprintf(names, nsize, "%s%s", prefix, path_of(f));
            const struct ddi_model_record *held = f->nested ? NULL : held_record(t, f);
            if (held)
                snprintf(prefix, sizeof prefix, "%s.", names);
            rec = f->nested ? f->nested : held;
        } else {
            if (other)
                snprintf(tmp, sizeof tmp, "%s%s?", names, *names ? "." : "");
            else
                snprintf(tmp, sizeof tmp, "%s%s?%" PRIu64, names, *names ? "." : "", p->key[i]);
            copy_cut(names, nsize, tmp);
            snprintf(prefix, sizeof prefix, "%s.", names);
            rec = NULL;
        }
    }
}

/* The reader's error: where in the file, which call, and the key path in
 * the call's record (the record itself when the error is at its map). */
static int fail(struct tracer *t)
{
    if (!t->rec_start) {
        ddigen_error(t->path, 0, "offset %zu: call %u: %s", t->r.error_offset, t->call,
                     ddi_cbor_status_text(t->r.status));
        return -1;
    }
    ddi_cbor_path p;
    size_t at = (size_t)(t->rec_start - t->r.start);
    ddi_cbor_path_to(t->rec_start, (size_t)(t->r.end - t->rec_start),
                     t->r.error_offset >= at ? t->r.error_offset - at : 0, &p);
    char names[512], keys[256];
    name_path(t, &p, names, sizeof names, keys, sizeof keys);
    const char *rec = t->call_rec->name;
    if (p.len)
        ddigen_error(t->path, 0, "offset %zu: call %u: %s at %s.%s (key path %s)", t->r.error_offset, t->call,
                     ddi_cbor_status_text(t->r.status), rec, names, keys);
    else
        ddigen_error(t->path, 0, "offset %zu: call %u: %s in the record %s", t->r.error_offset, t->call,
                     ddi_cbor_status_text(t->r.status), rec);
    return -1;
}

/* An error found here (a type or a range the field's type refuses), at the
 * item the reader stands at. */
static int fail_here(struct tracer *t, ddi_cbor_status status)
{
    ddi_cbor_fail(&t->r, status);
    return fail(t);
}

/* Prints an item already checked by ddi_cbor_skip_at (so nothing fails):
 * integers, bytes as a hex string, text as a string, arrays; a map as
 * {"map": [[key, value], ...]} in JSON (its keys may be any item), {k: v}
 * in text. */
static void print_any(struct tracer *t, ddi_cbor_reader *r)
{
    int major = ddi_cbor_peek(r);
    uint64_t u, n;
    int64_t s;
    const uint8_t *data;
    size_t size;
    int b;
    switch (major) {
    case DDI_CBOR_UINT:
        ddi_cbor_get_uint(r, &u);
        out(t, "%" PRIu64, u);
        return;
    case DDI_CBOR_NEGINT:
        if (ddi_cbor_get_int(r, &s)) {
            out(t, "%" PRId64, s);
        } else { /* below INT64_MIN: -1 - v, v from its 8 argument bytes */
            uint64_t v = 0;
            r->status = DDI_CBOR_OK;
            for (unsigned i = 1; i <= 8; i++)
                v = (v << 8) | r->pos[i];
            r->pos += 9;
            if (v == UINT64_MAX)
                out(t, "-18446744073709551616");
            else
                out(t, "-%" PRIu64, v + 1);
        }
        return;
    case DDI_CBOR_BYTES:
        ddi_cbor_get_bytes(r, &data, &size);
        out(t, "\"");
        for (size_t i = 0; i < size; i++)
            out(t, "%02x", data[i]);
        out(t, "\"");
        return;
    case DDI_CBOR_TEXT:
        ddi_cbor_get_text(r, &data, &size);
        if (t->json) {
            out(t, "{\"text\": ");
            out_strn(t, (const char *)data, size);
            out(t, "}");
        } else {
            if (t->printing)
                json_write_strn(t->out, (const char *)data, size);
        }
        return;
    case DDI_CBOR_ARRAY:
        ddi_cbor_get_array(r, &n);
        out(t, "[");
        for (uint64_t i = 0; i < n; i++) {
            out(t, i ? ", " : "");
            print_any(t, r);
        }
        out(t, "]");
        return;
    case DDI_CBOR_MAP:
        ddi_cbor_get_map(r, &n);
        out(t, t->json ? "{\"map\": [" : "{");
        for (uint64_t i = 0; i < n; i++) {
            out(t, i ? ", " : "");
            out(t, t->json ? "[" : "");
            print_any(t, r);
            out(t, t->json ? ", " : ": ");
            print_any(t, r);
            out(t, t->json ? "]" : "");
        }
        out(t, t->json ? "]}" : "}");
        return;
    default:
        if (ddi_cbor_take_null(r)) {
            out(t, "null");
            return;
        }
        ddi_cbor_get_bool(r, &b);
        out(t, b ? "true" : "false");
        return;
    }
}

/* Any item (a key the spec does not know, an array, a field carried as its
 * bytes), enclosed by `depth` containers: read as strictly as the
 * generated decoders skip it (ddi_cbor_skip_at: duplicate keys at every
 * depth, nesting from the top, UTF-8), then printed. */
static int value_any(struct tracer *t, unsigned depth)
{
    ddi_cbor_reader check = t->r;
    if (!ddi_cbor_skip_at(&check, depth)) {
        t->r.status = check.status;
        t->r.error_offset = check.error_offset;
        return fail(t);
    }
    print_any(t, &t->r);
    return 0;
}

/* in_union: some record enclosing rec (rec excluded) in its top record is
 * a union no discriminator selects. */
static int record_map(struct tracer *t, const struct ddi_model_record *rec, long base, const char *prefix, unsigned depth,
                      int in_union);

/* The path a reader of the record sees: full for fields of the top record,
 * prefixed for fields of a record held by value. */
static void field_path(char *buf, size_t size, const char *prefix, const struct ddi_model_field *f)
{
    snprintf(buf, size, "%s%s", prefix, path_of(f));
}

/* How a field goes on the wire (model/wire.h), as this reader checks it. */
enum wire {
    WIRE_U,      /* unsigned integer of the field's width */
    WIRE_S,      /* signed integer of the field's width */
    WIRE_PTR,    /* an address */
    WIRE_FOLLOW, /* an address, null, or the pointee's bytes */
    WIRE_MAP,    /* a nested record or a record of the spec held by value */
    WIRE_ARRAY,  /* a CBOR array of the field's element count */
    WIRE_BYTES,  /* a byte string (opaque types, floats, byte arrays) */
    WIRE_ANY     /* never written by the encoders (flexible arrays): unknown */
};

/* The class model/wire.h decides (what the marshallers write), as this
 * reader checks it; a field the spec has no type facts for is read as
 * anything. */
static enum wire wire_of(struct tracer *t, const struct ddi_model_field *f, int in_union)
{
    static const struct {
        const char *cls;
        enum wire wire;
    } classes[] = {{"nest", WIRE_MAP},   {"rec", WIRE_MAP},     {"u", WIRE_U},         {"s", WIRE_S},
                   {"ptr", WIRE_PTR},    {"follow", WIRE_FOLLOW}, {"arr-u", WIRE_ARRAY}, {"arr-s", WIRE_ARRAY},
                   {"arr-rec", WIRE_ARRAY}, {"bytes", WIRE_BYTES}, {"raw", WIRE_BYTES}, {"skip", WIRE_ANY}};
    if (t->wire_of_field[f->index])
        return (enum wire)(t->wire_of_field[f->index] - 1);
    const char *cls = ddi_wire_class(&t->wire, f->node, in_union);
    enum wire w = WIRE_ANY;
    for (size_t i = 0; cls && i < sizeof classes / sizeof classes[0]; i++)
        if (!strcmp(cls, classes[i].cls))
            w = classes[i].wire;
    t->wire_of_field[f->index] = (unsigned char)(w + 1);
    return w;
}

/* A known field's value, checked against how the field goes on the wire:
 * its type (a map, an array, bytes, an integer and its sign) and its range
 * (the field's width in bits for --arch). */
static int field_value(struct tracer *t, const struct ddi_model_field *f, long base, const char *prefix,
                       unsigned depth, int in_union)
{
    char path[512];
    field_path(path, sizeof path, prefix, f);
    const struct ddi_model_record *nested = f->nested;
    long off = trace_field_offset(&t->lay, f->node);
    enum wire w = wire_of(t, f, in_union);
    int major = ddi_cbor_peek(&t->r);
    if (major < 0)
        return value_any(t, depth + 1); /* the reader's own error */
    if (w == WIRE_MAP) {
        if (major != DDI_CBOR_MAP)
            return fail_here(t, DDI_CBOR_TYPE_MISMATCH);
        if (nested)
            return record_map(t, nested, base, prefix, depth + 1, in_union);
        /* A record held by value: its fields' paths and offsets are its own. */
        char inner[sizeof path + 1];
        snprintf(inner, sizeof inner, "%s.", path);
        const struct ddi_model_record *other = held_record(t, f);
        if (!other)
            return value_any(t, depth + 1);
        return record_map(t, other, off >= 0 && base >= 0 ? base + off : -1, inner, depth + 1, 0);
    }
    if (w == WIRE_ARRAY) {
        long count = f->array ? strtol(f->array, NULL, 10) : -1;
        ddi_cbor_reader peek = t->r;
        uint64_t n;
        if (major != DDI_CBOR_ARRAY)
            return fail_here(t, DDI_CBOR_TYPE_MISMATCH);
        if (ddi_cbor_get_array(&peek, &n) && count > 0 && n != (uint64_t)count)
            return fail_here(t, DDI_CBOR_TOO_LARGE);
        return value_any(t, depth + 1);
    }
    if (w == WIRE_BYTES || (w == WIRE_FOLLOW && major == DDI_CBOR_BYTES)) {
        if (major != DDI_CBOR_BYTES)
            return fail_here(t, DDI_CBOR_TYPE_MISMATCH);
        if (off >= 0 && base >= 0 && (base + off) % 8 == 0 && t->image) {
            /* A field carried as its bytes (LARGE_INTEGER, floats): into the image too. */
            const uint8_t *data;
            size_t size;
            ddi_cbor_reader peek = t->r;
            if (ddi_cbor_get_bytes(&peek, &data, &size) && (size_t)(base + off) / 8 + size <= t->image_size)
                memcpy(t->image + (base + off) / 8, data, size);
        }
        return value_any(t, depth + 1);
    }
    if (w == WIRE_ANY)
        return value_any(t, depth + 1);
    if (w == WIRE_FOLLOW && ddi_cbor_take_null(&t->r)) {
        out(t, "null");
        return 0;
    }
    /* An integer: unsigned for u and pointers, either sign for s. */
    if (major != DDI_CBOR_UINT && !(w == WIRE_S && major == DDI_CBOR_NEGINT))
        return fail_here(t, DDI_CBOR_TYPE_MISMATCH);
    unsigned width = trace_field_width(&t->lay, f->node);
    const uint8_t *item = t->r.pos;
    int64_t s = 0;
    uint64_t u = 0;
    if (major == DDI_CBOR_UINT ? !ddi_cbor_get_uint(&t->r, &u) : !ddi_cbor_get_int(&t->r, &s))
        return fail(t);
    if (major == DDI_CBOR_NEGINT)
        u = (uint64_t)s;
    int fits = 1;
    if (width && width < 64) {
        if (w == WIRE_S && major == DDI_CBOR_NEGINT)
            fits = s >= -((int64_t)1 << (width - 1));
        else if (w == WIRE_S)
            fits = u < (uint64_t)1 << (width - 1);
        else
            fits = u >> width == 0;
    } else if (w == WIRE_S && major == DDI_CBOR_UINT) {
        fits = u <= (uint64_t)INT64_MAX;
    }
    if (!fits) {
        t->r.pos = item;
        return fail_here(t, DDI_CBOR_TOO_LARGE);
    }
    if (off >= 0 && base >= 0 && t->image)
        trace_image_put(t->image, t->image_size, base + off, width, u);
    const char *e = enum_name(t, f, major == DDI_CBOR_UINT ? (int64_t)u : s);
    if (major == DDI_CBOR_UINT)
        out(t, t->json ? "%" PRIu64 : "%" PRIu64 " (0x%" PRIx64 ")", u, u);
    else
        out(t, "%" PRId64, s);
    if (e) {
        if (t->json) {
            out(t, ", \"enum\": ");
            out_str(t, e);
        } else {
            out(t, " %s", e);
        }
    }
    return 0;
}

/* Fields expected at this level and not seen (with --ddi-version). */
static void print_missing(struct tracer *t, const struct ddi_model_record *rec, const uint8_t *seen, const char *prefix,
                          int *first)
{
    for (size_t i = 0; i < rec->nfields; i++) {
        const struct ddi_model_field *f = rec->fields[i];
        if (!trace_layout_has(&t->lay, f->node))
            continue;
        const struct ddi_model_record *nested = f->nested;
        if (!named(f)) {
            if (nested && !(nested->is_union && ddi_wire_union_selected(&t->wire, nested->name)))
                print_missing(t, nested, seen, prefix, first);
            continue;
        }
        long id = (long)f->id;
        if (id <= 0 || (unsigned long)id >= ID_BITS || (seen[id / 8] >> (id % 8)) & 1)
            continue;
        if (f->array && strstr(f->array, "flexible"))
            continue;
        if (t->json) {
            char path[1024];
            snprintf(path, sizeof path, "%s%s", prefix, path_of(f));
            out(t, "%s{\"id\": %ld, \"path\": ", *first ? "" : ", ", id);
            out_str(t, path);
            out(t, "}");
        } else {
            out(t, "%s%s%s [%ld]", *first ? "" : ", ", prefix, path_of(f), id);
        }
        *first = 0;
    }
}

static int record_map(struct tracer *t, const struct ddi_model_record *rec, long base, const char *prefix, unsigned depth,
                      int in_union)
{
    uint64_t n;
    in_union = in_union || (rec->is_union && !ddi_wire_union_selected(&t->wire, rec->name));
    /* This map is enclosed by `depth` others (the record's own map: 0). */
    if (depth >= DDI_CBOR_MAX_DEPTH)
        return fail_here(t, DDI_CBOR_TOO_DEEP);
    if (!ddi_cbor_get_map(&t->r, &n))
        return fail(t);
    uint8_t *seen = calloc(ID_BITS / 8, 1);
    /* Every key of the map (n <= DDI_CBOR_MAX_PAIRS): a duplicate of any
     * value, 2^64 - 1 included, is refused, not only of IDs the spec has. */
    uint64_t *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
    int rc = 0;
    out(t, t->json ? "[" : "{\n");
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        uint64_t key;
        const uint8_t *key_at = t->r.pos;
        if (!ddi_cbor_get_uint(&t->r, &key)) {
            rc = fail(t);
            break;
        }
        for (uint64_t j = 0; j < i; j++)
            if (keys[j] == key) {
                char names[512], kp[256];
                ddi_cbor_path p;
                ddi_cbor_path_to(t->rec_start, (size_t)(t->r.end - t->rec_start), (size_t)(key_at - t->rec_start),
                                 &p);
                name_path(t, &p, names, sizeof names, kp, sizeof kp);
                ddigen_error(t->path, 0, "offset %zu: call %u: key %" PRIu64 " given twice in one map at %s.%s (key path %s)",
                             (size_t)(key_at - t->r.start), t->call, key, t->call_rec->name, names, kp);
                rc = -1;
                break;
            }
        if (rc)
            break;
        keys[i] = key;
        if (key < ID_BITS)
            seen[key / 8] |= (uint8_t)(1u << (key % 8));
        const struct ddi_model_field *f = key <= (uint64_t)LONG_MAX ? find_field(rec, (long)key) : NULL;
        char path[512];
        if (f)
            field_path(path, sizeof path, prefix, f);
        if (t->json) {
            out(t, "%s{\"id\": %" PRIu64, i ? ", " : "", key);
            if (f) {
                out(t, ", \"path\": ");
                out_str(t, path);
                out(t, ", \"value\": ");
            } else {
                out(t, ", \"unknown\": true, \"value\": ");
            }
        } else {
            indent(t, depth);
            if (f)
                out(t, "%s [%" PRIu64 "] = ", path, key);
            else
                out(t, "? [%" PRIu64 "] = ", key);
        }
        rc = f ? field_value(t, f, base, prefix, depth, in_union) : value_any(t, depth + 1);
        if (rc == 0) {
            if (!f)
                out(t, t->json ? "" : "   (a field this spec does not know)");
            else
                print_violations(t, path);
            out(t, t->json ? "}" : "\n");
        }
    }
    if (rc == 0) {
        if (t->json)
            out(t, "]");
        if (t->report_missing) {
            int first = 1;
            if (t->json)
                out(t, ", \"missing\": [");
            else if (t->printing) {
                /* Only print the line when something is missing. */
                char *buf = NULL;
                size_t len = 0;
                FILE *saved = t->out, *mem = open_memstream(&buf, &len);
                t->out = mem;
                print_missing(t, rec, seen, prefix, &first);
                fclose(mem);
                t->out = saved;
                if (!first) {
                    indent(t, depth);
                    out(t, "missing: %s\n", buf);
                }
                free(buf);
                first = 1;
            }
            if (t->json) {
                print_missing(t, rec, seen, prefix, &first);
                out(t, "]");
            }
        }
        if (!t->json && depth) {
            indent(t, depth - 1);
            out(t, "}");
        } else if (!t->json) {
            out(t, "}\n");
        }
    }
    free(keys);
    free(seen);
    return rc;
}

/* One call: the head, then the record twice (image, then print). */
static int one_call(struct tracer *t, unsigned index, const ddi_trace_call_head *h, size_t offset)
{
    const struct ddi_model_record *rec = find_record_by_id(t, h->record_id);
    const char *ddi = ddi_name(t, h->ddi_id);
    const char *dir = h->direction ? "out" : "in";
    if (!rec) {
        ddigen_error(t->path, 0, "offset %zu: call %u: record ID %u is not in the spec", offset, index, h->record_id);
        return -1;
    }
    const char *name = rec->name ? rec->name : "";
    t->call_rec = rec;
    t->rec_start = t->r.pos;
    /* Pass 1: the record's bytes for the rules hook. */
    ddi_cbor_reader start = t->r;
    t->image_size = trace_record_size(&t->lay, rec->node);
    t->image = t->image_size ? calloc(1, t->image_size) : NULL;
    t->printing = 0;
    t->nviol = 0;
    int rc = record_map(t, rec, 0, "", 0, 0);
    if (rc == 0) {
        struct trace_rules_query q = {t->lay.model,  rec->node, t->lay.arch,  t->lay.version_name,
                                      h->direction, t->image, t->image_size};
        t->rules = trace_check_rules(&q, t->viol, MAX_VIOLATIONS, &t->nviol);
        /* Pass 2: print. */
        t->r = start;
        t->printing = 1;
        char ddi_buf[16];
        snprintf(ddi_buf, sizeof ddi_buf, "0x%08X", h->ddi_id);
        const char *rules = t->rules == TRACE_RULES_CHECKED ? "checked" : "not checked";
        if (t->json) {
            out(t, "%s\n  {\"call\": %u, \"offset\": %zu, \"ddi\": ", index ? "," : "", index, offset);
            out_str(t, ddi ? ddi : ddi_buf);
            out(t, ", \"ddi_id\": %u, \"direction\": \"%s\", \"record\": ", h->ddi_id, dir);
            out_str(t, name);
            out(t, ", \"record_id\": %u, \"rules\": \"%s\", \"violations\": %zu, \"fields\": ", h->record_id,
                t->rules == TRACE_RULES_CHECKED ? "checked" : "not-checked", t->nviol);
        } else {
            out(t, "call %u @%zu: %s %s %s [record %u]; rules %s%s", index, offset, ddi ? ddi : ddi_buf, dir, name,
                h->record_id, rules, t->rules == TRACE_RULES_CHECKED && t->nviol ? ", violations: " : " ");
        }
        if (!t->json && t->rules == TRACE_RULES_CHECKED && t->nviol)
            out(t, "%zu ", t->nviol);
        rc = record_map(t, rec, 0, "", 0, 0);
        if (t->json)
            out(t, "}");
    }
    free(t->image);
    t->image = NULL;
    t->rec_start = NULL;
    return rc;
}

static int run(struct tracer *t, const uint8_t *data, size_t size)
{
    ddi_cbor_reader_init(&t->r, data, size);
    t->printing = 1;
    if (t->json) {
        out(t, "{\"trace\": ");
        out_str(t, t->path);
        out(t, ", \"arch\": ");
        out_str(t, t->lay.arch);
        out(t, ", \"ddi_version\": ");
        out_str(t, t->lay.version_name ? t->lay.version_name : "");
        out(t, ", \"calls\": [");
    }
    ddi_trace_call_head h;
    unsigned index = 0;
    for (;;) {
        size_t offset = (size_t)(t->r.pos - t->r.start);
        t->call = index;
        t->call_offset = offset;
        t->rec_start = NULL;
        int rc = ddi_trace_next(&t->r, &h);
        if (rc == 0)
            break;
        if (rc < 0)
            return fail(t);
        if (one_call(t, index++, &h, offset))
            return -1;
    }
    t->printing = 1;
    if (t->json)
        out(t, "\n]}\n");
    return 0;
}

struct trace_session {
    struct tracer t;
};

/* Does the first named leaf field of the layout carry the layout stage's
 * type facts? A spec written before they existed has none, and how its
 * fields go on the wire is then not known (it is never guessed). */
static int has_type_facts(xmlNodePtr layout)
{
    for (xmlNodePtr r = sx_child(layout, "record"); r; r = sx_next(r, "record"))
        for (xmlNodePtr f = sx_child(r, "field"); f; f = sx_next(f, "field"))
            if (sx_get(f, "name") && *sx_get(f, "name") && !sx_child(f, "record")) {
                int facts = sx_get(f, "scalar") != NULL;
                for (xmlNodePtr k = sx_child(f, "type-size"); k && !facts; k = sx_next(k, "type-size"))
                    facts = sx_get(k, "scalar") != NULL;
                return facts;
            }
    return 1; /* no field to read */
}

struct trace_session *trace_session_open(const char *spec_path, const char *arch, const char *version, int json)
{
    struct trace_session *s = calloc(1, sizeof *s);
    struct tracer *t = &s->t;
    t->json = json;
    t->report_missing = version != NULL;
    t->spec = spec_load(spec_path);
    t->layout = t->spec ? sx_part(t->spec, "layout") : NULL;
    if (t->spec && !t->layout)
        ddigen_error(spec_path, 0, "the spec has no <layout>");
    if (!t->layout || trace_layout_init(&t->lay, t->spec, arch, version) != 0 || index_numbers(t) != 0) {
        trace_session_close(s);
        return NULL;
    }
    if (!has_type_facts(t->layout)) {
        ddigen_error(spec_path, 0, "the spec has no type facts (scalar= on its fields, written by `ddigen layout`): "
                                   "regenerate it with this ddigen to read traces");
        trace_session_close(s);
        return NULL;
    }
    ddi_wire_index_build(&t->wire, t->layout, sx_part(t->spec, "merge"));
    t->wire_of_field = calloc(t->m->nfields ? t->m->nfields : 1, 1);
    if (!t->wire_of_field)
        abort();
    for (size_t i = 0; i < t->m->nenums; i++) {
        const struct ddi_model_enum *e = &t->m->enums[i];
        const char *tag = e->tag ? e->tag : "";
        struct vec *same_tag = strmap_get(&t->enums, tag);
        if (!same_tag) {
            same_tag = calloc(1, sizeof *same_tag);
            if (!same_tag)
                abort();
            strmap_put(&t->enums, tag, same_tag);
        }
        vec_push(same_tag, (void *)e);
    }
    return s;
}

int trace_session_run(struct trace_session *s, const char *name, const uint8_t *data, size_t size, char **text,
                      size_t *text_len)
{
    struct tracer *t = &s->t;
    t->path = name;
    t->out = open_memstream(text, text_len);
    int rc = run(t, data, size);
    fclose(t->out);
    t->out = NULL;
    free(t->image);
    t->image = NULL;
    return rc == 0 ? 0 : 1;
}

void trace_session_close(struct trace_session *s)
{
    if (!s)
        return;
    trace_rules_release();
    trace_layout_free(&s->t.lay);
    for (size_t i = 0; i < s->t.enums.cap; i++)
        if (s->t.enums.slots[i].key) {
            vec_free(s->t.enums.slots[i].value);
            free(s->t.enums.slots[i].value);
        }
    strmap_free(&s->t.enums);
    ddi_wire_index_free(&s->t.wire);
    free(s->t.wire_of_field);
    free(s->t.records);
    free(s->t.ddis);
    xmlFreeDoc(s->t.spec);
    free(s);
}

static const char usage[] = "usage: ddigen trace FILE --spec SPEC.xml [--format text|json] [--arch x86|x64|arm64]\n"
                            "                    [--ddi-version V] [-o OUT]\n"
                            "  prints a trace of DDI calls (ddi_trace.h) naming fields from the spec alone;\n"
                            "  --ddi-version (short name, e.g. WDDM3_1) also lists the fields the spec has there\n"
                            "  that a call lacks. Defaults: x64, the spec's latest version, text, stdout.\n";

int ddigen_cmd_trace(int argc, char **argv)
{
    static const struct option options[] = {{"spec", required_argument, NULL, 's'},
                                            {"format", required_argument, NULL, 'f'},
                                            {"arch", required_argument, NULL, 'a'},
                                            {"ddi-version", required_argument, NULL, 'v'},
                                            {"output", required_argument, NULL, 'o'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    const char *spec_path = NULL, *format = "text", *arch = NULL, *version = NULL, *out_path = "-";
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "o:h", options)) != -1) {
        switch (c) {
        case 's': spec_path = optarg; break;
        case 'f': format = optarg; break;
        case 'a': arch = optarg; break;
        case 'v': version = optarg; break;
        case 'o': out_path = optarg; break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (!spec_path || optind != argc - 1 || (strcmp(format, "text") && strcmp(format, "json"))) {
        if (format && strcmp(format, "text") && strcmp(format, "json"))
            ddigen_error(NULL, 0, "trace: --format must be text or json, not '%s'", ddigen_quote(format));
        fputs(usage, stderr);
        return 2;
    }
    struct trace_session *ts = trace_session_open(spec_path, arch, version, !strcmp(format, "json"));
    char *data = NULL, *text = NULL;
    size_t size = 0, text_len = 0;
    int rc = 1;
    if (ts && ddigen_read_file(argv[optind], &data, &size) == 0) {
        int ok = trace_session_run(ts, argv[optind], (const uint8_t *)data, size, &text, &text_len) == 0;
        /* Nothing is written for a trace that did not read to its end. */
        rc = ok && ddigen_write_file(out_path, text, text_len) == 0 ? 0 : 1;
    }
    free(text);
    free(data);
    trace_session_close(ts);
    return rc;
}
