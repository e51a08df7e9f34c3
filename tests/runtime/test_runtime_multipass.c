/* Multipass property test: >= 100,000 random operations in episodes on one machine,
 * paging buffers down to one packet; every invariant of the protocol checked per call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_harness.h"

#define DEFAULT_SEED 0xDD16E5ull
#define DEFAULT_CASES 100000u
#define OPS_PER_EPISODE 10u

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : fallback;
}

/* Paging buffer sizes from the smallest legal one (one BARRIER + TLB_INVAL step
 * plus padding) to a full 8 KiB buffer; small ones are favoured. */
static uint32_t random_buffer(rt_rng *r)
{
    switch (rt_below(r, 4)) {
    case 0:
        return 128u + 8u * (uint32_t)rt_below(r, 17);
    case 1:
        return 256u + 8u * (uint32_t)rt_below(r, 97);
    case 2:
        return 1024u + 8u * (uint32_t)rt_below(r, 385);
    default:
        return RT_MAX_BUFFER;
    }
}

/* Runs one episode; returns the index of the failing op or -1 when all passed. */
static int run_episode(rt_world *w, uint64_t seed, uint64_t episode, int check_each)
{
    rt_rng r = {seed * 0x100000001B3ull + episode, NULL, 0, 0};
    uint32_t i;
    if (rt_world_reset(w, rt_next(&r), random_buffer(&r)))
        return 0;
    for (i = 0; i < OPS_PER_EPISODE; i++) {
        DXGKARG_BUILDPAGINGBUFFER a;
        int invalid;
        rt_gen_op(w, &r, &a, &invalid);
        if (check_each)
            print_message("  op %u: operation %u%s\n", i, (unsigned)a.Operation, invalid ? " (invalid)" : "");
        if (rt_op(w, &a, invalid) || (check_each && rt_check(w)))
            return (int)i;
    }
    return rt_check(w) ? (int)OPS_PER_EPISODE : -1;
}

static void test_multipass_property(void **state)
{
    const uint64_t seed = env_u64("RUNTIME_SEED", DEFAULT_SEED);
    const uint64_t cases = env_u64("RUNTIME_CASES", DEFAULT_CASES);
    const uint64_t only = env_u64("RUNTIME_EPISODE", UINT64_MAX);
    const uint64_t episodes = (cases + OPS_PER_EPISODE - 1u) / OPS_PER_EPISODE;
    rt_world *w = malloc(sizeof *w);
    uint64_t e;
    (void)state;
    assert_non_null(w);
    assert_int_equal(rt_world_init(w, seed, RT_MAX_BUFFER), 0);
    for (e = 0; e < episodes; e++) {
        int bad;
        if (only != UINT64_MAX && e != only)
            continue;
        bad = run_episode(w, seed, e, only != UINT64_MAX);
        if (bad >= 0) {
            print_error("multipass property failed: seed 0x%llx episode %llu op %d (buffer %u bytes): %s\n"
                        "reproduce: RUNTIME_SEED=0x%llx RUNTIME_EPISODE=%llu %s\n",
                        (unsigned long long)seed, (unsigned long long)e, bad, w->buf_size, w->failure,
                        (unsigned long long)seed, (unsigned long long)e, "test_runtime_multipass");
            rt_world_free(w);
            free(w);
            fail();
        }
    }
    print_message("multipass: seed 0x%llx, %llu cases, %llu calls, %llu INSUFFICIENT, %llu BUSY, %u refused\n",
                  (unsigned long long)seed, (unsigned long long)(episodes * OPS_PER_EPISODE),
                  (unsigned long long)w->calls, (unsigned long long)w->insufficient, (unsigned long long)w->busy,
                  w->rules_invalid);
    /* The run must actually have exercised the protocol. */
    if (only == UINT64_MAX && cases >= 10000u) {
        assert_true(w->insufficient > cases / 10u);
        assert_true(w->busy > 0);
        assert_true(w->rules_invalid > 0);
    }
    rt_world_free(w);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multipass_property),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
