/* How many of the SSE2 operations the PTE loops are made of this CPU issues per
 * cycle: 16-byte loads and stores, logic, shifts and unpacks, each in a loop of
 * eight independent instructions. The baseline, timed in the same run, is a
 * chain of dependent integer adds (one a cycle on every x86 core of the last
 * twenty years), so the figures are per cycle without a PMU or the clock rate,
 * which a VM does not tell. bench_runtime's "where the time goes" lines say how
 * far the engine's loops are from their floor; these figures say why (see
 * docs/ARCHITECTURE.md, "Performance targets and limits"). x86-64 with GNU
 * inline assembly only. Not a test. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define ITERATIONS 50000000L

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned char scratch[4096] __attribute__((aligned(64)));

/* Seconds per iteration of a loop whose body is eight instructions. */
#define TIME_BODY(body)                                                                                               \
    do {                                                                                                              \
        double t0 = now();                                                                                            \
        long i_;                                                                                                      \
        for (i_ = 0; i_ < ITERATIONS; i_++)                                                                           \
            __asm__ volatile(body ::"r"(scratch)                                                                      \
                             : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "memory");      \
        seconds = (now() - t0) / (double)ITERATIONS;                                                                  \
    } while (0)

#define EIGHT(op, a) op " " a ",%%xmm0\n" op " " a ",%%xmm1\n" op " " a ",%%xmm2\n" op " " a ",%%xmm3\n" \
                     op " " a ",%%xmm4\n" op " " a ",%%xmm5\n" op " " a ",%%xmm6\n" op " " a ",%%xmm7\n"

static void report(const char *what, double seconds, double cycle)
{
    printf("  %-44s %.2f a cycle\n", what, 8.0 / (seconds / cycle));
}

int main(void)
{
    double cycle, seconds;
    uint64_t x = 0;
    {
        double t0 = now();
        long i;
        for (i = 0; i < ITERATIONS; i++)
            __asm__ volatile("add $1,%0\n add $1,%0\n add $1,%0\n add $1,%0\n"
                             "add $1,%0\n add $1,%0\n add $1,%0\n add $1,%0\n"
                             : "+r"(x));
        cycle = (now() - t0) / (double)ITERATIONS / 8.0;
    }
    printf("bench_cpu_limits: a dependent add takes %.3f ns (%.2f GHz if it is one cycle); per cycle:\n", cycle * 1e9,
           1e-9 / cycle);
    TIME_BODY("movdqu (%0),%%xmm0\n movdqu 16(%0),%%xmm1\n movdqu 32(%0),%%xmm2\n movdqu 48(%0),%%xmm3\n"
              "movdqu 64(%0),%%xmm4\n movdqu 80(%0),%%xmm5\n movdqu 96(%0),%%xmm6\n movdqu 112(%0),%%xmm7\n");
    report("16-byte loads (movdqu)", seconds, cycle);
    TIME_BODY("movq (%0),%%xmm0\n movq 16(%0),%%xmm1\n movq 32(%0),%%xmm2\n movq 48(%0),%%xmm3\n"
              "movq 64(%0),%%xmm4\n movq 80(%0),%%xmm5\n movq 96(%0),%%xmm6\n movq 112(%0),%%xmm7\n");
    report("8-byte loads (movq)", seconds, cycle);
    TIME_BODY("movdqu %%xmm0,1024(%0)\n movdqu %%xmm1,1040(%0)\n movdqu %%xmm2,1056(%0)\n movdqu %%xmm3,1072(%0)\n"
              "movdqu %%xmm4,1088(%0)\n movdqu %%xmm5,1104(%0)\n movdqu %%xmm6,1120(%0)\n movdqu %%xmm7,1136(%0)\n");
    report("16-byte stores (movdqu)", seconds, cycle);
    TIME_BODY(EIGHT("por", "%%xmm8"));
    report("logic (por)", seconds, cycle);
    TIME_BODY(EIGHT("psllq", "%%xmm8"));
    report("64-bit shifts by a register count (psllq)", seconds, cycle);
    TIME_BODY(EIGHT("punpckhqdq", "%%xmm8"));
    report("unpacks (punpckhqdq)", seconds, cycle);
    (void)x;
    return 0;
}
