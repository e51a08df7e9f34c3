/* util/json_read: the SARIF reader of `report --lint` reads JSON as RFC
 * 8259 says, and refuses what is not JSON with the line it found it on. */
#include "util/diag.h"
#include "util/json_read.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

static struct json_value *parse(struct arena *a, const char *text)
{
    return json_parse(a, "t.json", text, strlen(text));
}

static void test_values(void **state)
{
    (void)state;
    struct arena a = {0};
    const struct json_value *v =
        parse(&a, "{\"runs\": [{\"results\": [{\"ruleId\": \"x\\u00e9\\ud83d\\ude00\\n\", \"n\": -12.5e1,"
                  " \"t\": true, \"f\": false, \"z\": null, \"e\": [], \"o\": {}}]}]}");
    assert_non_null(v);
    const struct json_value *r = json_at(json_get(json_at(json_get(v, "runs"), 0), "results"), 0);
    assert_string_equal(json_get_str(r, "ruleId"), "x\xc3\xa9\xf0\x9f\x98\x80\n");
    assert_int_equal(json_get_long(r, "n", 0), -125);
    assert_int_equal(json_get(r, "t")->boolean, 1);
    assert_int_equal(json_get(r, "f")->boolean, 0);
    assert_int_equal(json_get(r, "z")->type, JSON_NULL);
    assert_int_equal(json_get(r, "e")->len, 0);
    assert_int_equal(json_get(r, "o")->type, JSON_OBJECT);
    assert_null(json_get(r, "absent"));
    assert_null(json_get_str(r, "n")); /* not a string */
    assert_int_equal(json_get_long(r, "ruleId", 7), 7);
    arena_free(&a);
}

static void test_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "{", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "\"unterminated", "\"bad \\x escape\"", "tru", "1 2",
        "{\"a\": \"\x01\"}", "-", "[1 2]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct arena a = {0};
        assert_null(parse(&a, bad[i]));
        arena_free(&a);
    }
    /* nesting is bounded: no stack to exhaust */
    char deep[400];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    struct arena a = {0};
    assert_null(parse(&a, deep));
    arena_free(&a);
    ddigen_diag_global.errors = 0;
}

int main(void)
{
    ddigen_diag_global.quiet = 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_values), cmocka_unit_test(test_errors)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
