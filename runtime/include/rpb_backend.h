/* The reference backend: encodes the engine's packets as RPB1 and PTEs in the
 * reference GPU layout. Kernel-safe; CPU-side hooks come from the embedding platform. */
#ifndef RPB_BACKEND_H
#define RPB_BACKEND_H

#include "ddi_paging.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rpb_backend_ctx {
    /* Write n qwords at a CPU VA now; nonzero on failure. Required. */
    int (*cpu_write64)(void *user, void *cpu_va, const uint64_t *v, uint32_t n);
    /* Optional GPU alias of a CPU-visible page table. */
    int (*cpu_va_to_loc)(void *user, const void *cpu_va, uint64_t bytes, pb_loc *out);
    void *user;
    uint8_t *pending_write64; /* packet whose count write64_end commits */
    /* Optional (x64): save / restore the AVX state for the engine's wide loops
     * (pb_backend_ops.vector_save); 0 from save means saved. */
    int (*vector_save)(void *user, pb_vector_state *state);
    void (*vector_restore)(void *user, pb_vector_state *state);
} rpb_backend_ctx;

/* Defaults match the RPB1 document: 4 MiB copies and fills, 64-byte submission
 * alignment, swizzled transfers need an idle allocation. */
#define RPB_DEFAULT_SUBMIT_ALIGN 64u
#define RPB_DEFAULT_MAX_COPY (4u << 20)
#define RPB_DEFAULT_MAX_FILL (4u << 20)
#define RPB_DEFAULT_MAX_WRITE64 4096u
#define RPB_DEFAULT_MAX_PTEGEN (1u << 20)
#define RPB_DUAL_PTE_OFFSET 4096u

/* Fills backend with the RPB1 ops and defaults; ctx must outlive the engine. */
void rpb_backend_init(pb_backend *backend, rpb_backend_ctx *ctx);

/* The reference PTE's split description (pb_pte_split) and its encoder,
 * exposed for tests and benchmarks. */
void rpb_pte_format(pb_pte_split *fmt, void *ctx);
void rpb_encode_ptes(void *ctx, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* RPB_BACKEND_H */
