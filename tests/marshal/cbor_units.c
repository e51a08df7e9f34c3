/* Unit tests of ddi_cbor, the CBOR core of the generated marshallers: every
 * integer width at its boundaries, a short buffer never written past, and
 * every way a hostile input is refused (truncation at every length,
 * non-shortest forms, unsupported items, huge lengths, a depth bomb). */
#include "ddi_cbor.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t uint_edges[] = {0, 1, 23, 24, 255, 256, 65535, 65536, 0xFFFFFFFFu, 0x100000000ull,
                                      UINT64_MAX};
static const size_t uint_sizes[] = {1, 1, 1, 2, 2, 3, 3, 5, 5, 9, 9};

static void uints_round_trip_in_shortest_form(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof uint_edges / sizeof uint_edges[0]; i++) {
        uint8_t buf[16];
        ddi_cbor_writer w;
        ddi_cbor_writer_init(&w, buf, sizeof buf);
        ddi_cbor_put_uint(&w, uint_edges[i]);
        assert_int_equal(w.needed, uint_sizes[i]);
        ddi_cbor_reader r;
        ddi_cbor_reader_init(&r, buf, w.needed);
        uint64_t v = 0;
        assert_true(ddi_cbor_get_uint(&r, &v));
        assert_true(v == uint_edges[i]);
        assert_true(ddi_cbor_at_end(&r));
    }
}

static void ints_round_trip(void **state)
{
    (void)state;
    static const int64_t values[] = {0, -1, -24, -25, -256, -257, INT64_MIN, INT64_MAX, 1000000};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint8_t buf[16];
        ddi_cbor_writer w;
        ddi_cbor_writer_init(&w, buf, sizeof buf);
        ddi_cbor_put_int(&w, values[i]);
        ddi_cbor_reader r;
        ddi_cbor_reader_init(&r, buf, w.needed);
        int64_t v = 1;
        assert_true(ddi_cbor_get_int(&r, &v));
        assert_true(v == values[i]);
    }
    /* 2^64 - 1 as an unsigned integer does not fit int64_t. */
    uint8_t big[9] = {0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, big, sizeof big);
    int64_t v;
    assert_false(ddi_cbor_get_int(&r, &v));
    assert_int_equal(r.status, DDI_CBOR_TOO_LARGE);
    assert_int_equal(r.error_offset, 0);
}

/* A sample item with every kind the marshallers write. */
static size_t write_sample(void *buf, size_t size, int *fits)
{
    static const uint8_t blob[40] = {1, 2, 3};
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buf, size);
    ddi_cbor_put_map(&w, 5);
    ddi_cbor_put_uint(&w, 1);
    ddi_cbor_put_uint(&w, 0x123456789ull);
    ddi_cbor_put_uint(&w, 2);
    ddi_cbor_put_int(&w, -300);
    ddi_cbor_put_uint(&w, 3);
    ddi_cbor_put_bytes(&w, blob, sizeof blob);
    ddi_cbor_put_uint(&w, 4);
    ddi_cbor_put_array(&w, 3);
    ddi_cbor_put_bool(&w, 1);
    ddi_cbor_put_null(&w);
    ddi_cbor_put_map(&w, 1);
    ddi_cbor_put_uint(&w, 7);
    ddi_cbor_put_uint(&w, 70000);
    ddi_cbor_put_uint(&w, 5);
    ddi_cbor_put_bool(&w, 0);
    if (fits)
        *fits = ddi_cbor_writer_fits(&w);
    return w.needed;
}

static void short_buffer_is_never_written_past(void **state)
{
    (void)state;
    uint8_t full[256];
    int fits = 0;
    size_t need = write_sample(full, sizeof full, &fits);
    assert_true(fits && need < sizeof full);
    for (size_t size = 0; size < need; size++) {
        uint8_t *buf = malloc(size + 16);
        memset(buf, 0xA5, size + 16);
        assert_int_equal(write_sample(buf, size, &fits), need); /* the size it needs, whatever it got */
        assert_false(fits);
        for (size_t i = size; i < size + 16; i++)
            assert_int_equal(buf[i], 0xA5);
        free(buf);
    }
    assert_int_equal(write_sample(NULL, 0, &fits), need);
    uint8_t exact[256];
    assert_int_equal(write_sample(exact, need, &fits), need);
    assert_true(fits);
    assert_memory_equal(exact, full, need);
}

static void truncated_input_is_refused_at_every_length(void **state)
{
    (void)state;
    uint8_t buf[256];
    size_t need = write_sample(buf, sizeof buf, NULL);
    for (size_t len = 0; len < need; len++) {
        uint8_t *copy = malloc(len ? len : 1); /* exactly len bytes: ASan sees any over-read */
        memcpy(copy, buf, len);
        ddi_cbor_reader r;
        ddi_cbor_reader_init(&r, copy, len);
        assert_false(ddi_cbor_skip(&r));
        assert_true(r.status == DDI_CBOR_TRUNCATED || r.status == DDI_CBOR_TOO_LARGE);
        assert_true(r.error_offset <= len);
        free(copy);
    }
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, buf, need);
    assert_true(ddi_cbor_skip(&r));
    assert_true(ddi_cbor_at_end(&r));
}

static ddi_cbor_status skip_status(const uint8_t *data, size_t size)
{
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, data, size);
    ddi_cbor_skip(&r);
    return r.status;
}

static void hostile_items_are_refused(void **state)
{
    (void)state;
    static const uint8_t not_shortest_1[] = {0x18, 0x05};
    static const uint8_t not_shortest_2[] = {0x19, 0x00, 0xFF};
    static const uint8_t not_shortest_len[] = {0x58, 0x01, 0xAA};
    static const uint8_t indefinite[] = {0x5F, 0x41, 0x00, 0xFF};
    static const uint8_t half_float[] = {0xF9, 0x3C, 0x00};
    static const uint8_t tag[] = {0xC0, 0x00};
    static const uint8_t reserved[] = {0x1C};
    static const uint8_t simple_other[] = {0xF0};
    static const uint8_t huge_bytes[] = {0x5B, 0x80, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t huge_array[] = {0x9B, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x00};
    static const uint8_t huge_map[] = {0xBA, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};
    assert_int_equal(skip_status(not_shortest_1, sizeof not_shortest_1), DDI_CBOR_NOT_SHORTEST);
    assert_int_equal(skip_status(not_shortest_2, sizeof not_shortest_2), DDI_CBOR_NOT_SHORTEST);
    assert_int_equal(skip_status(not_shortest_len, sizeof not_shortest_len), DDI_CBOR_NOT_SHORTEST);
    assert_int_equal(skip_status(indefinite, sizeof indefinite), DDI_CBOR_UNSUPPORTED);
    assert_int_equal(skip_status(half_float, sizeof half_float), DDI_CBOR_UNSUPPORTED);
    assert_int_equal(skip_status(tag, sizeof tag), DDI_CBOR_UNSUPPORTED);
    assert_int_equal(skip_status(reserved, sizeof reserved), DDI_CBOR_UNSUPPORTED);
    assert_int_equal(skip_status(simple_other, sizeof simple_other), DDI_CBOR_UNSUPPORTED);
    assert_int_equal(skip_status(huge_bytes, sizeof huge_bytes), DDI_CBOR_TOO_LARGE);
    assert_int_equal(skip_status(huge_array, sizeof huge_array), DDI_CBOR_TOO_LARGE);
    assert_int_equal(skip_status(huge_map, sizeof huge_map), DDI_CBOR_TOO_LARGE);
    ddi_cbor_reader r;
    const uint8_t *data;
    size_t size;
    ddi_cbor_reader_init(&r, huge_bytes, sizeof huge_bytes);
    assert_false(ddi_cbor_get_bytes(&r, &data, &size));
    assert_int_equal(r.status, DDI_CBOR_TOO_LARGE);
    uint64_t n;
    ddi_cbor_reader_init(&r, huge_map, sizeof huge_map);
    assert_false(ddi_cbor_get_map(&r, &n));
    /* the first error sticks */
    assert_false(ddi_cbor_get_uint(&r, &n));
    assert_int_equal(r.status, DDI_CBOR_TOO_LARGE);
}

static void depth_bomb_is_bounded(void **state)
{
    (void)state;
    size_t n = 100000;
    uint8_t *bomb = malloc(n);
    memset(bomb, 0x81, n - 1); /* [[[[...0]]]] */
    bomb[n - 1] = 0x00;
    assert_int_equal(skip_status(bomb, n), DDI_CBOR_TOO_DEEP);
    /* exactly the limit is fine */
    memset(bomb, 0x81, DDI_CBOR_MAX_DEPTH);
    bomb[DDI_CBOR_MAX_DEPTH] = 0x00;
    assert_int_equal(skip_status(bomb, DDI_CBOR_MAX_DEPTH + 1), DDI_CBOR_OK);
    free(bomb);
}

/* Issue 24: skip is as strict as a read at every depth. */
static void skip_is_strict_at_every_depth(void **state)
{
    (void)state;
    /* {1: {2: 0, 2: 1}}: a duplicate in a nested map, found at the key. */
    static const uint8_t dup_nested[] = {0xA1, 0x01, 0xA2, 0x02, 0x00, 0x02, 0x01};
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, dup_nested, sizeof dup_nested);
    assert_false(ddi_cbor_skip(&r));
    assert_int_equal(r.status, DDI_CBOR_DUPLICATE_KEY);
    assert_int_equal(r.error_offset, 5);
    /* Keys of any type compare by their bytes: [{h'6b': 0, h'6b': 1}]. */
    static const uint8_t dup_bytes[] = {0x81, 0xA2, 0x41, 'k', 0x00, 0x41, 'k', 0x01};
    assert_int_equal(skip_status(dup_bytes, sizeof dup_bytes), DDI_CBOR_DUPLICATE_KEY);
    /* A container key then the same one: {[]: 0, []: 1}. */
    static const uint8_t dup_arr_key[] = {0xA2, 0x80, 0x00, 0x80, 0x01};
    assert_int_equal(skip_status(dup_arr_key, sizeof dup_arr_key), DDI_CBOR_DUPLICATE_KEY);
    static const uint8_t distinct[] = {0xA3, 0x01, 0x00, 0x41, 0x01, 0x00, 0x80, 0x00};
    assert_int_equal(skip_status(distinct, sizeof distinct), DDI_CBOR_OK);
    /* Text must be UTF-8: overlong, surrogate, truncated sequence. */
    static const uint8_t overlong[] = {0x62, 0xC0, 0x80};
    static const uint8_t surrogate[] = {0x63, 0xED, 0xA0, 0x80};
    static const uint8_t cut[] = {0x62, 0xE2, 0x82};
    static const uint8_t euro[] = {0x63, 0xE2, 0x82, 0xAC};
    assert_int_equal(skip_status(overlong, sizeof overlong), DDI_CBOR_BAD_TEXT);
    assert_int_equal(skip_status(surrogate, sizeof surrogate), DDI_CBOR_BAD_TEXT);
    assert_int_equal(skip_status(cut, sizeof cut), DDI_CBOR_BAD_TEXT);
    assert_int_equal(skip_status(euro, sizeof euro), DDI_CBOR_OK);
    /* Depth counted from the top: 15 arrays inside 1 open container fit,
     * 16 do not. */
    uint8_t bomb[DDI_CBOR_MAX_DEPTH + 1];
    memset(bomb, 0x81, DDI_CBOR_MAX_DEPTH);
    bomb[DDI_CBOR_MAX_DEPTH] = 0x00;
    ddi_cbor_reader_init(&r, bomb + 1, DDI_CBOR_MAX_DEPTH);
    assert_true(ddi_cbor_skip_at(&r, 1));
    ddi_cbor_reader_init(&r, bomb, sizeof bomb);
    assert_false(ddi_cbor_skip_at(&r, 1));
    assert_int_equal(r.status, DDI_CBOR_TOO_DEEP);
    /* An empty container at level 17 is too deep as well. */
    bomb[DDI_CBOR_MAX_DEPTH] = 0x80;
    assert_int_equal(skip_status(bomb, sizeof bomb), DDI_CBOR_TOO_DEEP);
    /* More pairs than DDI_CBOR_MAX_PAIRS. */
    size_t pairs = DDI_CBOR_MAX_PAIRS + 1, n = 3 + pairs * 4;
    uint8_t *big = malloc(n);
    big[0] = 0xB9;
    big[1] = (uint8_t)(pairs >> 8);
    big[2] = (uint8_t)pairs;
    for (size_t i = 0; i < pairs; i++) { /* keys 256, 257, ...: distinct, two-byte shortest form */
        big[3 + 4 * i] = 0x19;
        big[4 + 4 * i] = (uint8_t)((i + 256) >> 8);
        big[5 + 4 * i] = (uint8_t)(i + 256);
        big[6 + 4 * i] = 0x00;
    }
    assert_int_equal(skip_status(big, n), DDI_CBOR_TOO_LARGE);
    uint64_t count;
    ddi_cbor_reader_init(&r, big, n);
    assert_false(ddi_cbor_get_map(&r, &count));
    assert_int_equal(r.status, DDI_CBOR_TOO_LARGE);
    big[1] = (uint8_t)(DDI_CBOR_MAX_PAIRS >> 8);
    big[2] = (uint8_t)DDI_CBOR_MAX_PAIRS;
    assert_int_equal(skip_status(big, n - 4), DDI_CBOR_OK); /* exactly the limit */
    free(big);
}

static void path_names_keys_and_indices(void **state)
{
    (void)state;
    /* {5: [0, {7: h'..truncated'}]}: the error is at 5[1].7 */
    static const uint8_t m[] = {0xA1, 0x05, 0x82, 0x00, 0xA1, 0x07, 0x45, 0x01};
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, m, sizeof m);
    assert_false(ddi_cbor_skip(&r));
    ddi_cbor_path p;
    ddi_cbor_path_to(m, sizeof m, r.error_offset, &p);
    assert_int_equal(p.len, 3);
    assert_int_equal(p.key[0], 5);
    assert_int_equal(p.key[1], 1);
    assert_int_equal(p.key[2], 7);
    assert_int_equal(p.index_mask, 2u);
    assert_int_equal(p.other_mask, 0u);
}

static void type_mismatch_names_the_offset(void **state)
{
    (void)state;
    static const uint8_t two[] = {0x01, 0x41, 0x07};
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, two, sizeof two);
    uint64_t v;
    assert_true(ddi_cbor_get_uint(&r, &v));
    assert_false(ddi_cbor_get_uint(&r, &v));
    assert_int_equal(r.status, DDI_CBOR_TYPE_MISMATCH);
    assert_int_equal(r.error_offset, 1);
    assert_string_equal(ddi_cbor_status_text(r.status), "type mismatch");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uints_round_trip_in_shortest_form),
        cmocka_unit_test(ints_round_trip),
        cmocka_unit_test(short_buffer_is_never_written_past),
        cmocka_unit_test(truncated_input_is_refused_at_every_length),
        cmocka_unit_test(hostile_items_are_refused),
        cmocka_unit_test(depth_bomb_is_bounded),
        cmocka_unit_test(skip_is_strict_at_every_depth),
        cmocka_unit_test(path_names_keys_and_indices),
        cmocka_unit_test(type_mismatch_names_the_offset),
    };
    return cmocka_run_group_tests_name("cbor_units", tests, NULL, NULL);
}
