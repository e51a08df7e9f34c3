/* The generated marshallers (fixture 10.0.26100.0, host build): every record
 * round-trips random contents (seeded); a buffer one byte short is never
 * overrun; truncated input at every length, a depth bomb, a length of 2^63,
 * duplicate keys, type mismatches and non-shortest integers are refused with
 * their error codes and keys; sized pointers are followed into the arena;
 * libcbor reads what we write and we read what libcbor writes; pairs in
 * another order than ours decode the same. */
#include <dispmprt.h>
#include <ntddk.h>

#include "ddi_marshal.h"

#include <cbor.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h> /* after setjmp.h, stdarg.h, stddef.h */

#define BPB DXGKARG_BUILDPAGINGBUFFER
#define FIELD(path) DDI_MARSHAL_FIELD_DXGKARG_BUILDPAGINGBUFFER_##path

static uint64_t rng_state;
static uint64_t rng(void)
{
    /* xorshift64*: seeded, so a failure replays. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static void fill_random(void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((uint8_t *)p)[i] = (uint8_t)(rng() >> 56);
}

static size_t count_types(void)
{
    size_t n = 0;
    while (ddi_marshal_types[n].name)
        n++;
    return n;
}

static size_t encode_type(const ddi_marshal_type *t, const void *obj, uint8_t *buf, size_t size, unsigned flags)
{
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buf, size);
    t->put(&w, obj, flags);
    return w.needed;
}

static int decode_type(const ddi_marshal_type *t, void *out, const uint8_t *buf, size_t n, ddi_marshal_result *res)
{
    ddi_marshal_ctx c;
    memset(out, 0, t->size);
    ddi_mrt_ctx_init(&c, buf, n, NULL, res);
    if (!t->get(&c, out))
        return ddi_mrt_fail_read(&c, (uint32_t)t->id, 0);
    return ddi_mrt_ctx_finish(&c);
}

/* encode(decode(encode(x))) == encode(x) for random x: a field the decoder
 * drops or misplaces changes the second encoding. */
static void every_record_round_trips(void **state)
{
    (void)state;
    size_t types = count_types();
    assert_true(types > 150);
    for (size_t k = 0; k < types; k++) {
        const ddi_marshal_type *t = &ddi_marshal_types[k];
        void *a = malloc(t->size), *b = malloc(t->size);
        for (unsigned seed = 1; seed <= 16; seed++) {
            rng_state = 0x9E3779B97F4A7C15ull * (k + 1) + seed;
            fill_random(a, t->size);
            size_t need = encode_type(t, a, NULL, 0, DDI_MARSHAL_NO_FOLLOW);
            uint8_t *buf = malloc(need), *buf2 = malloc(need);
            assert_int_equal(encode_type(t, a, buf, need, DDI_MARSHAL_NO_FOLLOW), need);
            ddi_marshal_result res;
            if (!decode_type(t, b, buf, need, &res))
                fail_msg("%s seed %u: decode failed, status %d at key %u", t->name, seed, res.status, res.error_key);
            assert_int_equal(res.unknown, 0);
            if (res.missing)
                fail_msg("%s: %u fields missing (first key %u)", t->name, res.missing, res.first_missing_key);
            assert_int_equal(encode_type(t, b, buf2, need, DDI_MARSHAL_NO_FOLLOW), need);
            if (memcmp(buf, buf2, need) != 0)
                fail_msg("%s seed %u: the decoded record encodes differently", t->name, seed);
            free(buf);
            free(buf2);
        }
        free(a);
        free(b);
    }
}

/* A buffer one byte short: the size needed is returned, nothing is written
 * past the end (a canary after it stays), and what was written is a prefix
 * of the full encoding. */
static void one_byte_short_is_not_overrun(void **state)
{
    (void)state;
    for (size_t k = 0; ddi_marshal_types[k].name; k++) {
        const ddi_marshal_type *t = &ddi_marshal_types[k];
        void *a = malloc(t->size);
        rng_state = 77 + k;
        fill_random(a, t->size);
        size_t need = encode_type(t, a, NULL, 0, DDI_MARSHAL_NO_FOLLOW);
        uint8_t *full = malloc(need), *shortb = malloc(need + 16);
        encode_type(t, a, full, need, DDI_MARSHAL_NO_FOLLOW);
        memset(shortb, 0xA5, need + 16);
        assert_int_equal(encode_type(t, a, shortb, need - 1, DDI_MARSHAL_NO_FOLLOW), need);
        for (size_t i = need - 1; i < need + 16; i++)
            assert_int_equal(shortb[i], 0xA5);
        free(a);
        free(full);
        free(shortb);
    }
}

static BPB fill_args(void)
{
    BPB a;
    memset(&a, 0, sizeof a);
    a.Operation = DXGK_OPERATION_FILL;
    a.DmaSize = 4096;
    a.MultipassOffset = 3;
    a.Fill.hAllocation = (HANDLE)(uintptr_t)0x1234;
    a.Fill.FillSize = 65536;
    a.Fill.FillPattern = 0xDEADBEEF;
    a.Fill.Destination.SegmentId = 2;
    a.Fill.Destination.SegmentAddress.QuadPart = 0x100000;
    return a;
}

static size_t enc_bpb(const BPB *a, uint8_t *buf, size_t size, unsigned flags)
{
    return ddi_marshal_enc_DXGKARG_BUILDPAGINGBUFFER(a, buf, size, flags);
}

static void truncated_input_fails_at_every_length(void **state)
{
    (void)state;
    BPB a = fill_args(), b;
    uint8_t buf[512];
    size_t n = enc_bpb(&a, buf, sizeof buf, 0);
    assert_true(n < sizeof buf);
    for (size_t len = 0; len < n; len++) {
        ddi_marshal_result res;
        uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees any over-read */
        memcpy(copy, buf, len);
        assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, copy, len, NULL, &res), 0);
        /* A head cut short is TRUNCATED; a count or length beyond the
         * bytes left (the map's own) is TOO_LARGE. */
        if (res.status != DDI_CBOR_TRUNCATED && res.status != DDI_CBOR_TOO_LARGE)
            fail_msg("length %zu of %zu: status %d", len, n, res.status);
        free(copy);
    }
    ddi_marshal_result res;
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, buf, n, NULL, &res), 1);
    assert_int_equal(b.Fill.FillPattern, 0xDEADBEEF);
    assert_int_equal(b.Fill.Destination.SegmentAddress.QuadPart, 0x100000);
}

/* A map with one more pair appended: {..., key: value}. */
static size_t with_extra_pair(const uint8_t *map, size_t n, const uint8_t *pair, size_t pn, uint8_t *out)
{
    /* The record maps here have < 24 pairs: one head byte. */
    assert_true(map[0] >= 0xA0 && map[0] < 0xB7);
    out[0] = (uint8_t)(map[0] + 1);
    memcpy(out + 1, map + 1, n - 1);
    memcpy(out + n, pair, pn);
    return n + pn;
}

static int dec_bpb(const uint8_t *buf, size_t n, ddi_marshal_result *res)
{
    BPB b;
    return ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, buf, n, NULL, res);
}

static void bad_input_gets_its_error_code(void **state)
{
    (void)state;
    BPB a = fill_args();
    uint8_t buf[512], bad[1024];
    size_t n = enc_bpb(&a, buf, sizeof buf, 0);
    ddi_marshal_result res;

    /* Depth bomb: an unknown key whose value nests 64 arrays. */
    uint8_t bomb[2 + 64];
    size_t bn = 0;
    bomb[bn++] = 0x18;
    bomb[bn++] = 200; /* key 200: no such field */
    for (int i = 0; i < 63; i++)
        bomb[bn++] = 0x81;
    bomb[bn++] = 0x80;
    size_t m = with_extra_pair(buf, n, bomb, bn, bad);
    assert_int_equal(dec_bpb(bad, m, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TOO_DEEP);

    /* Lengths of 2^63: a byte string, an array, a map (under a key this
     * code does not know, so only the skip's checks stand in the way). */
    static const uint8_t huge_bytes[] = {0xA1, 0x18, 100, 0x5B, 0x80, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t huge_array[] = {0xA1, 0x18, 100, 0x9B, 0x80, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t huge_map[] = {0xBB, 0x80, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(dec_bpb(huge_bytes, sizeof huge_bytes, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TOO_LARGE);
    assert_int_equal(dec_bpb(huge_array, sizeof huge_array, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TOO_LARGE);
    assert_int_equal(dec_bpb(huge_map, sizeof huge_map, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TOO_LARGE);

    /* A duplicate key, reported with the key. */
    static const uint8_t dup[] = {FIELD(DmaSize), 0x01};
    m = with_extra_pair(buf, n, dup, sizeof dup, bad);
    assert_int_equal(dec_bpb(bad, m, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_DUPLICATE_KEY);
    assert_int_equal(res.error_key, FIELD(DmaSize));
    assert_int_equal(res.error_record, DDI_MARSHAL_ID_DXGKARG_BUILDPAGINGBUFFER);

    /* A type mismatch at a key: DmaSize as a byte string. Built by hand. */
    uint8_t tm[] = {0xA1, FIELD(DmaSize), 0x41, 0x00};
    assert_int_equal(dec_bpb(tm, sizeof tm, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TYPE_MISMATCH);
    assert_int_equal(res.error_key, FIELD(DmaSize));

    /* A value too large for the field (UINT DmaSize = 2^32). */
    uint8_t big[] = {0xA1, FIELD(DmaSize), 0x1B, 0, 0, 0, 1, 0, 0, 0, 0};
    assert_int_equal(dec_bpb(big, sizeof big, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TOO_LARGE);
    assert_int_equal(res.error_key, FIELD(DmaSize));

    /* A non-shortest integer: 5 in two bytes. */
    uint8_t ns[] = {0xA1, FIELD(DmaSize), 0x18, 0x05};
    assert_int_equal(dec_bpb(ns, sizeof ns, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_NOT_SHORTEST);

    /* Trailing bytes after the record. */
    uint8_t tr[] = {0xA0, 0x00};
    assert_int_equal(dec_bpb(tr, sizeof tr, &res), 0);
    assert_int_equal(res.status, DDI_MARSHAL_TRAILING);

    /* An unknown key is skipped and counted, not an error; the absent
     * fields are counted as missing. */
    uint8_t unk[] = {0xA2, FIELD(DmaSize), 0x05, 0x18, 250, 0x82, 0x01, 0x02};
    BPB b;
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, unk, sizeof unk, NULL, &res), 1);
    assert_int_equal(res.unknown, 1);
    assert_int_equal(res.first_unknown_key, 250);
    assert_int_equal(b.DmaSize, 5);
    assert_true(res.missing > 0);
}

/* Strict at every depth (issue 24): each record below is refused with its
 * status, the key at fault and the key path from the record's map. */
static void check_bad(const uint8_t *m, size_t n, int status, uint32_t key, unsigned path_len, const uint64_t *path)
{
    ddi_marshal_result res;
    assert_int_equal(dec_bpb(m, n, &res), 0);
    if (res.status != status || res.error_key != key || res.error_path.len != path_len)
        print_message("record of %zu bytes starting %02x %02x: status %d key %u path of %u\n", n, m[0], m[1],
                      res.status, res.error_key, res.error_path.len);
    assert_int_equal(res.status, status);
    assert_int_equal(res.error_key, key);
    assert_int_equal(res.error_path.len, path_len);
    for (unsigned i = 0; i < path_len; i++)
        assert_true(res.error_path.key[i] == path[i]);
}

static void strict_at_every_depth(void **state)
{
    (void)state;
    const uint32_t OP = FIELD(Operation), DS = FIELD(DmaSize);
    /* Duplicate unknown keys: small (beyond the bitmap), 64 Ki, 2^64 - 1
     * (reported as 0xFFFFFFFF, the path keeps it whole). */
    static const uint8_t d300[] = {0xA2, 0x19, 0x01, 0x2C, 0x01, 0x19, 0x01, 0x2C, 0x02};
    check_bad(d300, sizeof d300, DDI_CBOR_DUPLICATE_KEY, 300, 1, (const uint64_t[]){300});
    static const uint8_t d64k[] = {0xA2, 0x1A, 0, 1, 0, 0, 0x01, 0x1A, 0, 1, 0, 0, 0x02};
    check_bad(d64k, sizeof d64k, DDI_CBOR_DUPLICATE_KEY, 65536, 1, (const uint64_t[]){65536});
    static const uint8_t dmax[] = {0xA2, 0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
                                   0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
    check_bad(dmax, sizeof dmax, DDI_CBOR_DUPLICATE_KEY, 0xFFFFFFFFu, 1, (const uint64_t[]){UINT64_MAX});
    /* A duplicate inside an unknown key's map, and inside a map in an
     * array under it with byte-string keys. */
    static const uint8_t dinner[] = {0xA1, 0x19, 0x01, 0x2C, 0xA2, 0x01, 0x01, 0x01, 0x02};
    check_bad(dinner, sizeof dinner, DDI_CBOR_DUPLICATE_KEY, 300, 2, (const uint64_t[]){300, 1});
    static const uint8_t ddeep[] = {0xA1, 0x19, 0x01, 0x2C, 0x81, 0xA2, 0x41, 'k', 0x01, 0x41, 'k', 0x02};
    check_bad(ddeep, sizeof ddeep, DDI_CBOR_DUPLICATE_KEY, 300, 2, (const uint64_t[]){300, 0});
    /* Nesting counted from the record's map: 1 + 16 arrays is too deep
     * under an unknown key, 1 + 15 is the limit. */
    uint8_t deep[32];
    size_t dn = 0;
    deep[dn++] = 0xA1;
    deep[dn++] = 0x19;
    deep[dn++] = 0x01;
    deep[dn++] = 0x2C;
    for (int i = 0; i < 16; i++)
        deep[dn++] = 0x81;
    deep[dn++] = 0x00;
    ddi_marshal_result res;
    assert_int_equal(dec_bpb(deep, dn, &res), 0);
    assert_int_equal(res.status, DDI_CBOR_TOO_DEEP);
    assert_int_equal(res.error_key, 300);
    memmove(deep + 4, deep + 5, dn - 5);
    assert_int_equal(dec_bpb(deep, dn - 1, &res), 1);
    /* Text that is not UTF-8, under an unknown key. */
    static const uint8_t badtext[] = {0xA1, 0x19, 0x01, 0x2C, 0x61, 0xFF};
    check_bad(badtext, sizeof badtext, DDI_CBOR_BAD_TEXT, 300, 1, (const uint64_t[]){300});
    /* Operation (an enum) as every other type; DmaSize (UINT) beyond its
     * width and negative. */
    static const uint8_t op_types[][3] = {{0x41, 0x01, 0}, {0x61, 'a', 0}, {0xA0, 0, 0}, {0x80, 0, 0},
                                          {0xF5, 0, 0},    {0xF6, 0, 0}};
    for (size_t i = 0; i < sizeof op_types / sizeof op_types[0]; i++) {
        uint8_t m[5] = {0xA1, (uint8_t)OP, op_types[i][0], op_types[i][1], op_types[i][2]};
        check_bad(m, op_types[i][0] == 0x41 || op_types[i][0] == 0x61 ? 4 : 3, DDI_CBOR_TYPE_MISMATCH, OP, 1,
                  (const uint64_t[]){OP});
    }
    static const uint8_t op_neg[] = {0xA1, (uint8_t)FIELD(Operation), 0x3B, 0, 0, 1, 0, 0, 0, 0, 0};
    check_bad(op_neg, sizeof op_neg, DDI_CBOR_TOO_LARGE, OP, 1, (const uint64_t[]){OP});
    static const uint8_t ds_max[] = {0xA1, (uint8_t)FIELD(DmaSize), 0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    check_bad(ds_max, sizeof ds_max, DDI_CBOR_TOO_LARGE, DS, 1, (const uint64_t[]){DS});
    static const uint8_t ds_neg[] = {0xA1, (uint8_t)FIELD(DmaSize), 0x20};
    check_bad(ds_neg, sizeof ds_neg, DDI_CBOR_TYPE_MISMATCH, DS, 1, (const uint64_t[]){DS});
    /* A type mismatch inside a nested record: the path goes through it. */
    /* (both IDs are in 24..255: one argument byte after 0x18) */
    static const uint8_t fp_bytes[] = {0xA1, 0x18, (uint8_t)FIELD(Fill), 0xA1, 0x18, (uint8_t)FIELD(Fill_FillPattern), 0x41, 0x00};
    check_bad(fp_bytes, sizeof fp_bytes, DDI_CBOR_TYPE_MISMATCH, FIELD(Fill_FillPattern), 2,
              (const uint64_t[]){FIELD(Fill), FIELD(Fill_FillPattern)});
}

/* pDmaBuffer has _Field_size_bytes_(DmaSize): followed into the arena. */
static void sized_pointers_are_followed_into_the_arena(void **state)
{
    (void)state;
    BPB a = fill_args(), b;
    uint8_t dma[64], buf[512], arena_mem[128];
    for (unsigned i = 0; i < sizeof dma; i++)
        dma[i] = (uint8_t)(i * 7);
    a.pDmaBuffer = dma;
    a.DmaSize = sizeof dma;
    size_t n = enc_bpb(&a, buf, sizeof buf, 0);
    assert_true(n > sizeof dma);
    ddi_marshal_arena arena = {arena_mem, sizeof arena_mem, 0};
    ddi_marshal_result res;
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, buf, n, &arena, &res), 1);
    assert_ptr_equal(b.pDmaBuffer, arena_mem);
    assert_memory_equal(b.pDmaBuffer, dma, sizeof dma);
    assert_int_equal(arena.used, sizeof dma);
    /* The arena too small: refused at the pointer's key. */
    ddi_marshal_arena small = {arena_mem, 32, 0};
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, buf, n, &small, &res), 0);
    assert_int_equal(res.status, DDI_MARSHAL_ARENA_FULL);
    assert_int_equal(res.error_key, FIELD(pDmaBuffer));
    /* With NO_FOLLOW the address travels instead. */
    n = enc_bpb(&a, buf, sizeof buf, DDI_MARSHAL_NO_FOLLOW);
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, buf, n, NULL, &res), 1);
    assert_ptr_equal(b.pDmaBuffer, dma);
    /* Pointee bytes that disagree with the size field. */
    uint8_t mis[] = {0xA2, FIELD(pDmaBuffer), 0x42, 1, 2, FIELD(DmaSize), 0x03};
    ddi_marshal_arena ar2 = {arena_mem, sizeof arena_mem, 0};
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, mis, sizeof mis, &ar2, &res), 0);
    assert_int_equal(res.status, DDI_MARSHAL_SIZE_MISMATCH);
    assert_int_equal(res.error_key, FIELD(pDmaBuffer));
}

/* Only the member the discriminator selects is written. */
static void unions_follow_their_discriminator(void **state)
{
    (void)state;
    BPB a = fill_args();
    uint8_t buf[512];
    size_t n = enc_bpb(&a, buf, sizeof buf, 0);
    struct cbor_load_result lr;
    cbor_item_t *root = cbor_load(buf, n, &lr);
    assert_non_null(root);
    int has_fill = 0, has_transfer = 0;
    struct cbor_pair *p = cbor_map_handle(root);
    for (size_t i = 0; i < cbor_map_size(root); i++) {
        uint64_t key = cbor_get_int(p[i].key);
        has_fill |= key == FIELD(Fill);
        has_transfer |= key == FIELD(Transfer);
    }
    assert_true(has_fill);
    assert_false(has_transfer);
    cbor_decref(&root);
}

/* libcbor decodes what we encode into the same values. */
static void libcbor_reads_our_records(void **state)
{
    (void)state;
    BPB a = fill_args();
    uint8_t buf[512];
    size_t n = enc_bpb(&a, buf, sizeof buf, 0);
    struct cbor_load_result lr;
    cbor_item_t *root = cbor_load(buf, n, &lr);
    assert_non_null(root);
    assert_int_equal(lr.read, n);
    assert_true(cbor_isa_map(root));
    struct cbor_pair *p = cbor_map_handle(root);
    int seen = 0;
    for (size_t i = 0; i < cbor_map_size(root); i++) {
        uint64_t key = cbor_get_int(p[i].key);
        if (key == FIELD(DmaSize))
            assert_int_equal(cbor_get_int(p[i].value), 4096), seen++;
        if (key == FIELD(Operation))
            assert_int_equal(cbor_get_int(p[i].value), DXGK_OPERATION_FILL), seen++;
        if (key == FIELD(Fill)) {
            struct cbor_pair *q = cbor_map_handle(p[i].value);
            for (size_t j = 0; j < cbor_map_size(p[i].value); j++) {
                if (cbor_get_int(q[j].key) == FIELD(Fill_FillPattern))
                    assert_int_equal(cbor_get_int(q[j].value), 0xDEADBEEF), seen++;
                if (cbor_get_int(q[j].key) == FIELD(Fill_FillSize))
                    assert_int_equal(cbor_get_int(q[j].value), 65536), seen++;
            }
        }
    }
    assert_int_equal(seen, 4);
    cbor_decref(&root);
}

/* We decode what libcbor encodes. */
static void we_read_libcbor_records(void **state)
{
    (void)state;
    cbor_item_t *fill = cbor_new_definite_map(2);
    cbor_map_add(fill, (struct cbor_pair){cbor_move(cbor_build_uint8(FIELD(Fill_FillPattern))),
                                          cbor_move(cbor_build_uint32(0xCAFEF00D))});
    cbor_map_add(
        fill, (struct cbor_pair){cbor_move(cbor_build_uint8(FIELD(Fill_FillSize))), cbor_move(cbor_build_uint16(300))});
    cbor_item_t *root = cbor_new_definite_map(3);
    cbor_map_add(root, (struct cbor_pair){cbor_move(cbor_build_uint8(FIELD(Operation))),
                                          cbor_move(cbor_build_uint8(DXGK_OPERATION_FILL))});
    cbor_map_add(root,
                 (struct cbor_pair){cbor_move(cbor_build_uint8(FIELD(DmaSize))), cbor_move(cbor_build_uint32(70000))});
    cbor_map_add(root, (struct cbor_pair){cbor_move(cbor_build_uint8(FIELD(Fill))), cbor_move(fill)});
    unsigned char *out = NULL;
    size_t cap = 0;
    size_t n = cbor_serialize_alloc(root, &out, &cap);
    assert_true(n > 0);
    BPB b;
    ddi_marshal_result res;
    assert_int_equal(ddi_marshal_dec_DXGKARG_BUILDPAGINGBUFFER(&b, out, n, NULL, &res), 1);
    assert_int_equal(b.Operation, DXGK_OPERATION_FILL);
    assert_int_equal(b.DmaSize, 70000);
    assert_int_equal(b.Fill.FillPattern, 0xCAFEF00D);
    assert_int_equal(b.Fill.FillSize, 300);
    free(out);
    cbor_decref(&root);
}

/* The decoders take the keys in the order this release writes them on a
 * fast path and the rest in a keyed loop: the same record with its pairs in
 * another order (reversed, rotated) decodes to the same values, and a key
 * given twice in a row (where the fast path expects the next one) is still
 * a duplicate. Every record, top-level pairs. */
static size_t reorder_pairs(const uint8_t *buf, size_t n, uint8_t *out, size_t size, int how)
{
    ddi_cbor_reader r;
    uint64_t count;
    size_t at[256], end[256];
    ddi_cbor_reader_init(&r, buf, n);
    assert_true(ddi_cbor_get_map(&r, &count));
    assert_true(count <= 256);
    for (uint64_t i = 0; i < count; i++) {
        at[i] = (size_t)(r.pos - r.start);
        assert_true(ddi_cbor_skip(&r) && ddi_cbor_skip(&r));
        end[i] = (size_t)(r.pos - r.start);
    }
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, out, size);
    ddi_cbor_put_map(&w, count + (how == 2 && count > 0));
    size_t o = w.needed;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t i = how == 0 ? count - 1 - k : how == 1 ? (k + 1) % count : k;
        memcpy(out + o, buf + at[i], end[i] - at[i]);
        o += end[i] - at[i];
        if (how == 2 && k == 0) { /* the first pair again, right after itself */
            memcpy(out + o, buf + at[i], end[i] - at[i]);
            o += end[i] - at[i];
        }
    }
    assert_true(o <= size);
    return o;
}

static void keys_in_any_order_decode_the_same(void **state)
{
    (void)state;
    size_t types = count_types();
    for (size_t k = 0; k < types; k++) {
        const ddi_marshal_type *t = &ddi_marshal_types[k];
        void *a = malloc(t->size), *b = malloc(t->size);
        for (unsigned seed = 1; seed <= 4; seed++) {
            rng_state = 0x2545F4914F6CDD1Dull * (k + 1) + seed;
            fill_random(a, t->size);
            size_t n = encode_type(t, a, NULL, 0, DDI_MARSHAL_NO_FOLLOW);
            uint8_t *buf = malloc(n), *moved = malloc(2 * n + 16), *again = malloc(n);
            assert_int_equal(encode_type(t, a, buf, n, DDI_MARSHAL_NO_FOLLOW), n);
            for (int how = 0; how < 3; how++) {
                ddi_marshal_result res;
                size_t m = reorder_pairs(buf, n, moved, 2 * n + 16, how);
                int ok = decode_type(t, b, moved, m, &res);
                if (how == 2 && m > n) {
                    if (ok || res.status != DDI_CBOR_DUPLICATE_KEY)
                        fail_msg("%s seed %u: a repeated first key not refused (status %d)", t->name, seed, res.status);
                    continue;
                }
                if (!ok)
                    fail_msg("%s seed %u order %d: status %d at key %u", t->name, seed, how, res.status,
                             (unsigned)res.error_key);
                assert_int_equal(res.unknown, 0);
                size_t m2 = encode_type(t, b, again, n, DDI_MARSHAL_NO_FOLLOW);
                if (m2 != n || memcmp(buf, again, n) != 0)
                    fail_msg("%s seed %u order %d: values differ after decoding reordered pairs", t->name, seed, how);
            }
            free(buf);
            free(moved);
            free(again);
        }
        free(a);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_record_round_trips),
        cmocka_unit_test(one_byte_short_is_not_overrun),
        cmocka_unit_test(truncated_input_fails_at_every_length),
        cmocka_unit_test(bad_input_gets_its_error_code),
        cmocka_unit_test(strict_at_every_depth),
        cmocka_unit_test(sized_pointers_are_followed_into_the_arena),
        cmocka_unit_test(unions_follow_their_discriminator),
        cmocka_unit_test(keys_in_any_order_decode_the_same),
        cmocka_unit_test(libcbor_reads_our_records),
        cmocka_unit_test(we_read_libcbor_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
