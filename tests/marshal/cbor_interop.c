/* ddi_cbor against an independent implementation (libcbor): libcbor decodes
 * what ddi_cbor writes into the same values, and ddi_cbor reads what libcbor
 * writes, integers in the smallest width included; libcbor's 8-byte form of
 * a small integer is not the shortest and is refused. */
#include "ddi_cbor.h"

#include <cbor.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* {1: 300, 2: -7, 3: h'000102', 4: [true, null, {9: 4294967296}]} */
static size_t write_ours(uint8_t *buf, size_t size)
{
    static const uint8_t blob[3] = {0, 1, 2};
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buf, size);
    ddi_cbor_put_map(&w, 4);
    ddi_cbor_put_uint(&w, 1);
    ddi_cbor_put_uint(&w, 300);
    ddi_cbor_put_uint(&w, 2);
    ddi_cbor_put_int(&w, -7);
    ddi_cbor_put_uint(&w, 3);
    ddi_cbor_put_bytes(&w, blob, sizeof blob);
    ddi_cbor_put_uint(&w, 4);
    ddi_cbor_put_array(&w, 3);
    ddi_cbor_put_bool(&w, 1);
    ddi_cbor_put_null(&w);
    ddi_cbor_put_map(&w, 1);
    ddi_cbor_put_uint(&w, 9);
    ddi_cbor_put_uint(&w, 4294967296ull);
    assert_true(ddi_cbor_writer_fits(&w));
    return w.needed;
}

static void libcbor_reads_what_we_write(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t n = write_ours(buf, sizeof buf);
    struct cbor_load_result res;
    cbor_item_t *root = cbor_load(buf, n, &res);
    assert_non_null(root);
    assert_int_equal(res.error.code, CBOR_ERR_NONE);
    assert_int_equal(res.read, n);
    assert_true(cbor_isa_map(root));
    assert_int_equal(cbor_map_size(root), 4);
    struct cbor_pair *p = cbor_map_handle(root);
    assert_int_equal(cbor_get_int(p[0].key), 1);
    assert_int_equal(cbor_get_int(p[0].value), 300);
    assert_true(cbor_isa_negint(p[1].value));
    assert_int_equal(cbor_get_int(p[1].value), 6); /* libcbor keeps -1 - n as n */
    assert_int_equal(cbor_bytestring_length(p[2].value), 3);
    assert_int_equal(cbor_bytestring_handle(p[2].value)[2], 2);
    cbor_item_t **arr = cbor_array_handle(p[3].value);
    assert_true(cbor_get_bool(arr[0]));
    assert_true(cbor_is_null(arr[1]));
    struct cbor_pair *inner = cbor_map_handle(arr[2]);
    assert_true(cbor_get_int(inner[0].value) == 4294967296ull);
    cbor_decref(&root);
}

/* The smallest libcbor integer that holds v, as a CBOR encoder should write. */
static cbor_item_t *smallest_uint(uint64_t v)
{
    if (v <= 0xFF)
        return cbor_build_uint8((uint8_t)v);
    if (v <= 0xFFFF)
        return cbor_build_uint16((uint16_t)v);
    if (v <= 0xFFFFFFFFu)
        return cbor_build_uint32((uint32_t)v);
    return cbor_build_uint64(v);
}

static void we_read_what_libcbor_writes(void **state)
{
    (void)state;
    cbor_item_t *map = cbor_new_definite_map(3);
    cbor_map_add(map, (struct cbor_pair){cbor_move(smallest_uint(1)), cbor_move(smallest_uint(70000))});
    cbor_map_add(map, (struct cbor_pair){cbor_move(smallest_uint(2)),
                                         cbor_move(cbor_build_bytestring((const unsigned char *)"abcd", 4))});
    cbor_item_t *arr = cbor_new_definite_array(2);
    cbor_array_push(arr, cbor_move(smallest_uint(5)));
    cbor_array_push(arr, cbor_move(cbor_build_bool(false)));
    cbor_map_add(map, (struct cbor_pair){cbor_move(smallest_uint(3)), cbor_move(arr)});
    unsigned char *buf = NULL;
    size_t cap = 0;
    size_t n = cbor_serialize_alloc(map, &buf, &cap);
    cbor_decref(&map);
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, buf, n);
    uint64_t count, key, v;
    const uint8_t *bytes;
    size_t size;
    int b;
    assert_true(ddi_cbor_get_map(&r, &count));
    assert_int_equal(count, 3);
    assert_true(ddi_cbor_get_uint(&r, &key) && key == 1);
    assert_true(ddi_cbor_get_uint(&r, &v) && v == 70000);
    assert_true(ddi_cbor_get_uint(&r, &key) && key == 2);
    assert_true(ddi_cbor_get_bytes(&r, &bytes, &size) && size == 4 && !memcmp(bytes, "abcd", 4));
    assert_true(ddi_cbor_get_uint(&r, &key) && key == 3);
    assert_true(ddi_cbor_get_array(&r, &count) && count == 2);
    assert_true(ddi_cbor_get_uint(&r, &v) && v == 5);
    assert_true(ddi_cbor_get_bool(&r, &b) && !b);
    assert_true(ddi_cbor_at_end(&r));
    free(buf);

    /* libcbor's uint64 of a small value is well formed but not shortest. */
    cbor_item_t *wide = cbor_build_uint64(5);
    n = cbor_serialize_alloc(wide, &buf, &cap);
    cbor_decref(&wide);
    ddi_cbor_reader_init(&r, buf, n);
    assert_false(ddi_cbor_get_uint(&r, &v));
    assert_int_equal(r.status, DDI_CBOR_NOT_SHORTEST);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(libcbor_reads_what_we_write),
        cmocka_unit_test(we_read_what_libcbor_writes),
    };
    return cmocka_run_group_tests_name("cbor_interop", tests, NULL, NULL);
}
