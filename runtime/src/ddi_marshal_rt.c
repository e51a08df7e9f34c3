/* ddi_marshal_rt: the interpreter that encodes and strictly decodes a DDI
 * record from its generated table, and the out-of-line helpers (the rare
 * and the long paths); see ddi_marshal_rt.h. Kernel C: no CRT. */
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

/* --- the table interpreter (see ddi_mrt_record in the header) ---------- */

/* Every target (x86, x64, arm64) and host is little-endian. Byte loads and
 * stores composed into one integer (compilers make one access of them) keep
 * clear of alignment (packed records) and of type-based aliasing. */
DDI_MRT_HOT uint64_t mrt_load_u(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    /* Tests, not a switch: a jump table's indirect branch mispredicts on
     * every change of width from one field to the next. */
    if (n == 4)
        return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    if (n == 8)
        return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
               (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
    while (n--)
        v = v << 8 | p[n];
    return v;
}

/* The sign bit of an n-byte integer (n <= 8) as a mask. */
DDI_MRT_HOT uint64_t mrt_sign_bit(unsigned n)
{
    return (uint64_t)1 << (8u * n - 1u);
}

DDI_MRT_HOT int64_t mrt_load_s(const uint8_t *p, unsigned n)
{
    uint64_t m = mrt_sign_bit(n), v = mrt_load_u(p, n);
    return (int64_t)((v ^ m) - m); /* sign-extended without shifting a negative value */
}

DDI_MRT_HOT void mrt_store(uint8_t *p, unsigned n, uint64_t v)
{
    unsigned i;
    if (n == 4) { /* constant widths: one store each */
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
        return;
    }
    if (n == 8) {
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
        p[4] = (uint8_t)(v >> 32);
        p[5] = (uint8_t)(v >> 40);
        p[6] = (uint8_t)(v >> 48);
        p[7] = (uint8_t)(v >> 56);
        return;
    }
    for (i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8u * i));
}

/* Stores v in an n-byte unsigned / signed integer: 0 when it does not fit
 * (the decoders' TOO_LARGE, as a C assignment that changes the value). */
DDI_MRT_HOT int mrt_store_u(uint8_t *p, unsigned n, uint64_t v)
{
    if (n < 8 && (v >> (8u * n)) != 0)
        return 0;
    mrt_store(p, n, v);
    return 1;
}

DDI_MRT_HOT int mrt_store_s(uint8_t *p, unsigned n, int64_t v)
{
    uint64_t m = mrt_sign_bit(n);
    if (n < 8 && (uint64_t)v + m >= (m << 1))
        return 0;
    mrt_store(p, n, (uint64_t)v);
    return 1;
}

/* A row's key and a head, at the cursor: the key's bytes stored as one
 * word (the head follows at key_len, over the rest), one room check. */
DDI_MRT_HOT void mrt_kh(ddi_mrt_wc *c, ddi_cbor_writer *w, const ddi_mrt_row *r, uint8_t major, uint64_t v)
{
    if ((size_t)(c->e - c->p) >= 13) {
        mrt_store(c->p, 4, r->key_bytes);
        c->p = ddi_mrt_w_head(c->p + r->key_len, major, v);
        return;
    }
    ddi_mrt_wc_store(c, w);
    ddi_mrt_put_kh_slow(w, r->key, major, v);
    ddi_mrt_wc_load(c, w);
}

/* The member a DISC row's discriminator selects (see ddi_mrt_record). */
DDI_MRT_HOT int mrt_select(const ddi_mrt_record *rec, const uint8_t *a, const ddi_mrt_row *r)
{
    return rec->select(a, r->disc);
}

/* The rows a DISC row's group holds for member s, from *first on, *count
 * of them (s -1: all of them; -2: none). The generator writes a union's
 * members in order, each member's rows together, so `member` never
 * decreases along a group: a binary search finds the run. */
DDI_MRT_HOT const ddi_mrt_row *mrt_member_rows(const ddi_mrt_row *r, int s, uint32_t *count)
{
    const ddi_mrt_row *g = (const ddi_mrt_row *)r->sub;
    uint32_t lo = 0, hi = r->size, end;
    if (s < 0) {
        *count = s == -1 ? r->size : 0;
        return g;
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if ((int)g[mid].member < s)
            lo = mid + 1u;
        else
            hi = mid;
    }
    for (end = lo; end < r->size && (int)g[end].member == s; end++)
        ;
    *count = end - lo;
    return g + lo;
}

static void mrt_put_map(ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *rows, uint32_t nrows,
                        const uint8_t *a, unsigned fl, unsigned depth);

/* A nested map (a member record, a record by value) at the cursor. */
static void mrt_put_sub(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *rows,
                        uint32_t nrows, const uint8_t *a, unsigned fl, unsigned depth)
{
    ddi_mrt_wc_store(wc, w);
    mrt_put_map(w, rec, rows, nrows, a, fl, depth);
    ddi_mrt_wc_load(wc, w);
}

/* One row's key and value at the cursor. */
DDI_MRT_HOT void mrt_put_row(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *r,
                             const uint8_t *a, unsigned fl, unsigned depth)
{
    const uint8_t *f = a + r->off;
    const ddi_mrt_record *sub;
    uint8_t k0, k1, k2;
    unsigned kn;
    uint32_t j;
    switch (r->kind) { /* the integers first: no key bytes apart (mrt_kh writes the word) */
    case DDI_MRT_U:
    case DDI_MRT_PTR:
        mrt_kh(wc, w, r, 0x00, (r->flags & DDI_MRT_F_BITS) ? rec->bits_get(a, r->off) : mrt_load_u(f, r->size));
        return;
    case DDI_MRT_S: {
        int64_t v = (r->flags & DDI_MRT_F_BITS) ? (int64_t)rec->bits_get(a, r->off) : mrt_load_s(f, r->size);
        if (v >= 0)
            mrt_kh(wc, w, r, 0x00, (uint64_t)v);
        else
            mrt_kh(wc, w, r, 0x20, ~(uint64_t)v);
        return;
    }
    default: break;
    }
    k0 = (uint8_t)r->key_bytes;
    k1 = (uint8_t)(r->key_bytes >> 8);
    k2 = (uint8_t)(r->key_bytes >> 16);
    kn = r->key_len;
    sub = (const ddi_mrt_record *)r->sub;
    switch (r->kind) {
    case DDI_MRT_FOLLOW: {
        uint64_t count = (r->flags & DDI_MRT_F_COUNT_SIGNED) ? (uint64_t)mrt_load_s(a + r->count_off, r->count_size)
                                                            : mrt_load_u(a + r->count_off, r->count_size);
        ddi_mrt_wc_kfollow(wc, w, kn, k0, k1, k2, (const void *)(uintptr_t)mrt_load_u(f, r->size), count,
                           r->elem, fl);
        break;
    }
    case DDI_MRT_RAW: ddi_mrt_wc_kraw(wc, w, kn, k0, k1, k2, f, r->size); break;
    case DDI_MRT_NEST:
        ddi_mrt_wc_key(wc, w, kn, k0, k1, k2);
        mrt_put_sub(wc, w, rec, (const ddi_mrt_row *)r->sub, r->size, a, fl, depth + 1);
        break;
    case DDI_MRT_REC:
        ddi_mrt_wc_key(wc, w, kn, k0, k1, k2);
        mrt_put_sub(wc, w, sub, sub->rows, sub->nrows, f, fl, depth + 1);
        break;
    default: /* the arrays */
        ddi_mrt_wc_key(wc, w, kn, k0, k1, k2);
        ddi_mrt_wc_h(wc, w, 0x80, r->size);
        for (j = 0; j < r->size; j++, f += r->elem) {
            if (r->kind == DDI_MRT_ARR_U)
                ddi_mrt_wc_h(wc, w, 0x00, mrt_load_u(f, r->elem));
            else if (r->kind == DDI_MRT_ARR_S)
                ddi_mrt_wc_s(wc, w, mrt_load_s(f, r->elem));
            else
                mrt_put_sub(wc, w, sub, sub->rows, sub->nrows, f, fl, depth + 1);
        }
        break;
    }
}

/* One map: the count of the rows written, then each. Records hold other
 * records by value, never themselves, so depth is the spec's nesting; past
 * the decoders' bound a null stands for the map (never for the DDI's
 * records, which nest a few levels), so recursion stays bounded. */
static void mrt_put_map(ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *rows, uint32_t nrows,
                        const uint8_t *a, unsigned fl, unsigned depth)
{
    const ddi_mrt_row *first[DDI_MRT_MAX_DISC]; /* per DISC row, in order: its selected rows */
    uint32_t count[DDI_MRT_MAX_DISC];
    unsigned dfl[DDI_MRT_MAX_DISC];
    const ddi_mrt_row *r;
    uint64_t n;
    unsigned d;
    ddi_mrt_wc wc;
    if (depth >= DDI_CBOR_MAX_DEPTH) {
        ddi_cbor_put_null(w);
        return;
    }
    n = nrows; /* a DISC row stands for the rows of the member it selects */
    for (r = rows, d = 0; rec->select && r->kind != DDI_MRT_END; r++) {
        int s;
        if (r->kind != DDI_MRT_DISC)
            continue;
        s = mrt_select(rec, a, r);
        first[d] = mrt_member_rows(r, s, &count[d]);
        /* No case names the value: every member, pointers not followed. */
        dfl[d] = s == -1 ? fl | DDI_MARSHAL_NO_FOLLOW : fl;
        n = n - 1 + count[d++];
    }
    ddi_mrt_wc_load(&wc, w);
    ddi_mrt_wc_h(&wc, w, 0xA0, n);
    for (r = rows, d = 0; r->kind != DDI_MRT_END; r++) {
        const ddi_mrt_row *g;
        uint32_t j;
        if (r->kind != DDI_MRT_DISC) {
            mrt_put_row(&wc, w, rec, r, a, fl, depth);
            continue;
        }
        for (g = first[d], j = 0; j < count[d]; j++, g++)
            mrt_put_row(&wc, w, rec, g, a, dfl[d], depth);
        d++;
    }
    ddi_mrt_wc_store(&wc, w);
}

void ddi_mrt_put_record(ddi_cbor_writer *w, const ddi_mrt_record *rec, const void *a, unsigned flags)
{
    mrt_put_map(w, rec, rec->rows, rec->nrows, (const uint8_t *)a, flags, 0);
}

size_t ddi_mrt_enc_record(const ddi_mrt_record *rec, const void *a, void *buffer, size_t size, unsigned flags)
{
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buffer, size);
    ddi_mrt_put_record(&w, rec, a, flags);
    return w.needed;
}

static int mrt_get_map(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *rows, uint32_t nrows,
                       uint8_t *out);

/* An integer value into an n-byte field (or bit-field i): a value the field
 * cannot hold is TOO_LARGE at the value. */
DDI_MRT_HOT int mrt_get_int(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *r, uint8_t *out,
                            uint8_t *f, unsigned n, int is_signed)
{
    const uint8_t *at = c->r.pos;
    uint64_t u;
    int64_t s;
    int fits;
    if (is_signed ? !ddi_mrt_get_s(c, &s) : !ddi_mrt_get_u(c, &u))
        return ddi_mrt_fail_read(c, rec->id, r->key);
    if (is_signed)
        u = (uint64_t)s;
    if ((r->flags & DDI_MRT_F_BITS) && (r->kind == DDI_MRT_U || r->kind == DDI_MRT_S))
        fits = rec->bits_set(out, r->off, u);
    else
        fits = is_signed ? mrt_store_s(f, n, s) : mrt_store_u(f, n, u);
    if (!fits) {
        c->r.pos = at;
        return ddi_mrt_fail(c, DDI_CBOR_TOO_LARGE, rec->id, r->key);
    }
    return 1;
}

/* The sizes of the pointees a map's followed pointers brought, checked
 * against their count fields once the whole map is read. */
typedef struct mrt_follows {
    unsigned n;
    const ddi_mrt_row *row[DDI_MRT_MAX_FOLLOW];
    size_t got[DDI_MRT_MAX_FOLLOW];
} mrt_follows;

/* One row's value, the reader at it. */
DDI_MRT_HOT int mrt_get_row(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *r, uint8_t *out,
                            mrt_follows *fb)
{
    size_t got = ~(size_t)0;
    uint8_t *f = out + r->off;
    const ddi_mrt_record *sub = (const ddi_mrt_record *)r->sub;
    uintptr_t v = 0;
    uint32_t j;
    switch (r->kind) {
    case DDI_MRT_U: return mrt_get_int(c, rec, r, out, f, r->size, 0);
    case DDI_MRT_S: return mrt_get_int(c, rec, r, out, f, r->size, 1);
    case DDI_MRT_PTR:
        if (!ddi_mrt_get_ptr(c, rec->id, r->key, &v))
            return 0;
        mrt_store(f, r->size, (uint64_t)v);
        return 1;
    case DDI_MRT_FOLLOW:
        if (!ddi_mrt_get_follow(c, rec->id, r->key, &v, &got))
            return 0;
        mrt_store(f, r->size, (uint64_t)v);
        if (got != ~(size_t)0 && fb->n < DDI_MRT_MAX_FOLLOW) { /* the generator keeps a map's within the bound */
            fb->row[fb->n] = r;
            fb->got[fb->n++] = got;
        }
        return 1;
    case DDI_MRT_RAW: return ddi_mrt_get_raw(c, rec->id, r->key, f, r->size);
    case DDI_MRT_NEST: return mrt_get_map(c, rec, (const ddi_mrt_row *)r->sub, r->size, out);
    case DDI_MRT_REC: return mrt_get_map(c, sub, sub->rows, sub->nrows, f);
    default: /* the arrays: one level of nesting, as a map */
        if (!ddi_mrt_get_array(c, rec->id, r->key, r->size))
            return 0;
        for (j = 0; j < r->size; j++, f += r->elem) {
            if (r->kind == DDI_MRT_ARR_REC ? !mrt_get_map(c, sub, sub->rows, sub->nrows, f)
                                           : !mrt_get_int(c, rec, r, out, f, r->elem, r->kind == DDI_MRT_ARR_S))
                return 0;
        }
        ddi_mrt_leave(c);
        return 1;
    }
}

/* The row of a key, by a walk of the map's rows and its DISC groups' rows
 * (*disc: the DISC row of the group it is in, else 0); 0 for a key this
 * code does not know. */
static const ddi_mrt_row *mrt_row_of(const ddi_mrt_row *rows, uint64_t key, const ddi_mrt_row **disc)
{
    const ddi_mrt_row *r, *g;
    *disc = 0;
    for (r = rows; r->kind != DDI_MRT_END; r++) {
        if (r->kind != DDI_MRT_DISC) {
            if (r->key == key)
                return r;
            continue;
        }
        for (g = (const ddi_mrt_row *)r->sub; g->kind != DDI_MRT_END; g++)
            if (g->key == key) {
                *disc = r;
                return g;
            }
    }
    return 0;
}

/* Whether the key at p (before end) is row r's, as its precomputed
 * shortest-form bytes (so a match is a key the reader would accept). */
DDI_MRT_HOT int mrt_key_at(const uint8_t *p, const uint8_t *end, const ddi_mrt_row *r)
{
    uint32_t kb = r->key_bytes;
    unsigned n = r->key_len;
    if ((size_t)(end - p) < n || p[0] != (uint8_t)kb)
        return 0;
    return n == 1 || (p[1] == (uint8_t)(kb >> 8) && (n == 2 || p[2] == (uint8_t)(kb >> 16)));
}

/* The row whose key this release writes next, from `next` (the row after
 * the last found): a DISC row stands for the rows of the member its
 * discriminator selects (as decoded so far: the selector comes first in
 * what this release writes), the end of those for the row after the DISC
 * row (*after). Only a guess, checked against the key read. */
DDI_MRT_HOT const ddi_mrt_row *mrt_expect(const ddi_mrt_record *rec, const uint8_t *out, const ddi_mrt_row *next,
                                          const ddi_mrt_row **after, unsigned *discs)
{
    for (;;) {
        if (next->kind == DDI_MRT_END && *after) {
            next = *after;
            *after = 0;
        } else if (next->kind == DDI_MRT_DISC) {
            uint32_t n;
            const ddi_mrt_row *g = mrt_member_rows(next, rec->select(out, next->disc), &n);
            *discs |= 1u << (next->disc & 31u); /* a map's DISC rows: distinct unions, at most 8 */
            if (n == 0) {
                next++;
                continue;
            }
            *after = next + 1;
            next = g;
        } else {
            return next;
        }
    }
}

/* After the pairs: a followed pointee's size against its count field (the
 * count may come after the pointer), then the known keys that were absent
 * (a member of a union with a discriminator is never missing). */
/* A followed pointer's pointee size against its count field (the count
 * may come after the pointer). */
static int mrt_check_follow(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *r, const uint8_t *out,
                            const mrt_follows *fb)
{
    unsigned j;
    for (j = 0; j < fb->n; j++) {
        if (fb->row[j] == r) {
            size_t got = fb->got[j];
            uint64_t count = (r->flags & DDI_MRT_F_COUNT_SIGNED)
                                 ? (uint64_t)mrt_load_s(out + r->count_off, r->count_size)
                                 : mrt_load_u(out + r->count_off, r->count_size);
            if (got % r->elem != 0 || (uint64_t)(got / r->elem) != count)
                return ddi_mrt_fail(c, DDI_MARSHAL_SIZE_MISMATCH, rec->id, r->key);
        }
    }
    return 1;
}

/* After the pairs, in row order: followed pointees' sizes, then the known
 * keys that were absent (a member of a union with a discriminator is never
 * missing). */
static int mrt_check_map(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *rows, const uint8_t *out,
                         const uint64_t *seen, const mrt_follows *fb)
{
    const ddi_mrt_row *r, *g;
    for (r = rows; r->kind != DDI_MRT_END; r++) {
        if (r->kind == DDI_MRT_DISC) {
            for (g = (const ddi_mrt_row *)r->sub; fb->n && g->kind != DDI_MRT_END; g++)
                if (g->kind == DDI_MRT_FOLLOW && !mrt_check_follow(c, rec, g, out, fb))
                    return 0;
            continue;
        }
        if (r->kind == DDI_MRT_FOLLOW && !mrt_check_follow(c, rec, r, out, fb))
            return 0;
        if (!(r->flags & DDI_MRT_F_IN_DISC) && !DDI_MRT_HAS(seen, r->key))
            ddi_mrt_missing(c, rec->id, r->key);
    }
    return 1;
}

/* How many bits of m are set (no compiler builtin: kernel C for MSVC too). */
DDI_MRT_HOT unsigned mrt_bits_set(unsigned m)
{
    unsigned n = 0;
    for (; m; m &= m - 1u)
        n++;
    return n;
}

/* One map, strictly: every pair's key once, known keys decoded by their
 * row, unknown ones skipped and counted; the depth bound of ddi_mrt_enter
 * bounds the recursion. */
static int mrt_get_map(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *rows, uint32_t nrows,
                       uint8_t *out)
{
    uint32_t found = 0; /* rows of `rows` itself found (not a DISC group's) */
    unsigned discs = 0; /* the unions (disc) of the DISC rows passed in order */
    uint64_t seen[DDI_MRT_MAX_WORDS];
    mrt_follows fb;
    uint64_t n, i, key;
    const ddi_mrt_row *next = rows, *after = 0, *r;
    const uint8_t *pairs;
    unsigned k, words = rec->words;
    for (k = 0; k < words; k++)
        seen[k] = 0;
    fb.n = 0;
    if (!ddi_mrt_enter(c, rec->id, &n))
        return 0;
    pairs = c->r.pos;
    for (i = 0; i < n; i++) {
        const uint8_t *p = c->r.pos;
        next = mrt_expect(rec, out, next, &after, &discs);
        if (next->kind != DDI_MRT_END && mrt_key_at(p, c->r.end, next)) {
            /* The key this release writes next, as its bytes. */
            c->r.pos = p + next->key_len;
            key = next->key;
            r = next;
        } else {
            const ddi_mrt_row *disc;
            if (!ddi_mrt_get_u(c, &key))
                return ddi_mrt_fail_read(c, rec->id, 0);
            r = mrt_row_of(rows, key, &disc);
            if (r)
                after = disc ? disc + 1 : 0;
        }
        if (!ddi_mrt_seen(c, seen, words, rec->id, key))
            return 0;
        if (!r) {
            if (!ddi_mrt_unknown(c, rec->id, key, pairs, i, words))
                return 0;
            continue;
        }
        if (!mrt_get_row(c, rec, r, out, &fb))
            return 0;
        found += after == 0;
        next = r + 1;
        /* Past the selected member's rows in a group: on after its DISC row. */
        if (after && next->kind != DDI_MRT_END && next->member != r->member) {
            next = after;
            after = 0;
        }
    }
    ddi_mrt_leave(c);
    /* Every row of the map there but its DISC rows (keys are distinct; a
     * DISC group's rows are never missing) and no pointee to check: done. */
    if (fb.n == 0 && found + mrt_bits_set(discs) == nrows)
        return 1;
    return mrt_check_map(c, rec, rows, out, seen, &fb);
}

int ddi_mrt_get_record(ddi_marshal_ctx *c, const ddi_mrt_record *rec, void *out)
{
    return mrt_get_map(c, rec, rec->rows, rec->nrows, (uint8_t *)out);
}

/* Zeroes a record eight bytes at a time (each group one store). */
static void mrt_zero(uint8_t *p, size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) { /* four words a turn: the loop's own test costs as much as a store */
        mrt_store(p + i, 8, 0);
        mrt_store(p + i + 8, 8, 0);
        mrt_store(p + i + 16, 8, 0);
        mrt_store(p + i + 24, 8, 0);
    }
    for (; i + 8 <= n; i += 8)
        mrt_store(p + i, 8, 0);
    for (; i < n; i++)
        p[i] = 0;
}

int ddi_mrt_dec_record(const ddi_mrt_record *rec, void *out, size_t out_size, const void *data, size_t size,
                       ddi_marshal_arena *arena, ddi_marshal_result *res)
{
    ddi_marshal_ctx c;
    mrt_zero((uint8_t *)out, out_size);
    ddi_mrt_ctx_init(&c, data, size, arena, res);
    if (!ddi_mrt_get_record(&c, rec, out))
        return ddi_mrt_fail_read(&c, rec->id, 0);
    return ddi_mrt_ctx_finish(&c);
}
