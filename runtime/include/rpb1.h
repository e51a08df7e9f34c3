/* RPB1: the reference paging-packet format (docs/runtime-packet-format.md).
 * Freestanding static-inline writers and field offsets shared by backend and simulator. */
#ifndef RPB1_H
#define RPB1_H

#include <stddef.h>
#include <stdint.h>

/* Writers store whole little-endian qwords through aligned pointers so that a
 * packet of constant fields folds to a few constant stores. Every Windows
 * target is little-endian; a big-endian host would need byte swaps here. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "RPB1 writers assume a little-endian host"
#endif
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define RPB_INLINE __inline
#else
#define RPB_INLINE inline
#endif

#if defined(RPB_DEBUG)
#define RPB_ASSERT(c) ((c) ? (void)0 : rpb_assert_failed(#c, __FILE__, __LINE__))
void rpb_assert_failed(const char *expr, const char *file, int line);
#else
#define RPB_ASSERT(c) ((void)0)
#endif

enum rpb_opcode {
    RPB_OP_INVALID = 0, /* a zero-filled buffer never decodes */
    RPB_OP_PAD = 1,
    RPB_OP_COPY = 2,
    RPB_OP_FILL32 = 3,
    RPB_OP_WRITE64 = 4,
    RPB_OP_PTEGEN = 5,
    RPB_OP_TLB_INVAL = 6,
    RPB_OP_BARRIER = 7,
    RPB_OP_FENCE64 = 8,
    RPB_OP_NOTE = 9,
    RPB_OP_TOUCH = 10,
    RPB_OP_COUNT_ = 11
};

/* Address spaces of an rpb location (u16 "space"). */
#define RPB_SPACE_SYSTEM 0x0000u        /* system physical byte address */
#define RPB_SPACE_SEGMENT_MIN 0x0001u   /* 1..31: byte offset inside memory segment n */
#define RPB_SPACE_SEGMENT_MAX 0x001Fu
#define RPB_SPACE_PAGING_VA 0x0100u     /* GPU VA of the system paging process */
#define RPB_SPACE_APERTURE_TABLE 0x0200u /* +n: byte offset into aperture table of segment n */

/* Fixed packet sizes in bytes; WRITE64 is RPB_WRITE64_BASE + 8 * n. */
#define RPB_HDR_BYTES 16u
#define RPB_PAD_MIN 8u
#define RPB_COPY_BYTES 56u
#define RPB_FILL32_BYTES 48u
#define RPB_WRITE64_BASE 40u
#define RPB_PTEGEN_BYTES 56u
#define RPB_TLB_INVAL_BYTES 48u
#define RPB_BARRIER_BYTES 16u
#define RPB_FENCE64_BYTES 40u
#define RPB_NOTE_BYTES 48u
#define RPB_TOUCH_BYTES 40u

/* COPY header flags: how bytes are transformed on the way (reference tiling). */
#define RPB_COPY_PLAIN 0u
#define RPB_COPY_SWIZZLE 1u
#define RPB_COPY_UNSWIZZLE 2u
#define RPB_COPY_FLAGS_MASK 3u
/* TOUCH header flags. */
#define RPB_TOUCH_WRITE 1u

typedef struct rpb_loc {
    uint16_t space;
    uint64_t addr;
} rpb_loc;

static RPB_INLINE rpb_loc rpb_loc_make(uint16_t space, uint64_t addr)
{
    rpb_loc l;
    l.space = space;
    l.addr = addr;
    return l;
}

static RPB_INLINE void rpb_st64(uint8_t *p, uint32_t off, uint64_t v)
{
    RPB_ASSERT((((uintptr_t)p + off) & 7u) == 0);
    *(uint64_t *)(void *)(p + off) = v;
}

/* Header qword 0: opcode | flags << 16 | size << 32; qword 1: seq | reserved << 32. */
static RPB_INLINE void rpb_put_header(uint8_t *p, uint32_t opcode, uint32_t flags, uint32_t size, uint32_t seq)
{
    RPB_ASSERT(opcode < RPB_OP_COUNT_ && flags <= 0xFFFFu && (size & 7u) == 0);
    rpb_st64(p, 0, ((uint64_t)(opcode & 0xFFFFu)) | ((uint64_t)(flags & 0xFFFFu) << 16) | ((uint64_t)size << 32));
    rpb_st64(p, 8, (uint64_t)seq);
}

static RPB_INLINE void rpb_put_loc(uint8_t *p, uint32_t off, rpb_loc l)
{
    rpb_st64(p, off, (uint64_t)l.space);
    rpb_st64(p, off + 8u, l.addr);
}

/* PAD: an 8-byte PAD is header qword 0 only; PADs never consume a seq number. */
static RPB_INLINE void rpb_put_pad(uint8_t *p, uint32_t bytes)
{
    uint32_t off;
    RPB_ASSERT(bytes >= RPB_PAD_MIN && (bytes & 7u) == 0);
    rpb_st64(p, 0, (uint64_t)RPB_OP_PAD | ((uint64_t)bytes << 32));
    for (off = 8; off < bytes; off += 8)
        rpb_st64(p, off, 0);
}

static RPB_INLINE void rpb_put_copy(uint8_t *p, uint32_t seq, rpb_loc dst, rpb_loc src, uint64_t bytes, uint32_t mode)
{
    RPB_ASSERT(mode <= RPB_COPY_UNSWIZZLE && bytes != 0);
    rpb_put_header(p, RPB_OP_COPY, mode & RPB_COPY_FLAGS_MASK, RPB_COPY_BYTES, seq);
    rpb_put_loc(p, 16, dst);
    rpb_put_loc(p, 32, src);
    rpb_st64(p, 48, bytes);
}

static RPB_INLINE void rpb_put_fill32(uint8_t *p, uint32_t seq, rpb_loc dst, uint64_t bytes, uint32_t pattern)
{
    rpb_put_header(p, RPB_OP_FILL32, 0, RPB_FILL32_BYTES, seq);
    rpb_put_loc(p, 16, dst);
    rpb_st64(p, 32, bytes);
    rpb_st64(p, 40, (uint64_t)pattern);
}

/* WRITE64 is written in two steps so that callers can generate values straight
 * into the packet: header first (returns the payload), then the final count. */
static RPB_INLINE uint64_t *rpb_put_write64_head(uint8_t *p, uint32_t seq, rpb_loc dst)
{
    rpb_put_header(p, RPB_OP_WRITE64, 0, RPB_WRITE64_BASE, seq);
    rpb_put_loc(p, 16, dst);
    return (uint64_t *)(void *)(p + RPB_WRITE64_BASE);
}

static RPB_INLINE void rpb_put_write64_count(uint8_t *p, uint32_t n)
{
    rpb_st64(p, 0, (uint64_t)RPB_OP_WRITE64 | ((uint64_t)(RPB_WRITE64_BASE + 8u * n) << 32));
    rpb_st64(p, 32, (uint64_t)n);
}

static RPB_INLINE void rpb_put_ptegen(uint8_t *p, uint32_t seq, rpb_loc dst, uint64_t first, uint64_t incr, uint32_t n)
{
    rpb_put_header(p, RPB_OP_PTEGEN, 0, RPB_PTEGEN_BYTES, seq);
    rpb_put_loc(p, 16, dst);
    rpb_st64(p, 32, (uint64_t)n);
    rpb_st64(p, 40, first);
    rpb_st64(p, 48, incr);
}

static RPB_INLINE void rpb_put_tlb_inval(uint8_t *p, uint32_t seq, rpb_loc root, uint64_t va0, uint64_t va1)
{
    rpb_put_header(p, RPB_OP_TLB_INVAL, 0, RPB_TLB_INVAL_BYTES, seq);
    rpb_put_loc(p, 16, root);
    rpb_st64(p, 32, va0);
    rpb_st64(p, 40, va1);
}

static RPB_INLINE void rpb_put_barrier(uint8_t *p, uint32_t seq)
{
    rpb_put_header(p, RPB_OP_BARRIER, 0, RPB_BARRIER_BYTES, seq);
}

static RPB_INLINE void rpb_put_fence64(uint8_t *p, uint32_t seq, rpb_loc dst, uint64_t value)
{
    rpb_put_header(p, RPB_OP_FENCE64, 0, RPB_FENCE64_BYTES, seq);
    rpb_put_loc(p, 16, dst);
    rpb_st64(p, 32, value);
}

static RPB_INLINE void rpb_put_note(uint8_t *p, uint32_t seq, uint32_t ddi_op, uint32_t flags, uint64_t handle,
                                uint64_t a, uint64_t b)
{
    rpb_put_header(p, RPB_OP_NOTE, 0, RPB_NOTE_BYTES, seq);
    rpb_st64(p, 16, (uint64_t)ddi_op | ((uint64_t)flags << 32));
    rpb_st64(p, 24, handle);
    rpb_st64(p, 32, a);
    rpb_st64(p, 40, b);
}

static RPB_INLINE void rpb_put_touch(uint8_t *p, uint32_t seq, rpb_loc loc, uint32_t bytes, uint32_t write)
{
    RPB_ASSERT(bytes >= 1 && bytes <= 8);
    rpb_put_header(p, RPB_OP_TOUCH, write ? RPB_TOUCH_WRITE : 0u, RPB_TOUCH_BYTES, seq);
    rpb_put_loc(p, 16, loc);
    rpb_st64(p, 32, (uint64_t)bytes);
}


/* Reference GPU PTE (8 bytes), also used for aperture tables:
 *   bits 0-10  DXGK_PTE flag bits 0-10 (Valid, Zero, CacheCoherent, ReadOnly,
 *              NoExecute, Segment[5], LargePage), copied as-is
 *   bit 11     LEAF64K: this level-1 entry points at a 64 KiB-page table
 *   bits 12-55 page number (44 bits)
 *   bits 56-57 PageTablePageSize, bits 58-63 PhysicalAdapterIndex */
#define RPB_PTE_VALID 0x1ull
#define RPB_PTE_CACHE_COHERENT 0x4ull
#define RPB_PTE_LOW_FLAGS_MASK 0x7FFull
#define RPB_PTE_SEGMENT_SHIFT 5u
#define RPB_PTE_SEGMENT_MASK 0x1Full
#define RPB_PTE_LEAF64K 0x800ull
#define RPB_PTE_PAGE_SHIFT 12u
#define RPB_PTE_PAGE_MASK 0xFFFFFFFFFFFull
#define RPB_PTE_PTSIZE_SHIFT 56u
#define RPB_PTE_ADAPTER_SHIFT 58u

static RPB_INLINE uint64_t rpb_pte_pack(uint64_t low_flags, uint64_t page, uint64_t leaf64k, uint64_t pt_size,
                                    uint64_t adapter)
{
    return (low_flags & RPB_PTE_LOW_FLAGS_MASK) | (leaf64k ? RPB_PTE_LEAF64K : 0u) |
           ((page & RPB_PTE_PAGE_MASK) << RPB_PTE_PAGE_SHIFT) | ((pt_size & 3u) << RPB_PTE_PTSIZE_SHIFT) |
           ((adapter & 0x3Fu) << RPB_PTE_ADAPTER_SHIFT);
}

static RPB_INLINE uint64_t rpb_pte_page(uint64_t pte)
{
    return (pte >> RPB_PTE_PAGE_SHIFT) & RPB_PTE_PAGE_MASK;
}

static RPB_INLINE uint32_t rpb_pte_segment(uint64_t pte)
{
    return (uint32_t)((pte >> RPB_PTE_SEGMENT_SHIFT) & RPB_PTE_SEGMENT_MASK);
}

/* Reference tiling: a byte-wise bijection, so a transfer split at any byte
 * boundary swizzles identically; Swizzle and Unswizzle are inverses. */
static RPB_INLINE uint8_t rpb_swizzle_byte(uint8_t b)
{
    return (uint8_t)((((unsigned)b << 1) | ((unsigned)b >> 7)) ^ 0xA5u);
}

static RPB_INLINE uint8_t rpb_unswizzle_byte(uint8_t b)
{
    unsigned x = (unsigned)(b ^ 0xA5u);
    return (uint8_t)((x >> 1) | ((x & 1u) << 7));
}

#endif /* RPB1_H */
