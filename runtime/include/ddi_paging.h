/* ddi_paging: a freestanding DxgkDdiBuildPagingBuffer engine. It validates the DDI
 * arguments, coalesces and chunks work, runs the multipass protocol and calls a backend. */
#ifndef DDI_PAGING_H
#define DDI_PAGING_H

#include "ddi_wdk.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MSVC accepts `inline` in C only from VS 2019 16.8 with /std:c11; __inline always. */
#if defined(_MSC_VER) && !defined(__clang__)
#define PB_INLINE __inline
#else
#define PB_INLINE inline
#endif
/* No-alias qualifier; MSVC, GCC and clang all spell it __restrict in C and C++. */
#define PB_RESTRICT __restrict

/* The engine encodes WDDM 2 paging (GPU virtual addresses, page tables, the
 * DXGK_PTE array): the DDI it reads exists from WDDM 2.0 on. */
#if !defined(DXGKDDI_INTERFACE_VERSION_WDDM2_0) || (DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WDDM2_0)
#error "ddi_paging.h: the paging runtime needs DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0"
#endif

/* SIGNAL_MONITORED_FENCE (16) exists from WDDM 2.2 on, 17-18 from 2.9, 19-22
 * from 3.2; older kits build without them. */
#if defined(DXGKDDI_INTERFACE_VERSION_WDDM2_2) && (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2)
#define PB_HAVE_WDDM2_2_OPS 1
#else
#define PB_HAVE_WDDM2_2_OPS 0
#endif
#if defined(DXGKDDI_INTERFACE_VERSION_WDDM3_2) && (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM3_2)
#define PB_HAVE_WDDM3_2_OPS 1
#else
#define PB_HAVE_WDDM3_2_OPS 0
#endif
#if defined(DXGKDDI_INTERFACE_VERSION_WDDM2_9) && (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_9)
#define PB_HAVE_WDDM2_9_OPS 1
#else
#define PB_HAVE_WDDM2_9_OPS 0
#endif

/* Status for arguments that break a documented rule. VidMm knows no code for
 * this and treats any other failure as fatal, which is what a broken argument
 * deserves: nothing has been written and the rule was reported first. */
#define PB_STATUS_INVALID_ARGS STATUS_INVALID_PARAMETER

#define PB_PAGE_SIZE 4096u
#define PB_PAGE_SHIFT 12u

/* ---- backend interface ---------------------------------------------------- */

/* A GPU location. Spaces (same numbers as RPB1): 0 system physical byte address,
 * 1..31 byte offset inside memory segment n (segment base already removed),
 * 0x100 paging-process GPU VA, 0x200+n byte offset into the aperture table of
 * segment n (8 bytes per page). */
typedef struct pb_loc {
    uint16_t space;
    uint64_t addr;
} pb_loc;

#define PB_SPACE_SYSTEM 0x0000u
#define PB_SPACE_PAGING_VA 0x0100u
#define PB_SPACE_APERTURE_TABLE 0x0200u

/* Where packets go: [pos, end). seq numbers the non-pad packets of one DMA buffer. */
typedef struct pb_cursor {
    uint8_t *pos;
    uint8_t *end;
    uint32_t seq;
} pb_cursor;

typedef enum pb_packet_kind {
    PB_PKT_PAD = 0,
    PB_PKT_COPY,
    PB_PKT_FILL32,
    PB_PKT_WRITE64, /* n = number of qwords */
    PB_PKT_PTEGEN,
    PB_PKT_TLB_INVAL,
    PB_PKT_BARRIER,
    PB_PKT_FENCE64,
    PB_PKT_NOTE,
    PB_PKT_TOUCH,
    PB_PKT_KIND_COUNT
} pb_packet_kind;

/* COPY transforms, from DXGK_TRANSFERFLAGS when hAllocation is not NULL. */
#define PB_COPY_PLAIN 0u
#define PB_COPY_SWIZZLE 1u
#define PB_COPY_UNSWIZZLE 2u

/* Record of an operation that has no memory effect the engine can express
 * (notifications, undocumented WDDM 3.2 operations). a/b per operation are
 * listed in docs/runtime-packet-format.md; args is the full DDI argument. */
typedef struct pb_note {
    uint32_t ddi_op;
    uint32_t flags;
    uint64_t handle;
    uint64_t a, b;
    uint32_t index; /* entry index for operations with several records */
    const DXGKARG_BUILDPAGINGBUFFER *args;
} pb_note;

/* How the engine wants page-table entries encoded. */
typedef struct pb_pte_ctx {
    uint32_t level;         /* DXGK page table level, 0 = leaf */
    uint32_t use_64kb;      /* DXGK_UPDATEPAGETABLEFLAGS.Use64KBPages */
    uint32_t table_64kb;    /* encoding entries of a dual-PTE 64 KiB table */
    /* Set by the engine when it has checked, in this call, that every entry it
     * passes to encode_ptes has the same Flags: an encoder may skip comparing. */
    uint32_t flags_uniform;
    /* Set by the engine when it saved the extended processor state for this
     * call (pb_backend_ops.vector_save): pb_encode_ptes_split may run its AVX2
     * loops. An encoder of its own must not use AVX unless this is set. */
    uint32_t wide;
    /* Set by the engine when this call's payload goes around the cache
     * (pb_engine.stream): pb_encode_ptes_split then writes out with
     * non-temporal stores where out is aligned for them, and the engine issues
     * the store fence before the call returns. An encoder of its own may
     * ignore it; if it streams too, the engine's fence covers its stores. */
    uint32_t stream;
} pb_pte_ctx;

/* Most GPUs' PTEs are flag bits OR'd with a shifted page number. A backend whose
 * PTE has that shape describes it here and implements encode_ptes with
 * pb_encode_ptes_split, which owns the vectorised loop and calls flag_bits only
 * when the DXGK flags change from one entry to the next. */
typedef struct pb_pte_split {
    /* GPU PTE bits for a DXGK_PTE flag word (everything but the page number). */
    uint64_t (*flag_bits)(void *ctx, uint64_t dxgk_flags, const pb_pte_ctx *pc);
    void *ctx;
    /* Optional: the backend's own per-entry encoder, for stretches where the
     * flags change from entry to entry (NULL: a two-value cache of flag_bits). */
    void (*encode_mixed)(void *ctx, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, uint64_t *out);
    uint64_t page_mask;  /* page-number bits kept, before the shift */
    uint32_t page_shift; /* below 64 */
} pb_pte_split;

/* out[i] = flag_bits(in[i].Flags) | (in[i].PageAddress & page_mask) << page_shift. */
void pb_encode_ptes_split(const pb_pte_split *fmt, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc,
                          uint64_t *out);

/* Storage for the extended processor state a backend saves around the
 * engine's AVX2 loops: room for an x64 XSTATE_SAVE (56 bytes in current kits;
 * a driver can static-assert sizeof(XSTATE_SAVE) <= sizeof(pb_vector_state)).
 * It lives on the engine's stack for the duration of one call. */
#define PB_VECTOR_STATE_QWORDS 16u
typedef struct pb_vector_state {
    uint64_t opaque[PB_VECTOR_STATE_QWORDS];
} pb_vector_state;

/* Packet emitters write exactly size_of(kind, n) bytes at c->pos and advance it;
 * the engine has already reserved that space, so emitters never check. */
typedef struct pb_backend_ops {
    uint32_t (*size_of)(void *ctx, pb_packet_kind kind, uint32_t n);
    void (*pad)(void *ctx, pb_cursor *c, uint32_t bytes);
    void (*copy)(void *ctx, pb_cursor *c, pb_loc dst, pb_loc src, uint64_t bytes, uint32_t mode);
    void (*fill32)(void *ctx, pb_cursor *c, pb_loc dst, uint64_t bytes, uint32_t pattern);
    /* WRITE64 in two steps: begin returns room for n_max little-endian qwords
     * that the engine fills in place; end commits n <= n_max of them and
     * advances the cursor by size_of(PB_PKT_WRITE64, n). */
    uint64_t *(*write64_begin)(void *ctx, pb_cursor *c, pb_loc dst, uint32_t n_max);
    void (*write64_end)(void *ctx, pb_cursor *c, uint32_t n);
    void (*ptegen)(void *ctx, pb_cursor *c, pb_loc dst, uint64_t first, uint64_t incr, uint32_t n);
    void (*tlb_inval)(void *ctx, pb_cursor *c, pb_loc root, uint64_t va0, uint64_t va1);
    void (*barrier)(void *ctx, pb_cursor *c);
    void (*fence64)(void *ctx, pb_cursor *c, pb_loc dst, uint64_t value);
    void (*touch)(void *ctx, pb_cursor *c, pb_loc loc, uint32_t bytes, uint32_t write);
    void (*note)(void *ctx, pb_cursor *c, const pb_note *note);
    /* Encodes n DXGK_PTEs into GPU PTE values (the hot loop of UPDATE_PAGE_TABLE). */
    void (*encode_ptes)(void *ctx, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, uint64_t *out);
    /* GPU PTE for an aperture table entry that maps system page page_number. */
    uint64_t (*aperture_pte)(void *ctx, uint32_t segment_id, uint64_t page_number, uint32_t cache_coherent);
    /* CPU path: write n qwords at a CPU VA now (UPDATE_PAGE_TABLE with pDmaBuffer == NULL). */
    int (*cpu_write64)(void *ctx, void *cpu_va, const uint64_t *v, uint32_t n);
    /* Optional: GPU location of a CPU-visible page table, so CPU_VIRTUAL updates
     * with a DMA buffer are queued in order. NULL or nonzero: apply on the CPU. */
    int (*cpu_va_to_loc)(void *ctx, const void *cpu_va, uint64_t bytes, pb_loc *out);
    /* Optional, x64: make AVX registers usable in kernel mode for the rest of
     * this call (a driver calls KeSaveExtendedProcessorState(XSTATE_MASK_AVX,
     * (XSTATE_SAVE *)state) and returns 0 on STATUS_SUCCESS), and restore them
     * (KeRestoreExtendedProcessorState). The engine pairs every successful save
     * with one restore before it returns, and saves only for calls of at least
     * pb_config.wide_min_entries entries. NULL, or a nonzero return: SSE2. */
    int (*vector_save)(void *ctx, pb_vector_state *state);
    void (*vector_restore)(void *ctx, pb_vector_state *state);
} pb_backend_ops;

/* Backend capabilities. */
#define PB_CAP_SWIZZLE_NEEDS_IDLE 0x1u  /* swizzled transfers need AllocationIsIdle */
#define PB_CAP_DISCARD_NEEDS_IDLE 0x2u  /* DISCARD_CONTENT needs AllocationIsIdle */
#define PB_CAP_SPECIAL_LOCK_NEEDS_IDLE 0x4u

typedef struct pb_backend {
    const pb_backend_ops *ops;
    void *ctx;
    uint32_t submit_align;      /* power of two >= 8; every call's output is a multiple */
    uint32_t max_copy;          /* bytes per COPY, a multiple of 4096 */
    uint32_t max_fill;          /* bytes per FILL32, a multiple of 4096 */
    uint32_t max_write64;       /* qwords per WRITE64 */
    uint32_t max_ptegen;        /* entries per PTEGEN */
    uint32_t dual_pte_offset;   /* bytes from a leaf table to its 64 KiB companion table */
    uint32_t caps;
    /* Optional (flag_bits NULL: absent): the backend's encode_ptes is
     * pb_encode_ptes_split over this description. The engine may then encode
     * UPDATE_PAGE_TABLE entries itself, fused with their check (see "refused
     * calls" at pb_build_paging_buffer); the output is the same. */
    pb_pte_split pte_split;
} pb_backend;

/* ---- engine ------------------------------------------------------------------ */

typedef struct pb_segment_info {
    uint64_t base;      /* DXGK_SEGMENTDESCRIPTOR base: SegmentAddress = base + offset */
    uint64_t size;      /* bytes */
    uint32_t aperture;  /* 1 for an aperture segment */
} pb_segment_info;

#define PB_MAX_SEGMENTS 31u
#define PB_MAX_LEVELS 6u

/* Adapter capabilities the checks depend on. */
#define PB_ADAPTER_ZERO_IN_PTE 0x1u   /* DXGK_GPUMMUCAPS.ZeroInPteSupported */
#define PB_ADAPTER_LARGE_PAGE 0x2u    /* LargePageSupported */
#define PB_ADAPTER_DUAL_PTE 0x4u      /* DualPteSupported */

typedef enum pb_severity {
    PB_RULE_INVALID = 0, /* the call fails with PB_STATUS_INVALID_ARGS, nothing written */
    PB_RULE_WARNING = 1  /* reported; the engine proceeds */
} pb_severity;

/* rule_id is stable, e.g. "DXGKARG_BUILDPAGINGBUFFER.Transfer.Flags:swizzle-exclusive". */
typedef void (*pb_report_fn)(void *ctx, const char *rule_id, pb_severity severity,
                             const DXGKARG_BUILDPAGINGBUFFER *args);

typedef struct pb_config {
    pb_backend backend;
    uint32_t paging_buffer_size;        /* DXGK_QUERYSEGMENTOUT*.PagingBufferSize */
    uint32_t segment_count;             /* segments 1..segment_count */
    pb_segment_info segments[PB_MAX_SEGMENTS + 1];
    uint32_t adapter_caps;
    uint32_t level_count;               /* page table levels, <= PB_MAX_LEVELS */
    uint8_t index_bits[PB_MAX_LEVELS];  /* PageTableIndexBitCount per level (0 = leaf) */
    pb_report_fn report;
    void *report_ctx;
    /* AVX2 for UPDATE_PAGE_TABLE (x64 only): PB_WIDE_AUTO uses it when CPUID
     * reports AVX2 with OS support and the backend has vector_save/restore;
     * PB_WIDE_OFF never does. */
    uint32_t wide_vectors;
    /* Entries a call must process before saving the state pays off; 0 takes
     * PB_WIDE_MIN_ENTRIES_DEFAULT. bench_runtime measures the break-even with
     * a host XSAVE/XRSTOR pair (250-400 ns on the AMD EPYC it was set on, where
     * AVX2 won from 1024-8192 entries across runs on a loaded machine); the
     * default sits in that range and above its low end because a kernel save
     * costs more than the host's. A driver measures with its own hook. */
    uint32_t wide_min_entries;
    /* Paging buffers of at least this many bytes get their UPDATE_PAGE_TABLE
     * payloads written with non-temporal stores (x64: movntdq, vmovntdq), which
     * skip reading each output line before writing it and leave the cache to
     * what the CPU reads again. The engine cannot see when the GPU reads the
     * buffer nor how many buffers VidMm rotates; the size of the buffer it
     * fills is what it knows: one larger than a share of the last-level cache
     * is evicted while it is written, so its lines cost a read from memory each
     * and their stay in the cache buys nothing. 0 takes the default,
     * PB_STREAM_LLC_SHARE_NUM/DEN of the last-level cache the CPU reports
     * (pb_cpu_cache_bytes), or never when it reports none; PB_STREAM_NEVER:
     * never; 1: always. bench_runtime measures the crossover on a host. */
    uint32_t stream_min_bytes;
} pb_config;

/* 1 when this CPU has AVX2 and the OS saves YMM state (CPUID, XGETBV); always
 * 0 off x64. pb_engine_init asks it once. */
uint32_t pb_cpu_has_avx2(void);

/* Bytes of the data or unified cache at level 1, 2 or 3 as the CPU describes
 * it (CPUID leaf 4 on Intel, 0x8000001D or 0x80000006 on AMD): one instance,
 * however many cores share it. 0 when the CPU lists none, and off x64. */
uint64_t pb_cpu_cache_bytes(uint32_t level);

/* The default stream threshold, a share of the last-level cache: a buffer of
 * half of it and the DXGK_PTE arrays it is filled from (twice its size) exceed
 * the cache on any vendor; smaller ones may stay, depending on the cache's
 * policy and its other tenants (figures: bench/README.md, bench/runtime). */
#define PB_STREAM_NEVER 0xFFFFFFFFu
#define PB_STREAM_LLC_SHARE_NUM 1u
#define PB_STREAM_LLC_SHARE_DEN 2u

#define PB_WIDE_AUTO 0u
#define PB_WIDE_OFF 1u
#define PB_WIDE_MIN_ENTRIES_DEFAULT 4096u

typedef struct pb_engine {
    pb_config cfg;
    uint32_t seq;            /* next packet number in the current DMA buffer */
    uint32_t transfer_open;  /* a TransferStart was seen without its TransferEnd */
    uint32_t largest_fixed;  /* largest fixed-size packet step, for the config check */
    uint32_t ready;          /* pb_engine_init accepted the configuration */
    uint32_t wide;           /* AVX2 usable: CPU, backend hooks and configuration agree */
    uint32_t wide_min;       /* entries from which a call saves state for AVX2 */
    uint32_t stream_min;     /* pb_config.stream_min_bytes, or the default it stands for */
    uint32_t stream;         /* paging_buffer_size >= stream_min: payloads bypass the cache (x64 only) */
} pb_engine;

/* Checks the configuration and resets the state. Returns STATUS_SUCCESS or
 * PB_STATUS_INVALID_ARGS after reporting the first problem (args NULL) as one of:
 *   pb_config.backend.ops:complete                  a required op is NULL
 *   pb_config.backend.submit_align:power-of-two-at-least-8
 *   pb_config.backend.max_copy:nonzero-page-multiple
 *   pb_config.backend.max_fill:nonzero-page-multiple
 *   pb_config.backend.max_write64:nonzero
 *   pb_config.backend.max_ptegen:at-least-12        below the run length at which
 *                                                   the engine emits a PTEGEN
 *   pb_config.segment_count:at-most-31
 *   pb_config.level_count:at-most-6
 *   pb_config.wide_vectors:known-value               PB_WIDE_AUTO or PB_WIDE_OFF
 *   pb_config.backend.pte_split.page_shift:below-64
 *   pb_config.paging_buffer_size:holds-largest-packet  a fresh buffer cannot take
 *                                                   the largest step plus padding
 * An engine whose configuration was refused refuses every call
 * ("pb_engine:initialised") instead of running on it. */
NTSTATUS pb_engine_init(pb_engine *engine, const pb_config *config);

/* The DxgkDdiBuildPagingBuffer body. Serialise calls per engine (one per paging
 * node, which VidMm already does). Returns STATUS_SUCCESS,
 * STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, STATUS_GRAPHICS_ALLOCATION_BUSY or
 * PB_STATUS_INVALID_ARGS.
 *
 * Refused calls (PB_STATUS_INVALID_ARGS, and ALLOCATION_BUSY): pDmaBuffer,
 * DmaSize and MultipassOffset are unchanged, so the part of the DMA buffer
 * already written (submitted or not) and the cursor stay as they were, and no
 * memory outside the unused tail [pDmaBuffer, pDmaBuffer + DmaSize) has
 * changed: no page table written on the CPU, no argument, no byte past DmaSize.
 * The tail may hold scratch bytes: the DMA path encodes UPDATE_PAGE_TABLE
 * entries while it checks them and, when the check fails, does not advance
 * the cursor. After any call, bytes between the returned pDmaBuffer and the end
 * of the buffer are unspecified; VidMm submits only up to the cursor. The
 * CPU path (UPDATE_PAGE_TABLE with pDmaBuffer == NULL, or CPU_VIRTUAL without a
 * GPU alias), which writes outside the DMA buffer, checks everything before it
 * writes anything.
 *
 * With pb_engine.stream, UPDATE_PAGE_TABLE payloads are written with
 * non-temporal stores, which x64 orders only by a fence: every such call,
 * accepted or refused, issues one (sfence) before it returns, so the caller's
 * later stores (the submission) follow everything the call wrote. */
NTSTATUS pb_build_paging_buffer(pb_engine *engine, DXGKARG_BUILDPAGINGBUFFER *args);

/* Length of the run of physically contiguous pages starting at pfn[0]
 * (pfn[i] == pfn[0] + i), at most n. Inline: it runs once per packet and, on
 * scattered MDLs, once per page, so a call would cost more than the test. */
static PB_INLINE size_t pb_pfn_run_length(const PFN_NUMBER *pfn, size_t n)
{
    PFN_NUMBER base;
    size_t i = 2;
    if (n < 2)
        return n;
    base = pfn[0];
    if (pfn[1] != base + 1u)
        return 1;
    /* Four pages per test: the OR of the differences is zero only if all match. */
    while (i + 4u <= n) {
        PFN_NUMBER d = (pfn[i] - (base + i)) | (pfn[i + 1u] - (base + i + 1u)) | (pfn[i + 2u] - (base + i + 2u)) |
                       (pfn[i + 3u] - (base + i + 3u));
        if (d)
            break;
        i += 4u;
    }
    while (i < n && pfn[i] == base + i)
        i++;
    return i;
}

/* ---- branch-free run detection over PFN arrays ------------------------------ */

/* Index of the lowest set bit; x must not be 0. */
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_AMD64) || defined(_M_ARM64))
unsigned char _BitScanForward64(unsigned long *Index, unsigned __int64 Mask);
#if !defined(__clang__)
#pragma intrinsic(_BitScanForward64)
#endif
static PB_INLINE uint32_t pb_ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (uint32_t)i;
}
#elif defined(_MSC_VER)
unsigned char _BitScanForward(unsigned long *Index, unsigned long Mask);
#if !defined(__clang__)
#pragma intrinsic(_BitScanForward)
#endif
static PB_INLINE uint32_t pb_ctz64(uint64_t x)
{
    unsigned long i;
    if (_BitScanForward(&i, (unsigned long)x))
        return (uint32_t)i;
    _BitScanForward(&i, (unsigned long)(x >> 32));
    return (uint32_t)i + 32u;
}
#else
static PB_INLINE uint32_t pb_ctz64(uint64_t x)
{
    return (uint32_t)__builtin_ctzll(x);
}
#endif

#define PB_RUN_BLOCK 64u

/* Walks the maximal runs of pfn[0..n) (pfn[i + 1] == pfn[i] + 1), adapting to
 * the layout one 64-page block at a time:
 *  - mixed blocks: the block is turned into a discontinuity mask, bit k set when
 *    page block + k ends a run (the next page does not follow it, or the array
 *    ends), without a data-dependent branch; runs are read off the mask with
 *    ctz, so short runs cost no mispredicted branch per page;
 *  - contiguous blocks (all-zero mask): recognised by one endpoint compare and
 *    an OR-reduction the compilers vectorise, without building the mask;
 *  - scattered blocks (all-ones mask): the walk switches to a per-page test of
 *    the next page, which is a well-predicted branch while every page is its
 *    own run, and no masks are built until a page continues its predecessor.
 * Results do not depend on the mode: every call returns the length of the
 * maximal run at pos, cut at cap. */
typedef struct pb_run_scan {
    const PFN_NUMBER *pfn;
    size_t n;        /* pages in the array */
    size_t pos;      /* first page of the next run */
    size_t block;    /* first page the mask describes */
    uint64_t mask;   /* bit k: page block + k ends a run not yet reached */
    size_t scattered_lim; /* nonzero: per-page mode while pos < scattered_lim (= n - 1) */
} pb_run_scan;

/* 1 when pages p[0..64] are one contiguous stretch (a block inside one run).
 * The endpoint test rejects almost every other block at once; the reduction
 * over neighbour differences has a constant trip count, no branch and no
 * induction vector, so gcc -O2 and clang compile it to SSE2 (two loads, paddq,
 * psubq, por per two pages). Wrapping arithmetic matches the continuation
 * test (pfn + 1 may wrap to 0). */
static PB_INLINE int pb_run_block_contiguous(const PFN_NUMBER *p)
{
    PFN_NUMBER d = 0;
    uint32_t k;
    if ((PFN_NUMBER)(p[PB_RUN_BLOCK] - p[0]) != (PFN_NUMBER)PB_RUN_BLOCK)
        return 0;
    for (k = 0; k < PB_RUN_BLOCK; k++)
        d |= (PFN_NUMBER)(p[k + 1u] - p[k] - 1u);
    return d == 0;
}

/* Discontinuity mask of pages [block, block + 64), n > block. */
static PB_INLINE uint64_t pb_run_mask(const PFN_NUMBER *pfn, size_t n, size_t block)
{
    const PFN_NUMBER *p = pfn + block;
    uint64_t m = 0;
    uint32_t k;
    if (n - block > PB_RUN_BLOCK) {
        if (pb_run_block_contiguous(p))
            return 0;
        /* Full block: 64 independent compares packed 8 at a time, no branch. */
        for (k = 0; k < PB_RUN_BLOCK; k += 8u) {
            uint64_t b = (uint64_t)(p[k + 1u] - p[k] != 1u) | (uint64_t)(p[k + 2u] - p[k + 1u] != 1u) << 1 |
                         (uint64_t)(p[k + 3u] - p[k + 2u] != 1u) << 2 | (uint64_t)(p[k + 4u] - p[k + 3u] != 1u) << 3 |
                         (uint64_t)(p[k + 5u] - p[k + 4u] != 1u) << 4 | (uint64_t)(p[k + 6u] - p[k + 5u] != 1u) << 5 |
                         (uint64_t)(p[k + 7u] - p[k + 6u] != 1u) << 6 | (uint64_t)(p[k + 8u] - p[k + 7u] != 1u) << 7;
            m |= b << k;
        }
        return m;
    }
    /* Last block: the final page always ends a run. */
    {
        const uint32_t last = (uint32_t)(n - block - 1u);
        for (k = 0; k < last; k++)
            m |= (uint64_t)(p[k + 1u] - p[k] != 1u) << k;
        return m | (uint64_t)1 << last;
    }
}

/* Enters per-page mode when m, a full block's mask, says every page ends a run. */
static PB_INLINE uint64_t pb_run_scan_mode(pb_run_scan *s, uint64_t m)
{
    if (m == ~(uint64_t)0 && s->n - s->block > PB_RUN_BLOCK) {
        s->scattered_lim = s->n - 1u;
        return 0;
    }
    return m;
}

/* Starts a walk of pfn[0..n) at page pos (a multipass token may resume mid-run). */
static PB_INLINE void pb_run_scan_init(pb_run_scan *s, const PFN_NUMBER *pfn, size_t n, size_t pos)
{
    s->pfn = pfn;
    s->n = n;
    s->pos = pos;
    s->block = pos;
    s->scattered_lim = 0;
    s->mask = pos < n ? pb_run_scan_mode(s, pb_run_mask(pfn, n, pos)) : 0;
}

/* Slow half of pb_run_scan_next: leaves per-page mode, refills the mask (once
 * per 64 pages, skipping contiguous blocks) or cuts a run at cap. */
static PB_INLINE size_t pb_run_scan_next_slow(pb_run_scan *s, size_t cap)
{
    const size_t start = s->pos;
    size_t end;
    uint64_t m = s->mask;
    int refilled = 0;
    if (start >= s->n)
        return 0;
    if (s->scattered_lim) { /* per-page mode met a continuation or the last page */
        s->scattered_lim = 0;
        s->block = start;
        m = pb_run_mask(s->pfn, s->n, start); /* 0 if a contiguous block starts here */
    }
    if (m == 0) { /* every run end of this block consumed, or none in it */
        do { /* the run continues past this block */
            s->block += PB_RUN_BLOCK;
            m = pb_run_mask(s->pfn, s->n, s->block);
        } while (m == 0);
        refilled = 1;
    }
    end = s->block + pb_ctz64(m) + 1u;
    if (end - start > cap) { /* cut by the packet limit: the run end stays pending */
        s->mask = m;
        end = start + cap;
    } else {
        /* A fresh all-ones block: this run ends at its first page, the rest go per page. */
        s->mask = refilled && end == s->block + 1u ? pb_run_scan_mode(s, m) & (m - 1u) : m & (m - 1u);
    }
    s->pos = end;
    return end - start;
}

/* Length of the contiguous run starting at s->pos, at most cap (>= 1), and
 * advances past it; 0 at the end of the array. In per-page mode the common case
 * is two loads, a compare and a well-predicted branch; in mask mode it is a ctz,
 * a few adds and one well-predicted branch, consumed run ends being cleared from
 * the mask (m & (m - 1)); refills (once per 64 pages), mode changes and cuts
 * take the slow half. */
static PB_INLINE size_t pb_run_scan_next(pb_run_scan *s, size_t cap)
{
    const size_t pos = s->pos;
    const uint64_t m = s->mask; /* 0 in per-page mode */
    if (m != 0) { /* mask mode first: the short-run case pays nothing for the other modes */
        const size_t end = s->block + pb_ctz64(m) + 1u, len = end - pos;
        if (len <= cap) {
            s->mask = m & (m - 1u);
            s->pos = end;
            return len;
        }
    } else if (pos < s->scattered_lim && s->pfn[pos + 1u] - s->pfn[pos] != 1u) {
        s->pos = pos + 1u;
        return 1;
    }
    return pb_run_scan_next_slow(s, cap);
}

#ifdef __cplusplus
}
#endif

#endif /* DDI_PAGING_H */
