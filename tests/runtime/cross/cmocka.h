/* The part of cmocka's API that test_runtime_pte uses, for its arm64 build:
 * that binary is cross-compiled and run under qemu-aarch64, and Debian's
 * cmocka is installed for the host only. A failed check prints where and
 * exits 1, which is all ctest needs from it. */
#ifndef DDIGEN_CROSS_CMOCKA_H
#define DDIGEN_CROSS_CMOCKA_H

#include <stdio.h>
#include <stdlib.h>

struct CMUnitTest {
    const char *name;
    void (*test)(void **state);
};

#define cmocka_unit_test(f) {#f, f}
#define print_message(...) printf(__VA_ARGS__)
#define fail_msg(...) (fprintf(stderr, __VA_ARGS__), fprintf(stderr, "\n%s:%d: failed\n", __FILE__, __LINE__), exit(1))
#define assert_true(c) ((c) ? (void)0 : (fprintf(stderr, "%s:%d: %s is false\n", __FILE__, __LINE__, #c), exit(1)))
#define assert_false(c) ((c) ? (fprintf(stderr, "%s:%d: %s is true\n", __FILE__, __LINE__, #c), exit(1)) : (void)0)
#define assert_int_equal(a, b) cross_int_equal((unsigned long long)(a), (unsigned long long)(b), #a, #b, __FILE__, __LINE__)
#define cmocka_run_group_tests(tests, setup, teardown) cross_run((tests), sizeof(tests) / sizeof((tests)[0]))

static void cross_int_equal(unsigned long long a, unsigned long long b, const char *ta, const char *tb,
                            const char *file, int line)
{
    if (a == b)
        return;
    fprintf(stderr, "%s:%d: %s (%llu) != %s (%llu)\n", file, line, ta, a, tb, b);
    exit(1);
}

static int cross_run(const struct CMUnitTest *tests, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++) {
        tests[i].test(NULL);
        printf("[       OK ] %s\n", tests[i].name);
    }
    printf("[  PASSED  ] %zu test(s).\n", count);
    return 0;
}

#endif
