/* libFuzzer target over the paging engine's arguments: fuzz bytes drive the random
 * operation generator; the simulator and oracle bound and judge every call. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_harness.h"

#define FUZZ_MAX_OPS 24u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t buffer_from(rt_rng *r)
{
    uint32_t b = 128u + 8u * (uint32_t)rt_below(r, 1009);
    return b > RT_MAX_BUFFER ? RT_MAX_BUFFER : b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rt_world *w;
    rt_rng r = {0, data, size, 0};
    uint32_t i;
    if (!w) {
        w = malloc(sizeof *w);
        if (!w || rt_world_init(w, 1, RT_MAX_BUFFER))
            abort();
    }
    if (rt_world_reset(w, rt_next(&r), buffer_from(&r)))
        abort();
    for (i = 0; i < FUZZ_MAX_OPS && r.pos < size; i++) {
        DXGKARG_BUILDPAGINGBUFFER a;
        int invalid;
        rt_gen_op(w, &r, &a, &invalid);
        if (rt_op(w, &a, invalid)) {
            fprintf(stderr, "runtime_fuzz: op %u (operation %u): %s\n", i, (unsigned)a.Operation, w->failure);
            abort();
        }
    }
    if (rt_check(w)) {
        fprintf(stderr, "runtime_fuzz: %s\n", w->failure);
        abort();
    }
    return 0;
}
