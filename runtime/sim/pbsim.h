/* Host-only simulator of the reference GPU: decodes and executes RPB1 paging
 * buffers against segments, system pages, aperture tables, page tables and a stale TLB. */
#ifndef PBSIM_H
#define PBSIM_H

#include <stddef.h>
#include <stdint.h>

#include "rpb1.h"

#define PBSIM_MAX_SEGMENTS 31u
#define PBSIM_PAGE 4096u
#define PBSIM_CANARY_BYTES 64u
#define PBSIM_CANARY 0xCAu
#define PBSIM_TLB_ENTRIES 512u
#define PBSIM_MAX_NOTES 256u

/* Reference MMU: level 1 (root) has 512 entries of 2 MiB, level 0 has 512 4 KiB
 * entries or, when the PDE has RPB_PTE_LEAF64K, 32 entries of 64 KiB. */
#define PBSIM_ROOT_ENTRIES 512u

typedef struct pbsim_segment_desc {
    uint64_t size;     /* bytes (aperture: pages * 4096) */
    int aperture;      /* 1: accesses translate through the aperture table */
} pbsim_segment_desc;

typedef struct pbsim_layout {
    uint32_t segment_count;                       /* segments 1..segment_count */
    pbsim_segment_desc segments[PBSIM_MAX_SEGMENTS + 1];
    uint64_t sys_pfn_base;                        /* first PFN of the system pool */
    uint32_t sys_pages;
    uint16_t root_space;                          /* paging-process root table */
    uint64_t root_addr;
    int dual_pte;                                 /* 64 KiB companion tables at +4096 */
} pbsim_layout;

typedef struct pbsim_region {
    uint8_t *raw;   /* allocation including canaries */
    uint8_t *bytes; /* raw + PBSIM_CANARY_BYTES */
    uint64_t size;
} pbsim_region;

typedef struct pbsim_tlb_entry {
    uint16_t key_space; /* RPB_SPACE_PAGING_VA or RPB_SPACE_APERTURE_TABLE + n */
    uint16_t dst_space;
    uint64_t vpage;     /* virtual 4 KiB page number */
    uint64_t dst_addr;  /* target byte address of the page start */
} pbsim_tlb_entry;

typedef struct pbsim_note {
    uint32_t ddi_op, flags;
    uint64_t handle, a, b;
} pbsim_note;

typedef struct pbsim_touch {
    rpb_loc loc;
    uint32_t bytes, write;
} pbsim_touch;

typedef struct pbsim_machine {
    pbsim_layout layout;
    pbsim_region seg[PBSIM_MAX_SEGMENTS + 1];   /* memory segments */
    pbsim_region table[PBSIM_MAX_SEGMENTS + 1]; /* aperture tables, 8 bytes per page */
    pbsim_region sys;
    pbsim_tlb_entry tlb[PBSIM_TLB_ENTRIES];
    uint32_t tlb_count, tlb_next;
    uint32_t writes_since_barrier;
    pbsim_note notes[PBSIM_MAX_NOTES];
    uint32_t note_count;
    pbsim_touch touches[PBSIM_MAX_NOTES];
    uint32_t touch_count;
    uint64_t packets_by_op[RPB_OP_COUNT_];
    char error[256];
} pbsim_machine;

int pbsim_init(pbsim_machine *m, const pbsim_layout *layout);
void pbsim_free(pbsim_machine *m);
/* Deterministic contents derived from seed; TLB, logs and errors cleared. */
void pbsim_randomize(pbsim_machine *m, uint64_t seed);
/* Copies memory and logs (not the TLB) from src, which has the same layout. */
void pbsim_copy_memory(pbsim_machine *dst, const pbsim_machine *src);
void pbsim_tlb_flush_all(pbsim_machine *m);

/* Executes one submitted buffer; seq restarts at 0 per buffer. Returns 0 or -1 (error in m->error). */
int pbsim_execute(pbsim_machine *m, const uint8_t *buf, size_t len);
/* Strict decode only; counts packets by opcode into counts (may be NULL). */
int pbsim_decode(const uint8_t *buf, size_t len, uint64_t counts[RPB_OP_COUNT_], char *err, size_t errlen);

/* CPU-side access used by the backend's CPU hooks and the oracle. */
int pbsim_cpu_write64(pbsim_machine *m, void *cpu_va, const uint64_t *v, uint32_t n);
int pbsim_cpu_va_to_loc(pbsim_machine *m, const void *cpu_va, uint64_t bytes, rpb_loc *out);
uint8_t *pbsim_host_ptr(pbsim_machine *m, rpb_loc loc, uint64_t bytes);
/* Walks the page tables as they are in memory now (no TLB). */
int pbsim_translate_va(pbsim_machine *m, uint64_t va, rpb_loc *pa);
int pbsim_translate_aperture(pbsim_machine *m, uint32_t segment, uint64_t offset, rpb_loc *pa);

/* Byte-for-byte comparison of memory and logs; describes the first difference. */
int pbsim_equal(const pbsim_machine *a, const pbsim_machine *b, char *why, size_t whylen);
int pbsim_canaries_ok(const pbsim_machine *m, char *why, size_t whylen);

#endif /* PBSIM_H */
