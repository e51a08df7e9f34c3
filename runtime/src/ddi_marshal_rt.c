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
 * stores composed into one integer keep clear of alignment (packed
 * records) and of type-based aliasing; with GCC and clang the widths of
 * one access go through __builtin_memcpy, which is one move (their store
 * merging misses the composed stores inside the interpreter's loops; no
 * call, no CRT). The interpreter passes constant widths (its kinds are by
 * width); the plain kinds and the arrays pass any n. */
#if defined(__GNUC__) || defined(__clang__)
#define MRT_MOVE(d, s, n) __builtin_memcpy((d), (s), (n))
#endif

/* The general way of a row, kept out of the hot loops: inlined, it takes
 * the registers the loops' cursor and row pointer need. */
#if defined(__GNUC__) || defined(__clang__)
#define MRT_GENERAL __attribute__((noinline))
#elif defined(_MSC_VER)
#define MRT_GENERAL __declspec(noinline)
#else
#define MRT_GENERAL
#endif

DDI_MRT_HOT uint64_t mrt_load_u(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
#ifdef MRT_MOVE
    if (n == 2 || n == 4 || n == 8) {
        uint16_t v2;
        uint32_t v4;
        if (n == 8) {
            MRT_MOVE(&v, p, 8);
            return v;
        }
        if (n == 4) {
            MRT_MOVE(&v4, p, 4);
            return v4;
        }
        MRT_MOVE(&v2, p, 2);
        return v2;
    }
#endif
    if (n == 1)
        return p[0];
    if (n == 2)
        return (uint64_t)p[0] | (uint64_t)p[1] << 8;
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
#ifdef MRT_MOVE
    if (n == 8) {
        MRT_MOVE(p, &v, 8);
        return;
    }
    if (n == 4) {
        uint32_t v4 = (uint32_t)v;
        MRT_MOVE(p, &v4, 4);
        return;
    }
    if (n == 2) {
        uint16_t v2 = (uint16_t)v;
        MRT_MOVE(p, &v2, 2);
        return;
    }
#endif
    if (n == 1) {
        p[0] = (uint8_t)v;
        return;
    }
    if (n == 2) {
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        return;
    }
    if (n == 4) {
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
    /* Most members are one row and no row is under an #if before them:
     * member s's rows then start at row s. */
    if ((uint32_t)s < hi && (int)g[s].member == s && (s == 0 || (int)g[s - 1].member < s)) {
        lo = (uint32_t)s;
        end = lo + 1u; /* row s is member s's */
    } else {
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2u;
            if ((int)g[mid].member < s)
                lo = mid + 1u;
            else
                hi = mid;
        }
        end = lo;
    }
    for (; end < r->size && (int)g[end].member == s; end++)
        ;
    *count = end - lo;
    return g + lo;
}

/* ---- encoder ----------------------------------------------------------- */

static void mrt_put_map(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *rows,
                        uint32_t nrows, int discs, const uint8_t *a, unsigned fl, unsigned depth);

/* An integer row's value as a CBOR head: its major type (unsigned or
 * negative) in *major, its argument returned. */
DDI_MRT_HOT uint64_t mrt_int_head(const ddi_mrt_record *rec, const ddi_mrt_row *r, const uint8_t *a, uint8_t *major)
{
    const uint8_t *f = a + r->off;
    int64_t s;
    uint64_t m;
    *major = 0x00;
    switch (r->kind) {
    case DDI_MRT_BU: return rec->bits_get(a, r->off);
    case DDI_MRT_BS: s = (int64_t)rec->bits_get(a, r->off); break;
    case DDI_MRT_S:
    case DDI_MRT_S1:
    case DDI_MRT_S2:
    case DDI_MRT_S4:
    case DDI_MRT_S8: s = mrt_load_s(f, r->size); break;
    default: return mrt_load_u(f, r->size); /* the unsigned integers and the addresses */
    }
    m = s < 0 ? ~(uint64_t)0 : 0; /* a negative value: major type 1, argument -1 - s */
    *major = (uint8_t)(m & 0x20u);
    return (uint64_t)s ^ m;
}

/* One row's key and value the general way: the rows without a fast form
 * (arrays, pointees, integers of no usual width, maps with DISC rows or
 * past the depth bound) and any row when the buffer is short (ddi_cbor
 * then counts what it needs). */
static MRT_GENERAL void mrt_put_row(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec,
                                    const ddi_mrt_row *r, const uint8_t *a, unsigned fl, unsigned depth)
{
    const uint8_t *f = a + r->off;
    const ddi_mrt_record *sub = (const ddi_mrt_record *)r->sub;
    uint8_t k0 = (uint8_t)r->key_bytes, k1 = (uint8_t)(r->key_bytes >> 8), k2 = (uint8_t)(r->key_bytes >> 16);
    unsigned kn = r->key_len;
    uint32_t j;
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
        mrt_put_map(wc, w, rec, (const ddi_mrt_row *)r->sub, r->size, r->flags & DDI_MRT_F_DISCS, a, fl, depth + 1);
        break;
    case DDI_MRT_REC:
        ddi_mrt_wc_key(wc, w, kn, k0, k1, k2);
        mrt_put_map(wc, w, sub, sub->rows, sub->nrows, sub->discs, f, fl, depth + 1);
        break;
    case DDI_MRT_ARR_U:
    case DDI_MRT_ARR_S:
    case DDI_MRT_ARR_REC:
        ddi_mrt_wc_key(wc, w, kn, k0, k1, k2);
        ddi_mrt_wc_h(wc, w, 0x80, r->size);
        for (j = 0; j < r->size; j++, f += r->elem) {
            if (r->kind == DDI_MRT_ARR_U)
                ddi_mrt_wc_h(wc, w, 0x00, mrt_load_u(f, r->elem));
            else if (r->kind == DDI_MRT_ARR_S)
                ddi_mrt_wc_s(wc, w, mrt_load_s(f, r->elem));
            else
                mrt_put_map(wc, w, sub, sub->rows, sub->nrows, sub->discs, f, fl, depth + 1);
        }
        break;
    default: { /* the integers and addresses */
        uint8_t major;
        uint64_t v = mrt_int_head(rec, r, a, &major);
        ddi_mrt_wc_kh(wc, w, kn, k0, k1, k2, major, v);
        break;
    }
    }
}

/* v's bytes in big-endian order (a head's argument). */
DDI_MRT_HOT uint64_t mrt_be64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    v = (v >> 32) | (v << 32);
    v = ((v & 0xFFFF0000FFFF0000ull) >> 16) | ((v & 0x0000FFFF0000FFFFull) << 16);
    return ((v & 0xFF00FF00FF00FF00ull) >> 8) | ((v & 0x00FF00FF00FF00FFull) << 8);
#endif
}

/* A head of an argument of 24 and above in one word, by its length class
 * (1 << class bytes): the additional info (24 + class), the shift that
 * brings the argument's big-endian bytes first in memory (little-endian
 * stores) and the head's length. */
#define MRT_HEAD_WORD(lg) ((24u + (lg)) | (64u - (8u << (lg))) << 8 | (1u + (1u << (lg))) << 16)
#if defined(__GNUC__) || defined(__clang__)
/* The word by the index of the argument's highest set bit: one load where
 * the class, its shift and its length were three. */
#define MRT_HW8(lg) MRT_HEAD_WORD(lg), MRT_HEAD_WORD(lg), MRT_HEAD_WORD(lg), MRT_HEAD_WORD(lg), \
    MRT_HEAD_WORD(lg), MRT_HEAD_WORD(lg), MRT_HEAD_WORD(lg), MRT_HEAD_WORD(lg)
static const uint32_t mrt_head_of_msb[64] = {MRT_HW8(0), MRT_HW8(1), MRT_HW8(2), MRT_HW8(2),
                                             MRT_HW8(3), MRT_HW8(3), MRT_HW8(3), MRT_HW8(3)};
#define MRT_HEAD_OF(v) mrt_head_of_msb[63 - __builtin_clzll(v)]
#else
static const uint32_t mrt_head_of_class[4] = {MRT_HEAD_WORD(0), MRT_HEAD_WORD(1), MRT_HEAD_WORD(2),
                                              MRT_HEAD_WORD(3)};
#define MRT_HEAD_OF(v)                                                                                                 \
    mrt_head_of_class[(unsigned)((v) > 0xFFu) + (unsigned)((v) > 0xFFFFu) + (unsigned)((v) > 0xFFFFFFFFu)]
#endif

/* A key (its precomputed bytes stored as one word) and a head at p, which
 * has room for MRT_KH_ROOM bytes; the position after them. An argument of
 * 1, 2, 4 or 8 bytes is stored as one 8-byte word with no branch on its
 * length (random values' lengths mispredict): the bytes past the head are
 * scratch within the room, which what follows overwrites. */
#define MRT_KH_ROOM 13u
DDI_MRT_HOT uint8_t *mrt_w_kh(uint8_t *p, const ddi_mrt_row *r, uint8_t major, uint64_t v)
{
    uint32_t h;
    mrt_store(p, 4, r->key_bytes);
    p += r->key_len;
    if (v < 24) {
        p[0] = (uint8_t)(major | v);
        return p + 1;
    }
    h = MRT_HEAD_OF(v);
    p[0] = (uint8_t)(major | (uint8_t)h);
    mrt_store(p + 1, 8, mrt_be64(v) >> ((h >> 8) & 63u)); /* the argument's bytes first */
    return p + (h >> 16);
}

/* At least what a row with a fast form writes (key, head and scratch of
 * an integer row: MRT_KH_ROOM; a key and a byte string shorter than 24:
 * 27), a power of two, so that a run of rows is bounded once, with a
 * shift, instead of once per row. */
#define MRT_ROW_ROOM_LG 5u

/* n < 24 bytes of a field copied eight at a time (one move each where the
 * compiler has one), the rest bytewise. */
DDI_MRT_HOT void mrt_copy_short(uint8_t *d, const uint8_t *s, unsigned n)
{
    unsigned i = 0;
    for (; i + 8 <= n; i += 8)
        mrt_store(d + i, 8, mrt_load_u(s + i, 8));
    for (; i < n; i++)
        d[i] = s[i];
}

/* Where a run of rows resumes after a nested map (mrt_put_rows). */
typedef struct mrt_put_resume {
    const ddi_mrt_row *r, *end;
    const uint8_t *a;
    const ddi_mrt_record *rec;
} mrt_put_resume;

DDI_MRT_HOT void mrt_resume_at(mrt_put_resume *u, const ddi_mrt_row *r, const ddi_mrt_row *end, const uint8_t *a,
                               const ddi_mrt_record *rec)
{
    u->r = r;
    u->end = end;
    u->a = a;
    u->rec = rec;
}

/* Rows [r, end) at the cursor. The loop keeps the cursor in locals; the
 * room is checked once per run of rows (as many rows as 1 << MRT_ROW_ROOM_LG
 * bytes each fit, then again after a nested map's head or a general row,
 * which move the cursor by more); a row's kind gives its width, so the
 * value is one load. A nested map without DISC rows is written by the same
 * loop, not a call: its count from the table, then its rows, then the
 * rows after it, from a stack bounded by the depth limit. What has no fast
 * form, and every row once the room left is short of a row's bound, goes
 * through mrt_put_row. */
static void mrt_put_rows(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *r,
                         const ddi_mrt_row *end, const uint8_t *a, unsigned fl, unsigned depth)
{
    mrt_put_resume up[DDI_CBOR_MAX_DEPTH];
    unsigned top = 0;
    uint8_t *p = wc->p, *e = wc->e;
    for (;;) {
        while (r < end) {
            const ddi_mrt_row *run = end;
            size_t fit = (size_t)(e - p) >> MRT_ROW_ROOM_LG;
            if ((size_t)(end - r) > fit)
                run = r + fit;
            if (r == run)
                goto general;
            for (; r < run; r++) {
                const uint8_t *f = a + r->off;
                const ddi_mrt_record *sub;
                uint64_t v = 0, m;
                int64_t s = 0;
                switch (r->kind) {
                case DDI_MRT_U1: v = mrt_load_u(f, 1); goto put_u;
                case DDI_MRT_U2: v = mrt_load_u(f, 2); goto put_u;
                case DDI_MRT_U4:
                case DDI_MRT_P4: v = mrt_load_u(f, 4); goto put_u;
                case DDI_MRT_U8:
                case DDI_MRT_P8: v = mrt_load_u(f, 8); goto put_u;
                case DDI_MRT_BU: v = rec->bits_get(a, r->off); goto put_u;
                case DDI_MRT_S1: s = mrt_load_s(f, 1); goto put_s;
                case DDI_MRT_S2: s = mrt_load_s(f, 2); goto put_s;
                case DDI_MRT_S4: s = mrt_load_s(f, 4); goto put_s;
                case DDI_MRT_S8: s = mrt_load_s(f, 8); goto put_s;
                case DDI_MRT_BS: s = (int64_t)rec->bits_get(a, r->off); goto put_s;
                case DDI_MRT_RAW:
                    if (r->size >= 24)
                        goto general;
                    mrt_store(p, 4, r->key_bytes);
                    p += r->key_len;
                    p[0] = (uint8_t)(0x40u | r->size);
                    mrt_copy_short(p + 1, f, r->size);
                    p += 1 + r->size;
                    continue;
                case DDI_MRT_FOLLOW:
                    /* Null, or an address when not followed: one head. */
                    v = mrt_load_u(f, r->size);
                    if (!v) {
                        p = mrt_w_kh(p, r, 0xE0, 22u);
                        continue;
                    }
                    if (fl & DDI_MARSHAL_NO_FOLLOW)
                        goto put_u;
                    goto general;
                case DDI_MRT_NEST:
                    if ((r->flags & DDI_MRT_F_DISCS) || depth + 1 >= DDI_CBOR_MAX_DEPTH)
                        goto general;
                    p = mrt_w_kh(p, r, 0xA0, r->size);
                    mrt_resume_at(&up[top++], r + 1, end, a, rec);
                    end = (const ddi_mrt_row *)r->sub + r->size;
                    r = (const ddi_mrt_row *)r->sub;
                    depth++;
                    goto entered;
                case DDI_MRT_REC:
                    sub = (const ddi_mrt_record *)r->sub;
                    if (sub->discs || depth + 1 >= DDI_CBOR_MAX_DEPTH)
                        goto general;
                    p = mrt_w_kh(p, r, 0xA0, sub->nrows);
                    mrt_resume_at(&up[top++], r + 1, end, a, rec);
                    rec = sub;
                    a = f;
                    r = sub->rows;
                    end = sub->rows + sub->nrows;
                    depth++;
                    goto entered;
                default: goto general;
                }
            put_s:
                m = s < 0 ? ~(uint64_t)0 : 0; /* a negative value: major type 1, argument -1 - s */
                p = mrt_w_kh(p, r, (uint8_t)(m & 0x20u), (uint64_t)s ^ m);
                continue;
            put_u:
                p = mrt_w_kh(p, r, 0x00, v);
            }
            continue;
        general:
            wc->p = p;
            mrt_put_row(wc, w, rec, r, a, fl, depth);
            p = wc->p; /* the cursor moved out of line: reload it, bound the next run */
            e = wc->e;
            r++;
        entered:;
        }
        if (!top)
            break;
        top--; /* the map's rows are written: back to the rows after it */
        r = up[top].r;
        end = up[top].end;
        a = up[top].a;
        rec = up[top].rec;
        depth--;
    }
    wc->p = p;
}

/* A map whose rows may hold DISC rows: walked first to count the rows
 * written (a DISC row stands for the rows of the member it selects) and
 * find each selected member's rows, then written in runs between them. */
static void mrt_put_map_discs(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *rows,
                              uint32_t nrows, const uint8_t *a, unsigned fl, unsigned depth)
{
    const ddi_mrt_row *at[DDI_MRT_MAX_DISC];    /* the DISC rows, in order */
    const ddi_mrt_row *first[DDI_MRT_MAX_DISC]; /* per DISC row: its selected rows */
    uint32_t count[DDI_MRT_MAX_DISC];
    unsigned dfl[DDI_MRT_MAX_DISC];
    const ddi_mrt_row *r;
    uint64_t n = nrows;
    unsigned d = 0, k;
    for (r = rows; r < rows + nrows; r++) { /* one test per row that is not a DISC row */
        int s;
        if (r->kind != DDI_MRT_DISC)
            continue;
        s = mrt_select(rec, a, r);
        at[d] = r;
        first[d] = mrt_member_rows(r, s, &count[d]);
        /* No case names the value: every member, pointers not followed. */
        dfl[d] = s == -1 ? fl | DDI_MARSHAL_NO_FOLLOW : fl;
        n = n - 1 + count[d++];
        if (d == DDI_MRT_MAX_DISC)
            break;
    }
    ddi_mrt_wc_h(wc, w, 0xA0, n);
    for (r = rows, k = 0; k < d; k++) {
        mrt_put_rows(wc, w, rec, r, at[k], a, fl, depth);
        mrt_put_rows(wc, w, rec, first[k], first[k] + count[k], a, dfl[k], depth);
        r = at[k] + 1;
    }
    mrt_put_rows(wc, w, rec, r, rows + nrows, a, fl, depth);
}

/* One map: the count of the rows written, then each. Records hold other
 * records by value, never themselves, so depth is the spec's nesting; past
 * the decoders' bound a null stands for the map (never for the DDI's
 * records, which nest a few levels), so recursion stays bounded. */
static void mrt_put_map(ddi_mrt_wc *wc, ddi_cbor_writer *w, const ddi_mrt_record *rec, const ddi_mrt_row *rows,
                        uint32_t nrows, int discs, const uint8_t *a, unsigned fl, unsigned depth)
{
    if (depth >= DDI_CBOR_MAX_DEPTH) {
        ddi_mrt_wc_store(wc, w);
        ddi_cbor_put_null(w);
        ddi_mrt_wc_load(wc, w);
    } else if (discs) {
        mrt_put_map_discs(wc, w, rec, rows, nrows, a, fl, depth);
    } else {
        ddi_mrt_wc_h(wc, w, 0xA0, nrows);
        mrt_put_rows(wc, w, rec, rows, rows + nrows, a, fl, depth);
    }
}

void ddi_mrt_put_record(ddi_cbor_writer *w, const ddi_mrt_record *rec, const void *a, unsigned flags)
{
    ddi_mrt_wc wc;
    ddi_mrt_wc_load(&wc, w);
    mrt_put_map(&wc, w, rec, rec->rows, rec->nrows, rec->discs, (const uint8_t *)a, flags, 0);
    ddi_mrt_wc_store(&wc, w);
}

size_t ddi_mrt_enc_record(const ddi_mrt_record *rec, const void *a, void *buffer, size_t size, unsigned flags)
{
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buffer, size);
    ddi_mrt_put_record(&w, rec, a, flags);
    return w.needed;
}

/* ---- decoder ----------------------------------------------------------- */

static int mrt_get_map(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *rows, uint32_t nrows,
                       uint8_t *out);

/* An integer value into an n-byte field (or bit-field i): a value the field
 * cannot hold is TOO_LARGE at the value. */
static int mrt_get_int(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *r, uint8_t *out, uint8_t *f,
                       unsigned n, int is_signed)
{
    const uint8_t *at = c->r.pos;
    uint64_t u;
    int64_t s;
    int fits;
    if (is_signed ? !ddi_mrt_get_s(c, &s) : !ddi_mrt_get_u(c, &u))
        return ddi_mrt_fail_read(c, rec->id, r->key);
    if (is_signed)
        u = (uint64_t)s;
    if (r->kind == DDI_MRT_BU || r->kind == DDI_MRT_BS)
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

/* One row's value, the reader at it: the general way, every error of the
 * strict decoder reported here. */
static MRT_GENERAL int mrt_get_row(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *r, uint8_t *out,
                                   mrt_follows *fb)
{
    size_t got = ~(size_t)0;
    uint8_t *f = out + r->off;
    const ddi_mrt_record *sub = (const ddi_mrt_record *)r->sub;
    uintptr_t v = 0;
    uint32_t j;
    switch (r->kind) {
    case DDI_MRT_PTR:
    case DDI_MRT_P4:
    case DDI_MRT_P8:
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
    case DDI_MRT_ARR_U:
    case DDI_MRT_ARR_S:
    case DDI_MRT_ARR_REC: /* one level of nesting, as a map */
        if (!ddi_mrt_get_array(c, rec->id, r->key, r->size))
            return 0;
        for (j = 0; j < r->size; j++, f += r->elem) {
            if (r->kind == DDI_MRT_ARR_REC ? !mrt_get_map(c, sub, sub->rows, sub->nrows, f)
                                           : !mrt_get_int(c, rec, r, out, f, r->elem, r->kind == DDI_MRT_ARR_S))
                return 0;
        }
        ddi_mrt_leave(c);
        return 1;
    case DDI_MRT_S:
    case DDI_MRT_S1:
    case DDI_MRT_S2:
    case DDI_MRT_S4:
    case DDI_MRT_S8:
    case DDI_MRT_BS: return mrt_get_int(c, rec, r, out, f, r->size, 1);
    default: return mrt_get_int(c, rec, r, out, f, r->size, 0); /* the unsigned integers */
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
 * shortest-form bytes (so a match is a key the reader would accept): one
 * word compared under the key's length when four bytes are left. */
DDI_MRT_HOT int mrt_key_at(const uint8_t *p, const uint8_t *end, const ddi_mrt_row *r)
{
    uint32_t kb = r->key_bytes;
    unsigned n = r->key_len;
    if ((size_t)(end - p) >= 4)
        return (((uint32_t)mrt_load_u(p, 4) ^ kb) << (32u - 8u * n)) == 0;
    if ((size_t)(end - p) < n || p[0] != (uint8_t)kb)
        return 0;
    return n == 1 || (p[1] == (uint8_t)(kb >> 8) && (n == 2 || p[2] == (uint8_t)(kb >> 16)));
}

/* Where a map's decode is along the rows this release writes: the row
 * expected next; in a DISC group, the row after its DISC row (else 0);
 * the DISC rows passed (their unions as bits, and each one's selected
 * rows, for the seen-key bitmap of the in-order loop); the map's own rows
 * found. */
typedef struct mrt_walk {
    const ddi_mrt_row *next, *after;
    unsigned discs;
    unsigned groups;
    const ddi_mrt_row *group[DDI_MRT_MAX_DISC];     /* a group's selected rows */
    const ddi_mrt_row *group_end[DDI_MRT_MAX_DISC]; /* and the end of those the in-order loop took */
    uint32_t found;
} mrt_walk;

/* The row whose key this release writes next, from wk->next (the row
 * after the last found): a DISC row stands for the rows of the member its
 * discriminator selects (as decoded so far: the selector comes first in
 * what this release writes), the end of those for the row after the DISC
 * row. Only a guess, checked against the key read. */
DDI_MRT_HOT const ddi_mrt_row *mrt_expect(const ddi_mrt_record *rec, const uint8_t *out, mrt_walk *wk)
{
    const ddi_mrt_row *next = wk->next;
    for (;;) {
        if (next->kind == DDI_MRT_END && wk->after) {
            next = wk->after;
            wk->after = 0;
        } else if (next->kind == DDI_MRT_DISC) {
            uint32_t n;
            const ddi_mrt_row *g = mrt_member_rows(next, rec->select(out, next->disc), &n);
            wk->discs |= 1u << (next->disc & 31u); /* a map's DISC rows: distinct unions, at most 8 */
            if (wk->groups < DDI_MRT_MAX_DISC) {
                wk->group[wk->groups] = g;
                wk->group_end[wk->groups++] = g;
            }
            if (n == 0) {
                next++;
                continue;
            }
            wk->after = next + 1;
            next = g;
        } else {
            return wk->next = next;
        }
    }
}

/* After row r was found: the row expected next, past the selected
 * member's rows in a group on to the row after its DISC row. */
DDI_MRT_HOT void mrt_found(mrt_walk *wk, const ddi_mrt_row *r)
{
    wk->found += wk->after == 0;
    wk->next = r + 1;
    if (wk->after && wk->next->kind != DDI_MRT_END && wk->next->member != r->member) {
        wk->next = wk->after;
        wk->after = 0;
    }
}

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

/* Marks rows [r, end) in the seen-key bitmap. */
static void mrt_mark(uint64_t *seen, const ddi_mrt_row *r, const ddi_mrt_row *end)
{
    for (; r < end; r++)
        seen[r->key >> 6] |= (uint64_t)1 << (r->key & 63u);
}

/* The seen-key bitmap of what the in-order loop took, which keeps none:
 * the map's rows before where it stopped and, of each DISC row's group it
 * entered, the rows it took (a prefix of the selected rows: with every
 * member selected, it leaves the group after the first member's). */
static void mrt_seen_in_order(const ddi_mrt_row *rows, const mrt_walk *wk, uint64_t *seen, unsigned words)
{
    const ddi_mrt_row *r, *stop = wk->after ? wk->after - 1 : wk->next;
    unsigned k, g = 0;
    for (k = 0; k < words; k++)
        seen[k] = 0;
    for (r = rows; r < stop; r++) {
        if (r->kind != DDI_MRT_DISC)
            mrt_mark(seen, r, r + 1);
        else if (g < wk->groups) {
            mrt_mark(seen, wk->group[g], wk->group_end[g]);
            g++;
        }
    }
    if (wk->after && g < wk->groups)
        mrt_mark(seen, wk->group[g], wk->group_end[g]);
}

/* The argument of a head of major type `major` in its shortest form at
 * *pp (before e): consumed, 1; 0 (nothing consumed) for anything else,
 * which the general way accepts or reports. */
DDI_MRT_HOT int mrt_arg_at(const uint8_t **pp, const uint8_t *e, unsigned major, uint64_t *v)
{
    const uint8_t *p = *pp;
    size_t left = (size_t)(e - p);
    unsigned b;
    if (!left)
        return 0;
    b = (unsigned)p[0] - (major << 5); /* 0..27 for this major type, else larger (unsigned) */
    if (b < 24) {
        *v = b;
        *pp = p + 1;
        return 1;
    }
    if (b == 24 && left >= 2 && p[1] >= 24) {
        *v = p[1];
        *pp = p + 2;
        return 1;
    }
    if (b == 25 && left >= 3 && p[1] != 0) {
        *v = ((uint64_t)p[1] << 8) | p[2];
        *pp = p + 3;
        return 1;
    }
    if (b == 26 && left >= 5 && (p[1] | p[2]) != 0) {
        *v = ((uint64_t)p[1] << 24) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 8) | p[4];
        *pp = p + 5;
        return 1;
    }
    if (b == 27 && left >= 9 && (p[1] | p[2] | p[3] | p[4]) != 0) {
        *v = ((uint64_t)p[1] << 56) | ((uint64_t)p[2] << 48) | ((uint64_t)p[3] << 40) | ((uint64_t)p[4] << 32) |
             ((uint64_t)p[5] << 24) | ((uint64_t)p[6] << 16) | ((uint64_t)p[7] << 8) | p[8];
        *pp = p + 9;
        return 1;
    }
    return 0;
}

/* A signed integer (major type 0 or 1) in shortest form within int64 at *pp. */
DDI_MRT_HOT int mrt_sarg_at(const uint8_t **pp, const uint8_t *e, int64_t *v)
{
    unsigned neg;
    uint64_t u;
    if (*pp == e)
        return 0;
    neg = (*pp)[0] >> 5;
    if (neg > 1 || !mrt_arg_at(pp, e, neg, &u) || u > (uint64_t)INT64_MAX)
        return 0; /* the caller goes back to the value's start */
    *v = neg ? (int64_t)~u : (int64_t)u;
    return 1;
}

/* The pairs in the order this release writes them, from the first: each
 * key matched in place against the row expected next and its value read
 * by the row's kind, the cursor in locals. Takes pairs while they come in
 * that order; returns how many it took (0 after an error, reported), the
 * reader after them. A value without a fast form, or one the fast form
 * does not take, is read the general way (mrt_get_row), which reports it.
 * No seen-key bitmap: rows taken in order are distinct. */
static int mrt_get_in_order(ddi_marshal_ctx *c, const ddi_mrt_record *rec, uint8_t *out, mrt_walk *wk,
                            mrt_follows *fb, uint64_t n, uint64_t *taken)
{
    const uint8_t *p = c->r.pos, *e = c->r.end, *q;
    const ddi_mrt_row *next = wk->next, *after = wk->after; /* the walk in locals; mrt_found's steps inline */
    uint32_t found = 0;
    uint64_t i;
    for (i = 0; i < n; i++) {
        const ddi_mrt_row *r;
        uint8_t *f;
        uint64_t v = 0; /* set by the reads before any use; MSVC's /W4 cannot tell */
        int64_t s = 0;
        if (next->kind == DDI_MRT_END || next->kind == DDI_MRT_DISC) { /* the end of a group, or a DISC row */
            wk->next = next;
            wk->after = after;
            next = mrt_expect(rec, out, wk);
            after = wk->after;
        }
        r = next;
        if (r->kind == DDI_MRT_END || !mrt_key_at(p, e, r))
            break;
        q = p + r->key_len;
        f = out + r->off;
        switch (r->kind) {
        case DDI_MRT_U1:
            if (!mrt_arg_at(&q, e, 0, &v) || !mrt_store_u(f, 1, v))
                goto general;
            break;
        case DDI_MRT_U2:
            if (!mrt_arg_at(&q, e, 0, &v) || !mrt_store_u(f, 2, v))
                goto general;
            break;
        case DDI_MRT_U4:
            if (!mrt_arg_at(&q, e, 0, &v) || !mrt_store_u(f, 4, v))
                goto general;
            break;
        case DDI_MRT_U8:
            if (!mrt_arg_at(&q, e, 0, &v))
                goto general;
            mrt_store(f, 8, v);
            break;
        case DDI_MRT_S1:
            if (!mrt_sarg_at(&q, e, &s) || !mrt_store_s(f, 1, s))
                goto general;
            break;
        case DDI_MRT_S2:
            if (!mrt_sarg_at(&q, e, &s) || !mrt_store_s(f, 2, s))
                goto general;
            break;
        case DDI_MRT_S4:
            if (!mrt_sarg_at(&q, e, &s) || !mrt_store_s(f, 4, s))
                goto general;
            break;
        case DDI_MRT_S8:
            if (!mrt_sarg_at(&q, e, &s))
                goto general;
            mrt_store(f, 8, (uint64_t)s);
            break;
        case DDI_MRT_P4: /* an address: as the general way, kept when it fits uintptr_t */
            if (!mrt_arg_at(&q, e, 0, &v) || v != (uint64_t)(uintptr_t)v)
                goto general;
            mrt_store(f, 4, v);
            break;
        case DDI_MRT_P8:
            if (!mrt_arg_at(&q, e, 0, &v) || v != (uint64_t)(uintptr_t)v)
                goto general;
            mrt_store(f, 8, v);
            break;
        case DDI_MRT_BU: /* the setter stores again when the general way reads it again */
            if (!mrt_arg_at(&q, e, 0, &v) || !rec->bits_set(out, r->off, v))
                goto general;
            break;
        case DDI_MRT_BS:
            if (!mrt_sarg_at(&q, e, &s) || !rec->bits_set(out, r->off, (uint64_t)s))
                goto general;
            break;
        case DDI_MRT_RAW:
            if (r->size >= 24 || q == e || q[0] != (0x40u | r->size) || (size_t)(e - q) <= r->size)
                goto general;
            ddi_mrt_copy(f, q + 1, r->size);
            q += 1 + r->size;
            break;
        case DDI_MRT_FOLLOW: /* null or an address; pointee bytes the general way */
            if (q != e && q[0] == 0xF6u) {
                mrt_store(f, r->size, 0);
                q++;
                break;
            }
            if (!mrt_arg_at(&q, e, 0, &v) || v != (uint64_t)(uintptr_t)v)
                goto general;
            mrt_store(f, r->size, v);
            break;
        case DDI_MRT_NEST:
            c->r.pos = q;
            if (!mrt_get_map(c, rec, (const ddi_mrt_row *)r->sub, r->size, out))
                return 0;
            q = c->r.pos;
            break;
        case DDI_MRT_REC: {
            const ddi_mrt_record *sub = (const ddi_mrt_record *)r->sub;
            c->r.pos = q;
            if (!mrt_get_map(c, sub, sub->rows, sub->nrows, f))
                return 0;
            q = c->r.pos;
            break;
        }
        default:
        general:
            c->r.pos = p + r->key_len;
            if (!mrt_get_row(c, rec, r, out, fb))
                return 0;
            q = c->r.pos;
            break;
        }
        p = q;
        next = r + 1;
        if (!after) {
            found++;
        } else {
            wk->group_end[wk->groups - 1u] = next; /* in the group the last DISC row passed opened */
            if (next->kind != DDI_MRT_END && next->member != r->member) {
                next = after;
                after = 0;
            }
        }
    }
    wk->next = next;
    wk->after = after;
    wk->found += found;
    c->r.pos = p;
    *taken = i;
    return 1;
}

/* One map, strictly: every pair's key once, known keys decoded by their
 * row, unknown ones skipped and counted; the depth bound of ddi_mrt_enter
 * bounds the recursion. The pairs in this release's order are taken by
 * mrt_get_in_order; from the first that is not (a key missing, added by
 * another release, or out of order), the keyed loop: each key checked
 * against the seen-key bitmap and found by its row, first the row
 * expected next, else by a walk of the map's rows. */
static int mrt_get_map(ddi_marshal_ctx *c, const ddi_mrt_record *rec, const ddi_mrt_row *rows, uint32_t nrows,
                       uint8_t *out)
{
    uint64_t seen[DDI_MRT_MAX_WORDS];
    mrt_follows fb;
    mrt_walk wk;
    uint64_t n, i, key;
    const ddi_mrt_row *r;
    const uint8_t *pairs;
    unsigned words = rec->words;
    fb.n = 0;
    wk.next = rows;
    wk.after = 0;
    wk.discs = 0;
    wk.groups = 0;
    wk.found = 0;
    if (!ddi_mrt_enter(c, rec->id, &n))
        return 0;
    pairs = c->r.pos;
    if (!mrt_get_in_order(c, rec, out, &wk, &fb, n, &i))
        return 0;
    /* Every pair taken in order, every row of the map there but its DISC
     * rows (a DISC group's rows are never missing) and no pointee to
     * check: done. */
    if (i == n && fb.n == 0 && wk.found + mrt_bits_set(wk.discs) == nrows) {
        ddi_mrt_leave(c);
        return 1;
    }
    mrt_seen_in_order(rows, &wk, seen, words);
    for (; i < n; i++) {
        const uint8_t *p = c->r.pos;
        const ddi_mrt_row *next = mrt_expect(rec, out, &wk);
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
                wk.after = disc ? disc + 1 : 0;
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
        mrt_found(&wk, r);
    }
    ddi_mrt_leave(c);
    /* As above: nothing left to check. */
    if (fb.n == 0 && wk.found + mrt_bits_set(wk.discs) == nrows)
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
