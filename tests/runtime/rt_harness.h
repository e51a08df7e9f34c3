/* Test harness for the paging runtime: a simulated adapter (engine + reference
 * backend + simulator + oracle) driven the way VidMm drives DxgkDdiBuildPagingBuffer. */
#ifndef RT_HARNESS_H
#define RT_HARNESS_H

#include "ddi_paging.h"
#include "pboracle.h"
#include "pbsim.h"
#include "rpb_backend.h"

/* Machine layout (small, so that 100k cases run in seconds). */
#define RT_SEG_TABLES 1u        /* memory: page tables in pages 0-4, data in 5-15 */
#define RT_SEG_DATA 2u          /* memory */
#define RT_SEG_APERTURE 3u      /* aperture of 16 pages */
#define RT_SEG1_BYTES (64u * 1024u)
#define RT_SEG2_BYTES (32u * 1024u)
#define RT_APERTURE_PAGES 16u
#define RT_SYS_PFN_BASE 0x100u
#define RT_SYS_PAGES 32u
#define RT_SEG_BASE(n) ((uint64_t)(n) << 32)

/* Paging-process VA: data pages 0..31 mapped injectively onto the targets below;
 * page tables aliased at 64 KiB-aligned VAs for GPU_VIRTUAL updates. */
#define RT_VA_DATA_PAGES 32u
#define RT_VA_ROOT 0x40000u
#define RT_VA_LEAF 0x41000u
#define RT_VA_LEAF64 0x42000u
#define RT_VA_SCRATCH_SRC 0x50000u
#define RT_VA_SCRATCH_DST 0x60000u
#define RT_LEAF_OFFSET 0x1000u  /* seg1 offset of the leaf table */
#define RT_TARGETS (11u + 8u + RT_SYS_PAGES)

#define RT_MAX_BUFFER 8192u
#define RT_CANARY_TAIL 256u
#define RT_CANARY 0xEEu
#define RT_ARENA_BYTES (64u * 1024u)

typedef struct rt_rng {
    uint64_t s;
    const uint8_t *data; /* when set (fuzzing), values come from these bytes */
    size_t len, pos;
} rt_rng;

uint64_t rt_next(rt_rng *r);
uint64_t rt_below(rt_rng *r, uint64_t n); /* uniform-ish in [0, n), n > 0 */

typedef struct rt_world rt_world;

struct rt_world {
    pbsim_machine sim;
    pbsim_machine oracle;
    pbsim_machine before;            /* memory before a call that must be refused */
    pboracle_env oenv;
    rpb_backend_ctx rctx;
    pb_config cfg;
    pb_engine engine;
    int use_cpu_alias;               /* backend maps CPU-visible tables to GPU locations */
    /* VidMm model */
    uint8_t *buf_raw, *buf;
    uint32_t buf_size, used;
    /* results */
    char failure[512];
    char last_rule[160];
    uint32_t rules_invalid, rules_warning;
    uint64_t calls, insufficient, busy, bytes_emitted;
    /* generator state */
    uint16_t va_target[RT_VA_DATA_PAGES]; /* index into the target list */
    uint8_t target_used[RT_TARGETS];
    uint64_t aperture_pfn[RT_APERTURE_PAGES];
    int pending_flush;               /* the last operation updated page tables */
    uint32_t pending_s, pending_n;
    /* Test hook, run inside the engine's rule report (so during the call):
     * planted faults prove the harness catches writes outside the tail. */
    void (*fault)(rt_world *w);
    /* How a call reaches the engine (set after rt_world_init); NULL: directly,
     * pb_build_paging_buffer. The skeleton test goes through its DDI table. */
    NTSTATUS (*call)(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a);
    /* argument storage for one operation */
    _Alignas(16) uint8_t arena[RT_ARENA_BYTES];
    size_t arena_used;
    /* snapshots taken around each call (not cleared by reset) */
    uint8_t buf_before[RT_MAX_BUFFER + RT_CANARY_TAIL];
    uint8_t arena_before[RT_ARENA_BYTES];
};

/* Creates the world with deterministic memory from seed; paging buffers of buffer_size. */
int rt_world_init(rt_world *w, uint64_t seed, uint32_t buffer_size);
/* Same world, new contents and generator state (cheaper than init). */
int rt_world_reset(rt_world *w, uint64_t seed, uint32_t buffer_size);
void rt_world_free(rt_world *w);
/* Changes the paging buffer size (submits what is pending first). */
int rt_set_buffer_size(rt_world *w, uint32_t size);

/* Runs one operation through engine and oracle. Every call must leave the DMA
 * buffer outside its unused tail [cursor, cursor + DmaSize) as it was (what
 * earlier calls wrote, and everything past DmaSize); scratch bytes in the tail
 * beyond the returned cursor are allowed. expect_invalid: the arguments break a
 * rule and the call must be refused: cursor and MultipassOffset unchanged, a
 * rule reported, and no memory outside the tail changed (simulated memory,
 * CPU-visible page tables, the argument arrays). Returns 0 or -1 with
 * w->failure set. */
int rt_op(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, int expect_invalid);
/* Submits the pending buffer and compares simulator and oracle byte for byte. */
int rt_check(rt_world *w);

/* Argument storage. */
void *rt_alloc(rt_world *w, size_t bytes);
MDL *rt_mdl(rt_world *w, const PFN_NUMBER *pfns, uint32_t n);
uint8_t *rt_seg_host(rt_world *w, pbsim_machine *m, uint32_t seg, uint64_t offset);

/* Random operation generator shared by the property test and the fuzzer.
 * Returns the operation's arguments in *a and whether they are meant to be invalid. */
void rt_gen_op(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a, int *expect_invalid);

#endif /* RT_HARNESS_H */
