/* The validator as the paging runtime compiles it: ddi_validate.c included
 * with static inline storage, so its body is inlined into the caller.
 * Timed here in a loop of its own beside the same loop without it; the
 * argument pointer is re-read through a volatile so the checks are not
 * hoisted out of the loop. */
#define _POSIX_C_SOURCE 200809L
#include <ntddk.h>
#include <dispmprt.h>
#define DDI_VALIDATE_API static __inline
#define DDI_VALIDATE_NO_WDK_INCLUDES
#include "ddi_validate.c"

#include "inline_validate.h"

#include <time.h>

#define LOOP 4096

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned long long with_checks(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGKARG_BUILDPAGINGBUFFER *volatile p = a;
    unsigned long long sink = 0;
    ddi_violation v;
    for (int i = 0; i < LOOP; i++)
        sink += ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(p, &v, DDI_VALIDATE_STOP_AT_FIRST) + p->DmaSize;
    return sink;
}

static unsigned long long without_checks(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGKARG_BUILDPAGINGBUFFER *volatile p = a;
    unsigned long long sink = 0;
    for (int i = 0; i < LOOP; i++)
        sink += p->DmaSize;
    return sink;
}

static double per_iteration(unsigned long long (*loop)(const DXGKARG_BUILDPAGINGBUFFER *),
                            const DXGKARG_BUILDPAGINGBUFFER *a, double seconds, volatile unsigned long long *sink)
{
    double t0 = now(), t;
    unsigned long long n = 0;
    do {
        *sink += loop(a);
        n += LOOP;
        t = now() - t0;
    } while (t < seconds);
    return t / (double)n;
}

double bench_inline_validator_ns(const DXGKARG_BUILDPAGINGBUFFER *a, int rounds, double seconds)
{
    volatile unsigned long long sink = 0;
    double best_with = 1e30, best_without = 1e30;
    for (int r = 0; r < rounds; r++) {
        double w = per_iteration(with_checks, a, seconds, &sink), wo = per_iteration(without_checks, a, seconds, &sink);
        best_with = w < best_with ? w : best_with;
        best_without = wo < best_without ? wo : best_without;
    }
    return (best_with - best_without) * 1e9;
}
