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
        cmocka_unit_test(type_mismatch_names_the_offset),
    };
    return cmocka_run_group_tests_name("cbor_units", tests, NULL, NULL);
}
