/* Host version of the extended-state save a Windows driver does around AVX code
 * in kernel mode: what tests and benchmarks plug into the backend's hooks. */
#include "pbsim_vector.h"

#include <string.h>

#define XSTATE_MASK_AVX_HOST 7u /* x87, SSE, AVX: what XSTATE_MASK_AVX saves in a driver */
#define STATE_MAGIC 0x5856534156454350ull

static _Thread_local unsigned long saves;
static _Thread_local long open_saves;

#if defined(__x86_64__)
#include <immintrin.h>

/* 4 KiB holds the x87 + SSE + AVX layout (832 bytes) in the standard format. */
static _Thread_local _Alignas(64) unsigned char area[4096];

__attribute__((target("xsave"))) static void save_now(void)
{
    _xsave64(area, XSTATE_MASK_AVX_HOST);
}

__attribute__((target("xsave"))) static void restore_now(void)
{
    _xrstor64(area, XSTATE_MASK_AVX_HOST);
}
#else
static void save_now(void)
{
}

static void restore_now(void)
{
}
#endif

int pbsim_vector_save(void *user, pb_vector_state *state)
{
    static int has_avx2 = -1; /* CPUID traps to the hypervisor in a VM: ask once */
    (void)user;
    if (has_avx2 < 0)
        has_avx2 = (int)pb_cpu_has_avx2();
    if (!has_avx2 || open_saves)
        return -1;
    save_now();
    memset(state, 0, sizeof *state);
    state->opaque[0] = STATE_MAGIC;
    saves++;
    open_saves++;
    return 0;
}

void pbsim_vector_restore(void *user, pb_vector_state *state)
{
    (void)user;
    if (state->opaque[0] != STATE_MAGIC)
        open_saves += 1000; /* restore of a state never saved: pbsim_vector_open() shows it */
    restore_now();
    state->opaque[0] = 0;
    open_saves--;
}

unsigned long pbsim_vector_saves(void)
{
    return saves;
}

long pbsim_vector_open(void)
{
    return open_saves;
}
