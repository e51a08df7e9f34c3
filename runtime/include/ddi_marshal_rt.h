/* ddi_marshal_rt: the interpreter of the generated marshallers' tables
 * (ddi_marshal.c holds a constant row list per DDI record; see
 * ddi_mrt_record), the CBOR fast paths it writes and reads with, strict
 * reads that report the key at fault, the arena that holds decoded
 * pointees. Kernel C: no CRT, no allocation, no floating point; nesting
 * recurses only as deep as the decoder's depth bound. */
#ifndef DDI_MARSHAL_RT_H
#define DDI_MARSHAL_RT_H

#include "ddi_cbor.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_MSC_VER) && !defined(__clang__) && !defined(__cplusplus)
#define DDI_MRT_INLINE static __inline
#else
#define DDI_MRT_INLINE static inline
#endif
/* The per-field fast paths: inlined into the generated straight-line code
 * (compilers otherwise keep one out-of-line copy in a file this large). */
#if defined(__GNUC__) || defined(__clang__)
#define DDI_MRT_HOT static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define DDI_MRT_HOT static __forceinline
#else
#define DDI_MRT_HOT DDI_MRT_INLINE
#endif

/* The architecture the layout is compiled for: the compiler's own MSVC
 * macros, or on a host build the GCC ones (the host layout is the host's,
 * but a field that exists only on x64 exists there on x86_64 hosts). */
#if defined(_M_IX86) || (!defined(_MSC_VER) && defined(__i386__))
#define DDI_MRT_ARCH_X86 1
#else
#define DDI_MRT_ARCH_X86 0
#endif
#if (defined(_M_AMD64) && !defined(_M_ARM64EC)) || (!defined(_MSC_VER) && defined(__x86_64__))
#define DDI_MRT_ARCH_X64 1
#else
#define DDI_MRT_ARCH_X64 0
#endif
#if defined(_M_ARM64) || (!defined(_MSC_VER) && defined(__aarch64__))
#define DDI_MRT_ARCH_ARM64 1
#else
#define DDI_MRT_ARCH_ARM64 0
#endif

/* Encoder flags. */
#define DDI_MARSHAL_NO_FOLLOW 1u /* pointers with a size rule as addresses, pointees not copied */

/* Decoder errors beyond ddi_cbor_status (same numbering space). */
#define DDI_MARSHAL_SIZE_MISMATCH 32 /* a byte string not of the field's size, or a pointee not of its size field's */
#define DDI_MARSHAL_ARENA_FULL 33    /* the caller's arena cannot hold a pointee */
#define DDI_MARSHAL_TRAILING 34      /* bytes after the structure */

/* Where decoded pointees go: [base + used, base + size), 16-byte aligned. */
typedef struct ddi_marshal_arena {
    uint8_t *base;
    size_t size;
    size_t used;
} ddi_marshal_arena;

/* What a decode found. Keys are field IDs of the spec; records are record
 * IDs. unknown/missing are not errors: they are what a reader generated
 * from another WDK release sees (fields added / removed). */
typedef struct ddi_marshal_result {
    int status;            /* DDI_CBOR_OK, a ddi_cbor_status or DDI_MARSHAL_* */
    size_t error_offset;   /* byte offset of the error in the input */
    uint32_t error_record; /* record being decoded at the error */
    uint32_t error_key;    /* field ID at the error (0: the map itself) */
    ddi_cbor_path error_path; /* keys (field IDs) and array indices from the record's map to the error */
    uint32_t unknown;      /* keys skipped: fields this code does not know */
    uint32_t first_unknown_record, first_unknown_key;
    uint32_t missing; /* fields this code knows that were absent */
    uint32_t first_missing_record, first_missing_key;
} ddi_marshal_result;

typedef struct ddi_marshal_ctx {
    ddi_cbor_reader r;
    ddi_marshal_arena *arena;
    ddi_marshal_result *res;
    unsigned depth;
} ddi_marshal_ctx;

void ddi_mrt_ctx_init(ddi_marshal_ctx *c, const void *data, size_t size, ddi_marshal_arena *arena,
                      ddi_marshal_result *res);
/* Ends a decode: trailing bytes are an error; returns 1 on success. */
int ddi_mrt_ctx_finish(ddi_marshal_ctx *c);
/* Records the first error with the record and key it was found at. Returns 0. */
int ddi_mrt_fail(ddi_marshal_ctx *c, int status, uint32_t record, uint32_t key);
/* The reader's own error (truncation, non-shortest form...) at a key. */
int ddi_mrt_fail_read(ddi_marshal_ctx *c, uint32_t record, uint32_t key);
/* Enters a map of a record (depth-bounded); count of pairs. */
int ddi_mrt_enter_slow(ddi_marshal_ctx *c, uint32_t record, uint64_t *count);
DDI_MRT_INLINE void ddi_mrt_leave(ddi_marshal_ctx *c)
{
    c->depth--;
}
/* A key not known: counted and its value skipped (as strictly as it is
 * read, the depth counted from the record's top map). A key beyond the
 * seen-key bitmap (words * 64) is compared with the `index` keys before it
 * in the map whose pairs start at `pairs`: a duplicate is an error there too. */
int ddi_mrt_unknown(ddi_marshal_ctx *c, uint32_t record, uint64_t key, const uint8_t *pairs, uint64_t index,
                    unsigned words);
void ddi_mrt_missing(ddi_marshal_ctx *c, uint32_t record, uint32_t key);
/* Seen-key bitmap check: 0 (and the error) on a duplicate. */
DDI_MRT_HOT int ddi_mrt_seen(ddi_marshal_ctx *c, uint64_t *seen, unsigned words, uint32_t record, uint64_t key)
{
    uint64_t bit;
    if (key >= (uint64_t)words * 64u)
        return 1; /* beyond every known ID: an unknown key, counted there */
    bit = (uint64_t)1 << (key & 63u);
    if (seen[key >> 6] & bit)
        return ddi_mrt_fail(c, DDI_CBOR_DUPLICATE_KEY, record, (uint32_t)key);
    seen[key >> 6] |= bit;
    return 1;
}
#define DDI_MRT_HAS(seen, key) (((seen)[(key) >> 6] >> ((key)&63u)) & 1u)

/* ---- the tables the generated marshallers are made of ---------------
 * Per DDI record, ddi_marshal.c holds a constant table of rows, one per
 * named field in the order this release writes them (rows under the same
 * version and arch #if as the fields), and one shared interpreter below
 * encodes and strictly decodes any record from its table. What only the C
 * compiler knows (bit-field positions, which member a discriminator's
 * value selects) is asked of two small generated functions per record. */
enum ddi_mrt_kind {
    DDI_MRT_END = 0, /* ends a row list */
    /* Integers: by width, so that the interpreter's one dispatch per row
     * also gives the width (DDI_MRT_FU / DDI_MRT_FS / DDI_MRT_FP pick the
     * kind from the member's sizeof); the plain kinds take any `size`. */
    DDI_MRT_U,  /* unsigned integer of `size` bytes */
    DDI_MRT_U1,
    DDI_MRT_U2,
    DDI_MRT_U4,
    DDI_MRT_U8,
    DDI_MRT_S, /* signed integer of `size` bytes */
    DDI_MRT_S1,
    DDI_MRT_S2,
    DDI_MRT_S4,
    DDI_MRT_S8,
    DDI_MRT_PTR, /* an address of `size` bytes */
    DDI_MRT_P4,
    DDI_MRT_P8,
    DDI_MRT_BU,      /* an unsigned bit-field: `off` is its field ID for the record's bits accessors */
    DDI_MRT_BS,      /* a signed bit-field, likewise */
    DDI_MRT_FOLLOW,  /* a pointer with a size rule: null, address or pointee bytes */
    DDI_MRT_RAW,     /* a byte string of the field's `size` bytes */
    DDI_MRT_NEST,    /* a named member record: a map, its `size` rows at `sub` */
    DDI_MRT_REC,     /* a DDI record held by value: a map, record `sub` */
    DDI_MRT_ARR_U,   /* an array of `size` unsigned integers of `elem` bytes */
    DDI_MRT_ARR_S,   /* an array of `size` signed integers of `elem` bytes */
    DDI_MRT_ARR_REC, /* an array of `size` records `sub` of `elem` bytes */
    DDI_MRT_DISC     /* union `disc` with a discriminator: its members' `size` rows at `sub`,
                        in this map as if they were its own */
};
#define DDI_MRT_F_IN_DISC 2u      /* a member of a union with a discriminator: never missing */
#define DDI_MRT_F_COUNT_SIGNED 4u /* FOLLOW: the count field is signed */
#define DDI_MRT_F_DISCS 8u        /* NEST: its rows may hold DISC rows (the encoder counts their members) */
#define DDI_MRT_MAX_WORDS 8u      /* seen-key bitmap words (field IDs below 512) */
#define DDI_MRT_MAX_DISC 8u       /* unions with a discriminator in one map */
#define DDI_MRT_MAX_FOLLOW 8u     /* followed pointers in one map */

typedef struct ddi_mrt_row {
    const void *sub;    /* NEST, DISC: its rows; REC, ARR_REC: its ddi_mrt_record */
    uint32_t off, size; /* offset from the record's start, bytes (integers, pointers,
                           RAW); arrays: element count; NEST, DISC: its rows (DDI_MRT_N);
                           bit-field: off is its ID */
    uint8_t kind;       /* enum ddi_mrt_kind */
    uint8_t key_len;    /* bytes of key_bytes that are the key */
    uint16_t key;       /* the field ID */
    uint32_t key_bytes; /* the key as CBOR, little-endian (DDI_MRT_KEY) */
    uint8_t flags;      /* DDI_MRT_F_* */
    uint8_t disc;       /* DISC and its rows: which union with a discriminator of the record (from 1) */
    uint8_t member;     /* a DISC's row: which member of that union (its rows share it) */
    uint32_t count_off, count_size; /* FOLLOW: the count field */
    uint32_t elem;                  /* arrays: element bytes; FOLLOW: pointee element bytes */
} ddi_mrt_row;
/* A row's key_len, key, key_bytes from a field ID below 65536. */
#define DDI_MRT_KEY(id)                                                                                                \
    (uint8_t)((id) < 24u ? 1 : (id) < 256u ? 2 : 3), (uint16_t)(id),                                                   \
        (uint32_t)((id) < 24u ? (id) : (id) < 256u ? 0x18u | (id) << 8 : 0x19u | ((id) >> 8) << 8 | ((id)&255u) << 16)
/* The zero row that ends a row list, every member given (C++ -Wextra
 * warns of `{0}` as missing initializers). */
#define DDI_MRT_ZERO_ROW {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
/* The rows of a row list before its zero row. */
#define DDI_MRT_N(rows) (uint32_t)(sizeof(rows) / sizeof((rows)[0]) - 1u)
/* The offset and size of member m of T, as a row's off, size. */
#define DDI_MRT_F(T, m) (uint32_t) offsetof(T, m), (uint32_t)sizeof(((T *)0)->m)
/* The kind of an n-byte integer: its width's own, or the plain one. */
#define DDI_MRT_KW(base, n)                                                                                            \
    (uint8_t)((n) == 1 ? base##1 : (n) == 2 ? base##2 : (n) == 4 ? base##4 : (n) == 8 ? base##8 : base)
/* off, size, kind of an unsigned / signed integer member, a pointer. */
#define DDI_MRT_FU(T, m) DDI_MRT_F(T, m), DDI_MRT_KW(DDI_MRT_U, sizeof(((T *)0)->m))
#define DDI_MRT_FS(T, m) DDI_MRT_F(T, m), DDI_MRT_KW(DDI_MRT_S, sizeof(((T *)0)->m))
#define DDI_MRT_FP(T, m)                                                                                               \
    DDI_MRT_F(T, m),                                                                                                   \
        (uint8_t)(sizeof(((T *)0)->m) == 4 ? DDI_MRT_P4 : sizeof(((T *)0)->m) == 8 ? DDI_MRT_P8 : DDI_MRT_PTR)

typedef struct ddi_mrt_record {
    const ddi_mrt_row *rows; /* the top map */
    uint32_t nrows;          /* its rows before the zero row (DDI_MRT_N) */
    uint32_t id;             /* record ID */
    uint16_t words;          /* seen-key bitmap words (highest field ID / 64 + 1) */
    uint16_t discs;          /* 1 when the top map's rows may hold DISC rows */
    /* Bit-field i of the record at a, widened (signed ones sign-extended). */
    uint64_t (*bits_get)(const void *a, unsigned i);
    /* Stores v in bit-field i; 0 when it does not hold v (out of range). */
    int (*bits_set)(void *a, unsigned i, uint64_t v);
    /* The member of union `disc` its discriminator selects: its index,
     * -1 for a value no case names (every member, pointers not followed),
     * -2 for a case without a member (nothing). */
    int (*select)(const void *a, unsigned disc);
} ddi_mrt_record;

/* The interpreter: a record (or, for the generated wrappers, a record
 * inside a trace) on a writer / from a context. Nested maps recurse at
 * most DDI_CBOR_MAX_DEPTH deep (the decoder's own bound; the generator
 * refuses records that nest deeper). */
void ddi_mrt_put_record(ddi_cbor_writer *w, const ddi_mrt_record *rec, const void *a, unsigned flags);
int ddi_mrt_get_record(ddi_marshal_ctx *c, const ddi_mrt_record *rec, void *out);
size_t ddi_mrt_enc_record(const ddi_mrt_record *rec, const void *a, void *buffer, size_t size, unsigned flags);
int ddi_mrt_dec_record(const ddi_mrt_record *rec, void *out, size_t out_size, const void *data, size_t size,
                       ddi_marshal_arena *arena, ddi_marshal_result *res);

/* ---- writer fast paths ------------------------------------------------ */

/* A head the slow way (buffer short or already overflowed): counted by ddi_cbor. */
void ddi_mrt_put_h_slow(ddi_cbor_writer *w, uint8_t major, uint64_t v);
/* A head in shortest form at p, which has room for 9 bytes; returns the
 * position after it. */
DDI_MRT_HOT uint8_t *ddi_mrt_w_head(uint8_t *p, uint8_t major, uint64_t v)
{
    if (v < 24) {
        p[0] = (uint8_t)(major | v);
        return p + 1;
    }
    if (v <= 0xFFu) {
        p[0] = (uint8_t)(major | 24u);
        p[1] = (uint8_t)v;
        return p + 2;
    }
    if (v <= 0xFFFFu) {
        p[0] = (uint8_t)(major | 25u);
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)v;
        return p + 3;
    }
    if (v <= 0xFFFFFFFFu) {
        p[0] = (uint8_t)(major | 26u);
        p[1] = (uint8_t)(v >> 24);
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 8);
        p[4] = (uint8_t)v;
        return p + 5;
    }
    p[0] = (uint8_t)(major | 27u);
    p[1] = (uint8_t)(v >> 56);
    p[2] = (uint8_t)(v >> 48);
    p[3] = (uint8_t)(v >> 40);
    p[4] = (uint8_t)(v >> 32);
    p[5] = (uint8_t)(v >> 24);
    p[6] = (uint8_t)(v >> 16);
    p[7] = (uint8_t)(v >> 8);
    p[8] = (uint8_t)v;
    return p + 9;
}
/* The head of an item of major type `major` (shifted) with argument v:
 * inline while everything so far fit, else counted by ddi_cbor. */
DDI_MRT_HOT void ddi_mrt_head(ddi_cbor_writer *w, uint8_t major, uint64_t v)
{
    if ((size_t)(w->end - w->pos) >= 9 && (size_t)(w->pos - w->start) == w->needed) {
        uint8_t *q = ddi_mrt_w_head(w->pos, major, v);
        w->needed += (size_t)(q - w->pos);
        w->pos = q;
        return;
    }
    ddi_mrt_put_h_slow(w, major, v);
}

/* For the trace record's envelope (ddi_trace.c). */
DDI_MRT_HOT void ddi_mrt_put_u(ddi_cbor_writer *w, uint64_t v)
{
    ddi_mrt_head(w, 0x00, v);
}
DDI_MRT_INLINE void ddi_mrt_put_array(ddi_cbor_writer *w, uint64_t n)
{
    ddi_mrt_head(w, 0x80, n);
}
/* ---- reader fast paths ------------------------------------------------ */

/* The argument of a head of major type `major` in its shortest form, read
 * inline; 0 leaves everything else (errors included) to ddi_cbor. */
DDI_MRT_HOT int ddi_mrt_fast_arg(ddi_marshal_ctx *c, unsigned major, uint64_t *v)
{
    const uint8_t *p = c->r.pos;
    size_t left = (size_t)(c->r.end - p);
    unsigned ai;
    if (!left || c->r.status != DDI_CBOR_OK || (unsigned)(p[0] >> 5) != major)
        return 0;
    ai = p[0] & 31u;
    if (ai < 24) {
        *v = ai;
        c->r.pos = p + 1;
        return 1;
    }
    if (ai == 24 && left >= 2 && p[1] >= 24) {
        *v = p[1];
        c->r.pos = p + 2;
        return 1;
    }
    if (ai == 25 && left >= 3 && p[1] != 0) {
        *v = ((uint64_t)p[1] << 8) | p[2];
        c->r.pos = p + 3;
        return 1;
    }
    if (ai == 26 && left >= 5 && (p[1] | p[2]) != 0) {
        *v = ((uint64_t)p[1] << 24) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 8) | p[4];
        c->r.pos = p + 5;
        return 1;
    }
    if (ai == 27 && left >= 9 && (p[1] | p[2] | p[3] | p[4]) != 0) {
        *v = ((uint64_t)p[1] << 56) | ((uint64_t)p[2] << 48) | ((uint64_t)p[3] << 40) | ((uint64_t)p[4] << 32) |
             ((uint64_t)p[5] << 24) | ((uint64_t)p[6] << 16) | ((uint64_t)p[7] << 8) | p[8];
        c->r.pos = p + 9;
        return 1;
    }
    return 0;
}

/* Copies n bytes (the field sizes are constants once inlined): eight at a
 * time composed into one integer, which compilers turn into one load and
 * one store, the rest bytewise. No CRT memcpy. */
DDI_MRT_HOT void ddi_mrt_copy(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = (uint64_t)s[i] | (uint64_t)s[i + 1] << 8 | (uint64_t)s[i + 2] << 16 | (uint64_t)s[i + 3] << 24 |
                     (uint64_t)s[i + 4] << 32 | (uint64_t)s[i + 5] << 40 | (uint64_t)s[i + 6] << 48 |
                     (uint64_t)s[i + 7] << 56;
        d[i] = (uint8_t)v;
        d[i + 1] = (uint8_t)(v >> 8);
        d[i + 2] = (uint8_t)(v >> 16);
        d[i + 3] = (uint8_t)(v >> 24);
        d[i + 4] = (uint8_t)(v >> 32);
        d[i + 5] = (uint8_t)(v >> 40);
        d[i + 6] = (uint8_t)(v >> 48);
        d[i + 7] = (uint8_t)(v >> 56);
    }
    for (; i < n; i++)
        d[i] = s[i];
}

/* ---- local-cursor writer ---------------------------------------------
 * The generated encoders keep the write position in a local (p) bounded by
 * e, so that it stays in a register across the byte stores (a store through
 * uint8_t * may alias the writer's own fields). e is the writer's end while
 * everything so far fit, else p: then no fast check passes and every item
 * goes the counted slow way (ddi_cbor), which writes nothing more. Before
 * any out-of-line call the cursor is stored back (wc_store) and reloaded
 * after (wc_load). */
typedef struct ddi_mrt_wc {
    uint8_t *p;
    uint8_t *e;
} ddi_mrt_wc;

DDI_MRT_HOT void ddi_mrt_wc_load(ddi_mrt_wc *c, const ddi_cbor_writer *w)
{
    c->p = w->pos;
    c->e = (size_t)(w->pos - w->start) == w->needed ? w->end : w->pos;
}
DDI_MRT_HOT void ddi_mrt_wc_store(const ddi_mrt_wc *c, ddi_cbor_writer *w)
{
    w->needed += (size_t)(c->p - w->pos);
    w->pos = c->p;
}
/* The slow ways (buffer short or already overflowed): counted by ddi_cbor. */
void ddi_mrt_put_kh_slow(ddi_cbor_writer *w, uint64_t key, uint8_t major, uint64_t v);
void ddi_mrt_put_kbytes_slow(ddi_cbor_writer *w, uint64_t key, const void *p, size_t n);
#define DDI_MRT_KEYVAL(kn, k0, k1, k2)                                                                                 \
    ((kn) == 1 ? (uint64_t)(k0) : (kn) == 2 ? (uint64_t)(k1) : ((uint64_t)(k1) << 8) | (k2))

/* A key of 1 to 3 precomputed bytes at p (room checked by the caller). */
DDI_MRT_HOT uint8_t *ddi_mrt_w_key(uint8_t *p, unsigned kn, uint8_t k0, uint8_t k1, uint8_t k2)
{
    p[0] = k0;
    if (kn > 1)
        p[1] = k1;
    if (kn > 2)
        p[2] = k2;
    return p + kn;
}
/* A head alone (a map count, an array element). */
DDI_MRT_HOT void ddi_mrt_wc_h(ddi_mrt_wc *c, ddi_cbor_writer *w, uint8_t major, uint64_t v)
{
    if ((size_t)(c->e - c->p) >= 9) {
        c->p = ddi_mrt_w_head(c->p, major, v);
        return;
    }
    ddi_mrt_wc_store(c, w);
    ddi_mrt_put_h_slow(w, major, v);
    ddi_mrt_wc_load(c, w);
}
DDI_MRT_HOT void ddi_mrt_wc_s(ddi_mrt_wc *c, ddi_cbor_writer *w, int64_t v)
{
    if (v >= 0)
        ddi_mrt_wc_h(c, w, 0x00, (uint64_t)v);
    else
        ddi_mrt_wc_h(c, w, 0x20, ~(uint64_t)v);
}
/* A key alone (the value is a map or array that follows). */
DDI_MRT_HOT void ddi_mrt_wc_key(ddi_mrt_wc *c, ddi_cbor_writer *w, unsigned kn, uint8_t k0, uint8_t k1, uint8_t k2)
{
    if ((size_t)(c->e - c->p) >= 3) {
        c->p = ddi_mrt_w_key(c->p, kn, k0, k1, k2);
        return;
    }
    ddi_mrt_wc_store(c, w);
    ddi_cbor_put_uint(w, DDI_MRT_KEYVAL(kn, k0, k1, k2));
    ddi_mrt_wc_load(c, w);
}
/* A key and a head, one room check for both. */
DDI_MRT_HOT void ddi_mrt_wc_kh(ddi_mrt_wc *c, ddi_cbor_writer *w, unsigned kn, uint8_t k0, uint8_t k1, uint8_t k2,
                               uint8_t major, uint64_t v)
{
    if ((size_t)(c->e - c->p) >= 12) {
        c->p = ddi_mrt_w_head(ddi_mrt_w_key(c->p, kn, k0, k1, k2), major, v);
        return;
    }
    ddi_mrt_wc_store(c, w);
    ddi_mrt_put_kh_slow(w, DDI_MRT_KEYVAL(kn, k0, k1, k2), major, v);
    ddi_mrt_wc_load(c, w);
}
/* A key and a byte string of a field's object representation. */
DDI_MRT_HOT void ddi_mrt_wc_kraw(ddi_mrt_wc *c, ddi_cbor_writer *w, unsigned kn, uint8_t k0, uint8_t k1, uint8_t k2,
                                 const void *src, size_t n)
{
    if (n < 24 && (size_t)(c->e - c->p) >= 4 + n) {
        uint8_t *p = ddi_mrt_w_key(c->p, kn, k0, k1, k2);
        p[0] = (uint8_t)(0x40u | n);
        ddi_mrt_copy(p + 1, (const uint8_t *)src, n);
        c->p = p + 1 + n;
        return;
    }
    ddi_mrt_wc_store(c, w);
    ddi_mrt_put_kbytes_slow(w, DDI_MRT_KEYVAL(kn, k0, k1, k2), src, n);
    ddi_mrt_wc_load(c, w);
}
/* A key and a pointer with a size rule: null, an
 * address (no follow, or a size beyond size_t) inline; pointee bytes out of
 * line. */
DDI_MRT_HOT void ddi_mrt_wc_kfollow(ddi_mrt_wc *c, ddi_cbor_writer *w, unsigned kn, uint8_t k0, uint8_t k1, uint8_t k2,
                                    const void *ptr, uint64_t count, size_t elem, unsigned flags)
{
    if (!ptr) {
        ddi_mrt_wc_kh(c, w, kn, k0, k1, k2, 0xE0, 22u); /* null */
        return;
    }
    if ((flags & DDI_MARSHAL_NO_FOLLOW) || (elem && count > (uint64_t)(~(size_t)0) / elem)) {
        ddi_mrt_wc_kh(c, w, kn, k0, k1, k2, 0x00, (uint64_t)(uintptr_t)ptr);
        return;
    }
    ddi_mrt_wc_store(c, w);
    ddi_mrt_put_kbytes_slow(w, DDI_MRT_KEYVAL(kn, k0, k1, k2), ptr, (size_t)count * elem);
    ddi_mrt_wc_load(c, w);
}

/* An unsigned integer: shortest forms inline, the rest via ddi_cbor. */
DDI_MRT_HOT int ddi_mrt_get_u(ddi_marshal_ctx *c, uint64_t *v)
{
    return ddi_mrt_fast_arg(c, DDI_CBOR_UINT, v) || ddi_cbor_get_uint(&c->r, v);
}
DDI_MRT_HOT int ddi_mrt_get_s(ddi_marshal_ctx *c, int64_t *v)
{
    const uint8_t *start = c->r.pos;
    uint64_t u;
    if (ddi_mrt_fast_arg(c, DDI_CBOR_UINT, &u) || ddi_mrt_fast_arg(c, DDI_CBOR_NEGINT, &u)) {
        if (u <= (uint64_t)INT64_MAX) {
            *v = (start[0] >> 5) == DDI_CBOR_NEGINT ? (int64_t)~u : (int64_t)u;
            return 1;
        }
        c->r.pos = start; /* out of range: ddi_cbor reports it */
    }
    return ddi_cbor_get_int(&c->r, v);
}

/* Enters a map of a record (depth-bounded): the count of pairs, which must
 * fit the bytes left (two per pair at least). */
DDI_MRT_HOT int ddi_mrt_enter(ddi_marshal_ctx *c, uint32_t record, uint64_t *count)
{
    const uint8_t *start = c->r.pos;
    if (c->depth < DDI_CBOR_MAX_DEPTH && ddi_mrt_fast_arg(c, DDI_CBOR_MAP, count)) {
        if (*count <= (uint64_t)(c->r.end - c->r.pos) / 2u && *count <= DDI_CBOR_MAX_PAIRS) {
            c->depth++;
            return 1;
        }
        c->r.pos = start;
    }
    return ddi_mrt_enter_slow(c, record, count);
}

/* An address (uint) into *p. */
int ddi_mrt_get_ptr_slow(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uintptr_t *p);
DDI_MRT_HOT int ddi_mrt_get_ptr(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uintptr_t *p)
{
    uint64_t v;
    if (ddi_mrt_fast_arg(c, DDI_CBOR_UINT, &v) && v == (uint64_t)(uintptr_t)v) {
        *p = (uintptr_t)v;
        return 1;
    }
    return ddi_mrt_get_ptr_slow(c, record, key, p);
}

/* A byte string of exactly n bytes, copied to p. */
int ddi_mrt_get_raw(ddi_marshal_ctx *c, uint32_t record, uint32_t key, void *p, size_t n);
/* A followed pointer: null, an address, or bytes copied into the arena.
 * *count_bytes gets the pointee size (or ~0 when no bytes were given) so
 * the caller checks it against the size field once the map is read. */
int ddi_mrt_get_follow(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uintptr_t *p, size_t *count_bytes);
/* An array header of exactly n items; the array is a level of nesting
 * (depth-bounded as a map): ddi_mrt_leave after its items. */
int ddi_mrt_get_array(ddi_marshal_ctx *c, uint32_t record, uint32_t key, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif /* DDI_MARSHAL_RT_H */
