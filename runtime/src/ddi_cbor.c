/* ddi_cbor: CBOR writer and strict reader for kernel code; see ddi_cbor.h. */
#include "ddi_cbor.h"

/* --- writer ---------------------------------------------------------------- */

void ddi_cbor_writer_init(ddi_cbor_writer *w, void *buffer, size_t size)
{
    w->start = (uint8_t *)buffer;
    w->pos = w->start;
    w->end = w->start ? w->start + size : w->start;
    w->needed = 0;
}

int ddi_cbor_writer_fits(const ddi_cbor_writer *w)
{
    return (size_t)(w->pos - w->start) == w->needed;
}

/* Appends n bytes when they fit and everything before them did; once one
 * item did not fit nothing more is written, so the buffer never holds an
 * item that follows a missing one. */
static void put_raw(ddi_cbor_writer *w, const uint8_t *bytes, size_t n)
{
    if (ddi_cbor_writer_fits(w) && (size_t)(w->end - w->pos) >= n) {
        size_t i;
        for (i = 0; i < n; i++)
            w->pos[i] = bytes[i];
        w->pos += n;
    }
    w->needed += n;
}

/* The initial byte and argument of an item, in the shortest form. */
static void put_head(ddi_cbor_writer *w, unsigned major, uint64_t value)
{
    uint8_t head[9];
    size_t n, i;
    uint8_t type = (uint8_t)(major << 5);
    if (value < 24) {
        head[0] = (uint8_t)(type | value);
        n = 1;
    } else {
        size_t width = value <= 0xFFu ? 1 : value <= 0xFFFFu ? 2 : value <= 0xFFFFFFFFu ? 4 : 8;
        head[0] = (uint8_t)(type | (width == 1 ? 24u : width == 2 ? 25u : width == 4 ? 26u : 27u));
        for (i = 0; i < width; i++)
            head[1 + i] = (uint8_t)(value >> (8u * (width - 1u - i)));
        n = 1 + width;
    }
    put_raw(w, head, n);
}

void ddi_cbor_put_uint(ddi_cbor_writer *w, uint64_t value)
{
    put_head(w, DDI_CBOR_UINT, value);
}

void ddi_cbor_put_int(ddi_cbor_writer *w, int64_t value)
{
    if (value >= 0)
        put_head(w, DDI_CBOR_UINT, (uint64_t)value);
    else /* -1 - value, without overflow at INT64_MIN */
        put_head(w, DDI_CBOR_NEGINT, ~(uint64_t)value);
}

void ddi_cbor_put_bytes(ddi_cbor_writer *w, const void *data, size_t size)
{
    put_head(w, DDI_CBOR_BYTES, size);
    put_raw(w, (const uint8_t *)data, size);
}

void ddi_cbor_put_array(ddi_cbor_writer *w, uint64_t count)
{
    put_head(w, DDI_CBOR_ARRAY, count);
}

void ddi_cbor_put_map(ddi_cbor_writer *w, uint64_t count)
{
    put_head(w, DDI_CBOR_MAP, count);
}

void ddi_cbor_put_bool(ddi_cbor_writer *w, int value)
{
    put_head(w, DDI_CBOR_SIMPLE, value ? 21u : 20u);
}

void ddi_cbor_put_null(ddi_cbor_writer *w)
{
    put_head(w, DDI_CBOR_SIMPLE, 22u);
}

/* --- reader ---------------------------------------------------------------- */

void ddi_cbor_reader_init(ddi_cbor_reader *r, const void *data, size_t size)
{
    r->start = (const uint8_t *)data;
    r->pos = r->start;
    r->end = r->start ? r->start + size : r->start;
    r->status = DDI_CBOR_OK;
    r->error_offset = 0;
}

int ddi_cbor_fail(ddi_cbor_reader *r, ddi_cbor_status status)
{
    if (r->status == DDI_CBOR_OK) {
        r->status = status;
        r->error_offset = (size_t)(r->pos - r->start);
    }
    return 0;
}

int ddi_cbor_at_end(const ddi_cbor_reader *r)
{
    return r->status == DDI_CBOR_OK && r->pos == r->end;
}

static size_t left(const ddi_cbor_reader *r)
{
    return (size_t)(r->end - r->pos);
}

/* Decodes the head at pos without consuming it; returns its size in bytes,
 * or 0 after recording why it is refused. */
static size_t read_head(ddi_cbor_reader *r, unsigned *major, uint64_t *value)
{
    if (r->status != DDI_CBOR_OK)
        return 0;
    if (!left(r))
        return (size_t)ddi_cbor_fail(r, DDI_CBOR_TRUNCATED);
    uint8_t ib = r->pos[0];
    unsigned ai = ib & 31u;
    *major = ib >> 5;
    if (ai < 24) {
        *value = ai;
    } else if (ai <= 27) {
        size_t width = (size_t)1 << (ai - 24), i;
        uint64_t v = 0;
        if (left(r) < 1 + width)
            return (size_t)ddi_cbor_fail(r, DDI_CBOR_TRUNCATED);
        for (i = 0; i < width; i++)
            v = (v << 8) | r->pos[1 + i];
        static const uint64_t below[4] = {24u, 0x100u, 0x10000u, 0x100000000u};
        if (v < below[ai - 24])
            return (size_t)ddi_cbor_fail(r, DDI_CBOR_NOT_SHORTEST);
        *value = v;
    } else {
        return (size_t)ddi_cbor_fail(r, DDI_CBOR_UNSUPPORTED); /* reserved, or indefinite length */
    }
    if (*major == DDI_CBOR_TAG || (*major == DDI_CBOR_SIMPLE && (ai >= 24 || *value < 20 || *value > 22)))
        return (size_t)ddi_cbor_fail(r, DDI_CBOR_UNSUPPORTED);
    return ai < 24 ? 1 : 1 + ((size_t)1 << (ai - 24));
}

/* Consumes a head of the given major type. */
static int take_head(ddi_cbor_reader *r, unsigned want, uint64_t *value)
{
    unsigned major;
    size_t n = read_head(r, &major, value);
    if (!n)
        return 0;
    if (major != want)
        return ddi_cbor_fail(r, DDI_CBOR_TYPE_MISMATCH);
    r->pos += n;
    return 1;
}

int ddi_cbor_peek(const ddi_cbor_reader *r)
{
    if (r->status != DDI_CBOR_OK || r->pos == r->end)
        return -1;
    return r->pos[0] >> 5;
}

int ddi_cbor_get_uint(ddi_cbor_reader *r, uint64_t *value)
{
    return take_head(r, DDI_CBOR_UINT, value);
}

int ddi_cbor_get_int(ddi_cbor_reader *r, int64_t *value)
{
    uint64_t v;
    const uint8_t *head = r->pos;
    int negative = ddi_cbor_peek(r) == DDI_CBOR_NEGINT;
    if (!take_head(r, negative ? DDI_CBOR_NEGINT : DDI_CBOR_UINT, &v))
        return 0;
    if (v > (uint64_t)INT64_MAX) {
        r->pos = head; /* well formed, but beyond int64_t */
        return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
    }
    *value = negative ? -1 - (int64_t)v : (int64_t)v;
    return 1;
}

int ddi_cbor_get_bytes(ddi_cbor_reader *r, const uint8_t **data, size_t *size)
{
    uint64_t n;
    const uint8_t *head = r->pos;
    if (!take_head(r, DDI_CBOR_BYTES, &n))
        return 0;
    if (n > left(r)) {
        r->pos = head;
        return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
    }
    *data = r->pos;
    *size = (size_t)n;
    r->pos += n;
    return 1;
}

/* A container of count items needs at least per_item bytes each. */
static int take_container(ddi_cbor_reader *r, unsigned major, uint64_t per_item, uint64_t *count)
{
    const uint8_t *head = r->pos;
    if (!take_head(r, major, count))
        return 0;
    if (*count > left(r) / per_item) {
        r->pos = head;
        return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
    }
    return 1;
}

int ddi_cbor_get_array(ddi_cbor_reader *r, uint64_t *count)
{
    return take_container(r, DDI_CBOR_ARRAY, 1, count);
}

int ddi_cbor_get_map(ddi_cbor_reader *r, uint64_t *count)
{
    const uint8_t *head = r->pos;
    if (!take_container(r, DDI_CBOR_MAP, 2, count))
        return 0;
    if (*count > DDI_CBOR_MAX_PAIRS) {
        r->pos = head;
        return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
    }
    return 1;
}

/* Whether [p, p + n) is valid UTF-8 (RFC 3629). */
static int utf8_valid(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = p[i];
        size_t k, need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0; /* overlong */
            else if (c == 0xED)
                hi = 0x9F; /* surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90; /* overlong */
            else if (c == 0xF4)
                hi = 0x8F; /* above U+10FFFF */
        } else
            return 0;
        if (n - i <= need)
            return 0;
        for (k = 1; k <= need; k++) {
            uint8_t b = p[i + k];
            if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF))
                return 0;
        }
        i += need + 1;
    }
    return 1;
}

int ddi_cbor_get_text(ddi_cbor_reader *r, const uint8_t **data, size_t *size)
{
    uint64_t n;
    const uint8_t *head = r->pos;
    if (!take_head(r, DDI_CBOR_TEXT, &n))
        return 0;
    if (n > left(r)) {
        r->pos = head;
        return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
    }
    if (!utf8_valid(r->pos, (size_t)n)) {
        r->pos = head;
        return ddi_cbor_fail(r, DDI_CBOR_BAD_TEXT);
    }
    *data = r->pos;
    *size = (size_t)n;
    r->pos += n;
    return 1;
}

int ddi_cbor_get_bool(ddi_cbor_reader *r, int *value)
{
    uint64_t v;
    const uint8_t *head = r->pos;
    if (!take_head(r, DDI_CBOR_SIMPLE, &v))
        return 0;
    if (v != 20 && v != 21) {
        r->pos = head;
        return ddi_cbor_fail(r, DDI_CBOR_TYPE_MISMATCH);
    }
    *value = v == 21;
    return 1;
}

int ddi_cbor_take_null(ddi_cbor_reader *r)
{
    if (r->status != DDI_CBOR_OK || !left(r) || r->pos[0] != 0xF6u)
        return 0;
    r->pos++;
    return 1;
}

/* The end of the well-formed item at p (< end), or 0 when it is not one.
 * No stack: a count of the items still to pass, which every container
 * raises by its children; used on items already read strictly (a map's
 * earlier pairs) and to find an error's path. */
static const uint8_t *item_end(const uint8_t *p, const uint8_t *end)
{
    uint64_t pending = 1;
    while (pending) {
        ddi_cbor_reader h;
        unsigned major;
        uint64_t value;
        size_t n;
        ddi_cbor_reader_init(&h, p, (size_t)(end - p));
        n = read_head(&h, &major, &value);
        if (!n)
            return 0;
        pending--;
        if (major == DDI_CBOR_BYTES || major == DDI_CBOR_TEXT) {
            if (value > (uint64_t)(end - p) - n)
                return 0;
            p += n + (size_t)value;
        } else if (major == DDI_CBOR_ARRAY || major == DDI_CBOR_MAP) {
            uint64_t items = major == DDI_CBOR_MAP ? 2u : 1u;
            if (value > ((uint64_t)(end - p) - n) / items)
                return 0;
            pending += value * items; /* at most the bytes left: no overflow */
            p += n;
        } else {
            p += n;
        }
    }
    return p;
}

/* Whether the key [k, k_end) equals one of the first `pairs` keys of the
 * map whose pairs start at p (all read already, so well formed). */
static int key_seen_before(const uint8_t *p, const uint8_t *end, uint64_t pairs, const uint8_t *k,
                           const uint8_t *k_end)
{
    size_t klen = (size_t)(k_end - k);
    for (; pairs; pairs--) {
        const uint8_t *e = item_end(p, end);
        if (!e)
            return 0;
        if ((size_t)(e - p) == klen) {
            size_t i = 0;
            while (i < klen && p[i] == k[i])
                i++;
            if (i == klen)
                return 1;
        }
        p = item_end(e, end);
        if (!p)
            return 0;
    }
    return 0;
}

int ddi_cbor_skip_at(ddi_cbor_reader *r, unsigned depth)
{
    /* Per open container: items still to read, items in all; for a map,
     * where its pairs start and where the current key starts. */
    struct level {
        uint64_t pending, total;
        const uint8_t *pairs, *key;
    } lv[DDI_CBOR_MAX_DEPTH + 1];
    unsigned d = 0;
    if (r->status != DDI_CBOR_OK)
        return 0;
    lv[0].pending = 1;
    lv[0].total = 1;
    lv[0].pairs = 0;
    lv[0].key = 0;
    for (;;) {
        unsigned major;
        uint64_t value, index;
        size_t n;
        while (lv[d].pending == 0) {
            if (d == 0)
                return 1;
            d--;
        }
        index = lv[d].total - lv[d].pending;
        lv[d].pending--;
        if (lv[d].pairs) {
            if ((index & 1u) == 0) {
                lv[d].key = r->pos;
            } else if (key_seen_before(lv[d].pairs, r->end, index / 2u, lv[d].key, r->pos)) {
                r->pos = lv[d].key;
                return ddi_cbor_fail(r, DDI_CBOR_DUPLICATE_KEY);
            }
        }
        n = read_head(r, &major, &value);
        if (!n)
            return 0;
        if (major == DDI_CBOR_BYTES) {
            if (value > left(r) - n)
                return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
            r->pos += n + (size_t)value;
            continue;
        }
        if (major == DDI_CBOR_TEXT) {
            const uint8_t *data;
            size_t size;
            if (!ddi_cbor_get_text(r, &data, &size))
                return 0;
            continue;
        }
        if (major == DDI_CBOR_ARRAY || major == DDI_CBOR_MAP) {
            uint64_t per_item = major == DDI_CBOR_MAP ? 2u : 1u;
            if (value > (left(r) - n) / per_item || (major == DDI_CBOR_MAP && value > DDI_CBOR_MAX_PAIRS))
                return ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
            /* This container is enclosed by depth + d others. */
            if (depth + d >= DDI_CBOR_MAX_DEPTH)
                return ddi_cbor_fail(r, DDI_CBOR_TOO_DEEP);
            r->pos += n;
            if (value) {
                d++;
                lv[d].pending = value * per_item;
                lv[d].total = lv[d].pending;
                lv[d].pairs = major == DDI_CBOR_MAP ? r->pos : 0;
                lv[d].key = 0;
            }
            continue;
        }
        r->pos += n;
    }
}

int ddi_cbor_skip(ddi_cbor_reader *r)
{
    return ddi_cbor_skip_at(r, 0);
}

/* Appends the map key at p to the path (its value, or a mark when it is
 * not an unsigned integer). */
static void path_key(ddi_cbor_path *path, const uint8_t *p, const uint8_t *end)
{
    ddi_cbor_reader h;
    uint64_t v = 0;
    ddi_cbor_reader_init(&h, p, (size_t)(end - p));
    if (!ddi_cbor_get_uint(&h, &v)) {
        v = 0;
        path->other_mask |= (uint32_t)1 << path->len;
    }
    path->key[path->len++] = v;
}

void ddi_cbor_path_to(const void *data, size_t size, size_t offset, ddi_cbor_path *path)
{
    const uint8_t *p = (const uint8_t *)data, *end = p + size, *at = p + (offset < size ? offset : size);
    path->len = 0;
    path->index_mask = 0;
    path->other_mask = 0;
    if (!data)
        return;
    while (path->len < DDI_CBOR_MAX_DEPTH) {
        ddi_cbor_reader h;
        unsigned major;
        uint64_t value, k, items;
        size_t n;
        const uint8_t *key = 0;
        ddi_cbor_reader_init(&h, p, (size_t)(end - p));
        n = read_head(&h, &major, &value);
        if (!n || (major != DDI_CBOR_ARRAY && major != DDI_CBOR_MAP) || at < p + n)
            return; /* the error is at this item or its head */
        items = major == DDI_CBOR_MAP ? 2u * value : value;
        if (value > (uint64_t)(end - p)) /* a count the bytes cannot hold */
            return;
        p += n;
        for (k = 0; k < items; k++) {
            const uint8_t *e = item_end(p, end);
            if (!e || at < e)
                break;
            if (major == DDI_CBOR_MAP && (k & 1u) == 0)
                key = p;
            p = e;
        }
        if (k == items)
            return; /* past the container's last item */
        if (major == DDI_CBOR_MAP && (k & 1u) == 0) {
            /* The error is in (or at) a key: named when it can be read. */
            ddi_cbor_reader h2;
            uint64_t v;
            ddi_cbor_reader_init(&h2, p, (size_t)(end - p));
            if (ddi_cbor_get_uint(&h2, &v))
                path->key[path->len++] = v;
            return;
        }
        if (major == DDI_CBOR_MAP) {
            path_key(path, key, end);
        } else {
            path->index_mask |= (uint32_t)1 << path->len;
            path->key[path->len++] = k;
        }
    }
}

const char *ddi_cbor_status_text(ddi_cbor_status status)
{
    switch (status) {
    case DDI_CBOR_OK: return "ok";
    case DDI_CBOR_TRUNCATED: return "truncated";
    case DDI_CBOR_NOT_SHORTEST: return "not in shortest form";
    case DDI_CBOR_UNSUPPORTED: return "unsupported item (indefinite length, float, tag or reserved value)";
    case DDI_CBOR_TYPE_MISMATCH: return "type mismatch";
    case DDI_CBOR_TOO_LARGE: return "length or value too large";
    case DDI_CBOR_TOO_DEEP: return "nested too deeply";
    case DDI_CBOR_DUPLICATE_KEY: return "duplicate key";
    case DDI_CBOR_MISSING: return "required key missing";
    case DDI_CBOR_BAD_TEXT: return "text string not valid UTF-8";
    }
    return "unknown error";
}
