/* ddi_marshal_rt: the out-of-line helpers of the generated marshallers (the
 * rare and the long paths); see ddi_marshal_rt.h. Kernel C: no CRT. */
#include "ddi_marshal_rt.h"

void ddi_mrt_ctx_init(ddi_marshal_ctx *c, const void *data, size_t size, ddi_marshal_arena *arena,
                      ddi_marshal_result *res)
{
    ddi_cbor_reader_init(&c->r, data, size);
    c->arena = arena;
    c->res = res;
    c->depth = 0;
    res->status = DDI_CBOR_OK;
    res->error_offset = 0;
    res->error_record = 0;
    res->error_key = 0;
    res->error_path.len = 0;
    res->error_path.index_mask = 0;
    res->error_path.other_mask = 0;
    res->unknown = 0;
    res->first_unknown_record = 0;
    res->first_unknown_key = 0;
    res->missing = 0;
    res->first_missing_record = 0;
    res->first_missing_key = 0;
}

int ddi_mrt_fail(ddi_marshal_ctx *c, int status, uint32_t record, uint32_t key)
{
    if (c->res->status == DDI_CBOR_OK) {
        c->res->status = status;
        c->res->error_offset = (size_t)(c->r.pos - c->r.start);
        c->res->error_record = record;
        c->res->error_key = key;
        ddi_cbor_path_to(c->r.start, (size_t)(c->r.end - c->r.start), c->res->error_offset, &c->res->error_path);
    }
    /* Stop the reader too, so every later read fails at once. */
    if (c->r.status == DDI_CBOR_OK)
        ddi_cbor_fail(&c->r, status <= DDI_CBOR_STATUS_LAST ? (ddi_cbor_status)status : DDI_CBOR_TOO_LARGE);
    return 0;
}

int ddi_mrt_fail_read(ddi_marshal_ctx *c, uint32_t record, uint32_t key)
{
    if (c->res->status == DDI_CBOR_OK) {
        c->res->status = c->r.status != DDI_CBOR_OK ? (int)c->r.status : DDI_CBOR_TYPE_MISMATCH;
        c->res->error_offset = c->r.status != DDI_CBOR_OK ? c->r.error_offset : (size_t)(c->r.pos - c->r.start);
        c->res->error_record = record;
        c->res->error_key = key;
        ddi_cbor_path_to(c->r.start, (size_t)(c->r.end - c->r.start), c->res->error_offset, &c->res->error_path);
    }
    return 0;
}

int ddi_mrt_ctx_finish(ddi_marshal_ctx *c)
{
    if (c->res->status != DDI_CBOR_OK)
        return 0;
    if (c->r.status != DDI_CBOR_OK)
        return ddi_mrt_fail_read(c, 0, 0);
    if (c->r.pos != c->r.end)
        return ddi_mrt_fail(c, DDI_MARSHAL_TRAILING, 0, 0);
    return 1;
}

int ddi_mrt_enter_slow(ddi_marshal_ctx *c, uint32_t record, uint64_t *count)
{
    if (c->depth >= DDI_CBOR_MAX_DEPTH)
        return ddi_mrt_fail(c, DDI_CBOR_TOO_DEEP, record, 0);
    if (!ddi_cbor_get_map(&c->r, count))
        return ddi_mrt_fail_read(c, record, 0);
    c->depth++;
    return 1;
}

int ddi_mrt_unknown(ddi_marshal_ctx *c, uint32_t record, uint64_t key, const uint8_t *pairs, uint64_t index,
                    unsigned words)
{
    uint32_t key32 = key > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)key;
    if (key >= (uint64_t)words * 64u) {
        /* Not in the bitmap: compare with the keys read before it (all
         * unsigned integers, values read already, so well formed). */
        ddi_cbor_reader s;
        uint64_t j, k;
        ddi_cbor_reader_init(&s, pairs, (size_t)(c->r.end - pairs));
        for (j = 0; j < index; j++) {
            if (!ddi_cbor_get_uint(&s, &k) || !ddi_cbor_skip_at(&s, c->depth))
                break;
            if (k == key)
                return ddi_mrt_fail(c, DDI_CBOR_DUPLICATE_KEY, record, key32);
        }
    }
    if (c->res->unknown++ == 0) {
        c->res->first_unknown_record = record;
        c->res->first_unknown_key = key32;
    }
    if (!ddi_cbor_skip_at(&c->r, c->depth))
        return ddi_mrt_fail_read(c, record, key32);
    return 1;
}

void ddi_mrt_missing(ddi_marshal_ctx *c, uint32_t record, uint32_t key)
{
    if (c->res->missing++ == 0) {
        c->res->first_missing_record = record;
        c->res->first_missing_key = key;
    }
}

void ddi_mrt_put_follow(ddi_cbor_writer *w, const void *p, uint64_t count, size_t elem, unsigned flags)
{
    if (!p) {
        ddi_cbor_put_null(w);
        return;
    }
    /* count * elem must fit size_t (a 32-bit kernel, a wild count). */
    if ((flags & DDI_MARSHAL_NO_FOLLOW) || (elem && count > (uint64_t)(~(size_t)0) / elem)) {
        ddi_cbor_put_uint(w, (uint64_t)(uintptr_t)p);
        return;
    }
    ddi_cbor_put_bytes(w, p, (size_t)count * elem);
}

int ddi_mrt_get_raw(ddi_marshal_ctx *c, uint32_t record, uint32_t key, void *p, size_t n)
{
    const uint8_t *data;
    size_t size, i;
    if (!ddi_cbor_get_bytes(&c->r, &data, &size))
        return ddi_mrt_fail_read(c, record, key);
    if (size != n)
        return ddi_mrt_fail(c, DDI_MARSHAL_SIZE_MISMATCH, record, key);
    for (i = 0; i < n; i++)
        ((uint8_t *)p)[i] = data[i];
    return 1;
}

int ddi_mrt_get_ptr_slow(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uintptr_t *p)
{
    uint64_t v;
    if (!ddi_cbor_get_uint(&c->r, &v))
        return ddi_mrt_fail_read(c, record, key);
    if (v != (uint64_t)(uintptr_t)v)
        return ddi_mrt_fail(c, DDI_CBOR_TOO_LARGE, record, key);
    *p = (uintptr_t)v;
    return 1;
}

int ddi_mrt_get_follow(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uintptr_t *p, size_t *count_bytes)
{
    const uint8_t *data;
    size_t size, i, at;
    int major = ddi_cbor_peek(&c->r);
    *count_bytes = ~(size_t)0;
    if (ddi_cbor_take_null(&c->r)) {
        *p = 0;
        return 1;
    }
    if (major == DDI_CBOR_UINT)
        return ddi_mrt_get_ptr(c, record, key, p);
    if (!ddi_cbor_get_bytes(&c->r, &data, &size))
        return ddi_mrt_fail_read(c, record, key);
    if (!c->arena)
        return ddi_mrt_fail(c, DDI_MARSHAL_ARENA_FULL, record, key);
    at = (c->arena->used + 15u) & ~(size_t)15u;
    if (at < c->arena->used || at > c->arena->size || c->arena->size - at < size)
        return ddi_mrt_fail(c, DDI_MARSHAL_ARENA_FULL, record, key);
    for (i = 0; i < size; i++)
        c->arena->base[at + i] = data[i];
    c->arena->used = at + size;
    *p = (uintptr_t)(c->arena->base + at);
    *count_bytes = size;
    return 1;
}

int ddi_mrt_get_array(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uint64_t n)
{
    uint64_t count;
    if (c->depth >= DDI_CBOR_MAX_DEPTH)
        return ddi_mrt_fail(c, DDI_CBOR_TOO_DEEP, record, key);
    if (!ddi_cbor_get_array(&c->r, &count))
        return ddi_mrt_fail_read(c, record, key);
    if (count != n)
        return ddi_mrt_fail(c, DDI_MARSHAL_SIZE_MISMATCH, record, key);
    c->depth++;
    return 1;
}

/* --- slow ways of the local-cursor writer and reader (see the header) --- */

void ddi_mrt_put_h_slow(ddi_cbor_writer *w, uint8_t major, uint64_t v)
{
    switch (major >> 5) {
    case DDI_CBOR_UINT: ddi_cbor_put_uint(w, v); break;
    case DDI_CBOR_NEGINT: ddi_cbor_put_int(w, (int64_t)~v); break;
    case DDI_CBOR_ARRAY: ddi_cbor_put_array(w, v); break;
    case DDI_CBOR_MAP: ddi_cbor_put_map(w, v); break;
    default: ddi_cbor_put_null(w); break; /* 0xE0 | 22, the only simple value written this way */
    }
}

void ddi_mrt_put_kh_slow(ddi_cbor_writer *w, uint64_t key, uint8_t major, uint64_t v)
{
    ddi_cbor_put_uint(w, key);
    ddi_mrt_put_h_slow(w, major, v);
}

void ddi_mrt_put_kbytes_slow(ddi_cbor_writer *w, uint64_t key, const void *p, size_t n)
{
    ddi_cbor_put_uint(w, key);
    ddi_cbor_put_bytes(w, p, n);
}

const uint8_t *ddi_mrt_get_u_at(ddi_marshal_ctx *c, const uint8_t *p, uint32_t record, uint32_t key, uint64_t *v)
{
    c->r.pos = p;
    if (!ddi_cbor_get_uint(&c->r, v)) {
        (void)ddi_mrt_fail_read(c, record, key);
        return 0;
    }
    return c->r.pos;
}

const uint8_t *ddi_mrt_get_s_at(ddi_marshal_ctx *c, const uint8_t *p, uint32_t record, uint32_t key, int64_t *v)
{
    c->r.pos = p;
    if (!ddi_cbor_get_int(&c->r, v)) {
        (void)ddi_mrt_fail_read(c, record, key);
        return 0;
    }
    return c->r.pos;
}

const uint8_t *ddi_mrt_get_ptr_at(ddi_marshal_ctx *c, const uint8_t *p, uint32_t record, uint32_t key, uintptr_t *v)
{
    c->r.pos = p;
    if (!ddi_mrt_get_ptr_slow(c, record, key, v))
        return 0;
    return c->r.pos;
}

const uint8_t *ddi_mrt_get_raw_at(ddi_marshal_ctx *c, const uint8_t *p, uint32_t record, uint32_t key, void *dst,
                                  size_t n)
{
    c->r.pos = p;
    if (!ddi_mrt_get_raw(c, record, key, dst, n))
        return 0;
    return c->r.pos;
}

const uint8_t *ddi_mrt_get_follow_at(ddi_marshal_ctx *c, const uint8_t *p, uint32_t record, uint32_t key, uintptr_t *v,
                                     size_t *count_bytes)
{
    c->r.pos = p;
    if (!ddi_mrt_get_follow(c, record, key, v, count_bytes))
        return 0;
    return c->r.pos;
}
