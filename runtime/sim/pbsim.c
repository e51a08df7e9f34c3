/* Host-only simulator of the reference GPU: strict RPB1 decode, then execution
 * against a memory model whose TLB serves stale translations until TLB_INVAL. */
#include "pbsim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(pbsim_machine *m, const char *fmt, ...)
{
    va_list ap;
    if (m->error[0] == 0) { /* keep the first error: later ones are consequences */
        va_start(ap, fmt);
        vsnprintf(m->error, sizeof m->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int region_alloc(pbsim_region *r, uint64_t size)
{
    r->size = size;
    r->raw = malloc((size_t)size + 2u * PBSIM_CANARY_BYTES);
    if (!r->raw)
        return -1;
    r->bytes = r->raw + PBSIM_CANARY_BYTES;
    memset(r->raw, PBSIM_CANARY, PBSIM_CANARY_BYTES);
    memset(r->bytes + size, PBSIM_CANARY, PBSIM_CANARY_BYTES);
    return 0;
}

static void region_free(pbsim_region *r)
{
    free(r->raw);
    memset(r, 0, sizeof *r);
}

int pbsim_init(pbsim_machine *m, const pbsim_layout *layout)
{
    uint32_t s;
    memset(m, 0, sizeof *m);
    m->layout = *layout;
    if (layout->segment_count > PBSIM_MAX_SEGMENTS)
        return -1;
    for (s = 1; s <= layout->segment_count; s++) {
        const pbsim_segment_desc *d = &layout->segments[s];
        int rc = d->aperture ? region_alloc(&m->table[s], (d->size / PBSIM_PAGE) * 8u)
                             : region_alloc(&m->seg[s], d->size);
        if (rc) {
            pbsim_free(m);
            return -1;
        }
    }
    if (region_alloc(&m->sys, (uint64_t)layout->sys_pages * PBSIM_PAGE)) {
        pbsim_free(m);
        return -1;
    }
    return 0;
}

void pbsim_free(pbsim_machine *m)
{
    uint32_t s;
    for (s = 0; s <= PBSIM_MAX_SEGMENTS; s++) {
        region_free(&m->seg[s]);
        region_free(&m->table[s]);
    }
    region_free(&m->sys);
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void region_randomize(pbsim_region *r, uint64_t *state)
{
    uint64_t i;
    for (i = 0; i + 8 <= r->size; i += 8) {
        uint64_t v = splitmix(state);
        memcpy(r->bytes + i, &v, 8);
    }
}

static void clear_dynamic(pbsim_machine *m)
{
    m->tlb_count = m->tlb_next = 0;
    m->writes_since_barrier = 0;
    m->note_count = m->touch_count = 0;
    memset(m->packets_by_op, 0, sizeof m->packets_by_op);
    m->error[0] = 0;
}

void pbsim_randomize(pbsim_machine *m, uint64_t seed)
{
    uint32_t s;
    uint64_t st = seed;
    for (s = 1; s <= m->layout.segment_count; s++) {
        if (m->seg[s].bytes)
            region_randomize(&m->seg[s], &st);
        if (m->table[s].bytes)
            memset(m->table[s].bytes, 0, (size_t)m->table[s].size); /* unmapped aperture */
    }
    region_randomize(&m->sys, &st);
    clear_dynamic(m);
}

void pbsim_copy_memory(pbsim_machine *dst, const pbsim_machine *src)
{
    uint32_t s;
    for (s = 1; s <= src->layout.segment_count; s++) {
        if (src->seg[s].bytes)
            memcpy(dst->seg[s].bytes, src->seg[s].bytes, (size_t)src->seg[s].size);
        if (src->table[s].bytes)
            memcpy(dst->table[s].bytes, src->table[s].bytes, (size_t)src->table[s].size);
    }
    memcpy(dst->sys.bytes, src->sys.bytes, (size_t)src->sys.size);
    clear_dynamic(dst);
    memcpy(dst->notes, src->notes, sizeof src->notes);
    dst->note_count = src->note_count;
    memcpy(dst->touches, src->touches, sizeof src->touches);
    dst->touch_count = src->touch_count;
}

void pbsim_tlb_flush_all(pbsim_machine *m)
{
    m->tlb_count = m->tlb_next = 0;
}

/* ---- physical spaces: system pool, memory segments, aperture tables ---- */

static uint8_t *phys_ptr(pbsim_machine *m, uint16_t space, uint64_t addr, uint64_t bytes)
{
    pbsim_region *r = NULL;
    uint64_t off = addr;
    if (space == RPB_SPACE_SYSTEM) {
        uint64_t base = m->layout.sys_pfn_base * PBSIM_PAGE;
        if (addr < base)
            return NULL;
        r = &m->sys;
        off = addr - base;
    } else if (space >= RPB_SPACE_SEGMENT_MIN && space <= m->layout.segment_count) {
        r = &m->seg[space];
    } else if (space > RPB_SPACE_APERTURE_TABLE && space <= RPB_SPACE_APERTURE_TABLE + m->layout.segment_count) {
        r = &m->table[space - RPB_SPACE_APERTURE_TABLE];
    }
    if (!r || !r->bytes || off > r->size || bytes > r->size - off)
        return NULL;
    return r->bytes + off;
}

uint8_t *pbsim_host_ptr(pbsim_machine *m, rpb_loc loc, uint64_t bytes)
{
    return phys_ptr(m, loc.space, loc.addr, bytes);
}

static int read_pte(pbsim_machine *m, uint16_t space, uint64_t addr, uint64_t *pte)
{
    uint8_t *p = phys_ptr(m, space, addr, 8);
    if (!p || (addr & 7u))
        return -1;
    memcpy(pte, p, 8);
    return 0;
}

/* Where a valid PTE points: segment 0 means a system PFN. */
static void pte_target(uint64_t pte, uint16_t *space, uint64_t *addr)
{
    uint32_t seg = rpb_pte_segment(pte);
    *space = (uint16_t)seg;
    *addr = rpb_pte_page(pte) * PBSIM_PAGE;
}

int pbsim_translate_va(pbsim_machine *m, uint64_t va, rpb_loc *pa)
{
    uint64_t pde, pte, taddr, paddr;
    uint16_t tspace, pspace;
    uint64_t l1 = va >> 21;
    if (l1 >= PBSIM_ROOT_ENTRIES)
        return -1;
    if (read_pte(m, m->layout.root_space, m->layout.root_addr + l1 * 8u, &pde) || !(pde & RPB_PTE_VALID))
        return -1;
    pte_target(pde, &tspace, &taddr);
    if (m->layout.dual_pte || (pde & RPB_PTE_LEAF64K)) {
        uint64_t t64 = (pde & RPB_PTE_LEAF64K) ? taddr : taddr + PBSIM_PAGE;
        if (read_pte(m, tspace, t64 + ((va >> 16) & 31u) * 8u, &pte))
            return -1;
        if (pte & RPB_PTE_VALID) { /* 64 KiB pages share the low 16 bits of VA and PA */
            pte_target(pte, &pspace, &paddr);
            *pa = rpb_loc_make(pspace, (paddr & ~0xFFFFull) + (va & 0xF000u));
            return 0;
        }
        if (pde & RPB_PTE_LEAF64K)
            return -1;
    }
    if (read_pte(m, tspace, taddr + ((va >> 12) & 511u) * 8u, &pte) || !(pte & RPB_PTE_VALID))
        return -1;
    pte_target(pte, &pspace, &paddr);
    *pa = rpb_loc_make(pspace, paddr);
    return 0;
}

int pbsim_translate_aperture(pbsim_machine *m, uint32_t segment, uint64_t offset, rpb_loc *pa)
{
    uint64_t pte;
    if (read_pte(m, (uint16_t)(RPB_SPACE_APERTURE_TABLE + segment), (offset / PBSIM_PAGE) * 8u, &pte) ||
        !(pte & RPB_PTE_VALID))
        return -1;
    *pa = rpb_loc_make(RPB_SPACE_SYSTEM, rpb_pte_page(pte) * PBSIM_PAGE);
    return 0;
}

/* ---- TLB: translations stay cached (possibly stale) until invalidated ---- */

static pbsim_tlb_entry *tlb_find(pbsim_machine *m, uint16_t key, uint64_t vpage)
{
    uint32_t i;
    for (i = 0; i < m->tlb_count; i++)
        if (m->tlb[i].key_space == key && m->tlb[i].vpage == vpage)
            return &m->tlb[i];
    return NULL;
}

static int tlb_translate(pbsim_machine *m, uint16_t key, uint64_t vaddr, rpb_loc *pa)
{
    uint64_t vpage = vaddr / PBSIM_PAGE;
    pbsim_tlb_entry *e = tlb_find(m, key, vpage);
    rpb_loc page;
    if (!e) {
        int rc = key == RPB_SPACE_PAGING_VA
                     ? pbsim_translate_va(m, vpage * PBSIM_PAGE, &page)
                     : pbsim_translate_aperture(m, key - RPB_SPACE_APERTURE_TABLE, vpage * PBSIM_PAGE, &page);
        if (rc)
            return fail(m, "translation fault: space 0x%x address 0x%llx", key, (unsigned long long)vaddr);
        if (m->tlb_count < PBSIM_TLB_ENTRIES)
            e = &m->tlb[m->tlb_count++];
        else
            e = &m->tlb[m->tlb_next++ % PBSIM_TLB_ENTRIES];
        e->key_space = key;
        e->vpage = vpage;
        e->dst_space = page.space;
        e->dst_addr = page.addr;
    }
    *pa = rpb_loc_make(e->dst_space, e->dst_addr + (vaddr % PBSIM_PAGE));
    return 0;
}

static void tlb_invalidate(pbsim_machine *m, uint16_t key, uint64_t va0, uint64_t va1)
{
    uint32_t i = 0;
    int all = va0 == 0 && va1 == 0;
    while (i < m->tlb_count) {
        pbsim_tlb_entry *e = &m->tlb[i];
        if (e->key_space == key && (all || (e->vpage >= va0 / PBSIM_PAGE && e->vpage <= va1 / PBSIM_PAGE))) {
            *e = m->tlb[--m->tlb_count];
            continue;
        }
        i++;
    }
    m->tlb_next = 0;
}

/* A contiguous host span of at most want bytes for loc+offset (translated spaces stop at page ends). */
static uint8_t *span(pbsim_machine *m, rpb_loc loc, uint64_t offset, uint64_t want, uint64_t *got)
{
    uint64_t addr = loc.addr + offset;
    uint16_t key = 0;
    rpb_loc pa;
    uint8_t *p;
    if (loc.space == RPB_SPACE_PAGING_VA)
        key = RPB_SPACE_PAGING_VA;
    else if (loc.space >= RPB_SPACE_SEGMENT_MIN && loc.space <= m->layout.segment_count &&
             m->layout.segments[loc.space].aperture) {
        if (addr >= m->layout.segments[loc.space].size) {
            fail(m, "aperture %u access beyond segment at 0x%llx", loc.space, (unsigned long long)addr);
            return NULL;
        }
        key = (uint16_t)(RPB_SPACE_APERTURE_TABLE + loc.space);
    }
    if (key) {
        uint64_t room = PBSIM_PAGE - (addr % PBSIM_PAGE);
        *got = want < room ? want : room;
        if (tlb_translate(m, key, addr, &pa))
            return NULL;
    } else {
        *got = want;
        pa = rpb_loc_make(loc.space, addr);
    }
    p = phys_ptr(m, pa.space, pa.addr, *got);
    if (!p)
        fail(m, "access out of bounds: space 0x%x address 0x%llx + %llu", pa.space, (unsigned long long)pa.addr,
             (unsigned long long)*got);
    return p;
}

/* ---- strict decode ---- */

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

typedef struct pkt {
    uint32_t opcode, flags, size, seq;
    const uint8_t *p;
} pkt;

static const uint32_t k_fixed_size[RPB_OP_COUNT_] = {
    0, 0, RPB_COPY_BYTES, RPB_FILL32_BYTES, 0, RPB_PTEGEN_BYTES, RPB_TLB_INVAL_BYTES,
    RPB_BARRIER_BYTES, RPB_FENCE64_BYTES, RPB_NOTE_BYTES, RPB_TOUCH_BYTES};

static int loc_ok(const uint8_t *p, rpb_loc *l)
{
    uint64_t w = ld64(p);
    l->space = (uint16_t)w;
    l->addr = ld64(p + 8);
    return (w >> 16) == 0; /* reserved half of the location must be zero */
}

static int check_body(const pkt *k, char *err, size_t errlen)
{
    rpb_loc l;
    const uint8_t *p = k->p;
    switch (k->opcode) {
    case RPB_OP_PAD: {
        uint32_t off;
        for (off = 8; off < k->size; off += 8)
            if (ld64(p + off)) {
                snprintf(err, errlen, "PAD with nonzero body");
                return -1;
            }
        return 0;
    }
    case RPB_OP_COPY:
        if (k->flags > RPB_COPY_UNSWIZZLE || !loc_ok(p + 16, &l) || !loc_ok(p + 32, &l) || ld64(p + 48) == 0)
            break;
        return 0;
    case RPB_OP_FILL32:
        if (k->flags || !loc_ok(p + 16, &l) || (ld64(p + 40) >> 32))
            break;
        return 0;
    case RPB_OP_WRITE64:
        if (k->flags || !loc_ok(p + 16, &l) || ld64(p + 32) == 0 ||
            ld64(p + 32) != (k->size - RPB_WRITE64_BASE) / 8u)
            break;
        return 0;
    case RPB_OP_PTEGEN:
        if (k->flags || !loc_ok(p + 16, &l) || ld64(p + 32) == 0 || (ld64(p + 32) >> 32))
            break;
        return 0;
    case RPB_OP_TLB_INVAL:
        if (k->flags || !loc_ok(p + 16, &l))
            break;
        return 0;
    case RPB_OP_BARRIER:
        if (k->flags)
            break;
        return 0;
    case RPB_OP_FENCE64:
        if (k->flags || !loc_ok(p + 16, &l))
            break;
        return 0;
    case RPB_OP_NOTE:
        if (k->flags)
            break;
        return 0;
    case RPB_OP_TOUCH:
        if (k->flags > RPB_TOUCH_WRITE || !loc_ok(p + 16, &l) || ld64(p + 32) < 1 || ld64(p + 32) > 8)
            break;
        return 0;
    default:
        break;
    }
    snprintf(err, errlen, "packet seq %u opcode %u: malformed fields", k->seq, k->opcode);
    return -1;
}

/* Decodes the next packet at p (len bytes left); *expect_seq tracks non-PAD packets. */
static int decode_one(const uint8_t *p, size_t len, uint32_t *expect_seq, pkt *k, char *err, size_t errlen)
{
    uint64_t w0;
    if (len < 8) {
        snprintf(err, errlen, "truncated packet header (%zu bytes left)", len);
        return -1;
    }
    w0 = ld64(p);
    k->p = p;
    k->opcode = (uint32_t)(w0 & 0xFFFFu);
    k->flags = (uint32_t)((w0 >> 16) & 0xFFFFu);
    k->size = (uint32_t)(w0 >> 32);
    k->seq = 0;
    if (k->opcode == RPB_OP_INVALID || k->opcode >= RPB_OP_COUNT_) {
        snprintf(err, errlen, "invalid opcode %u", k->opcode);
        return -1;
    }
    if (k->size < 8 || (k->size & 7u) || k->size > len) {
        snprintf(err, errlen, "opcode %u: bad size %u (%zu left)", k->opcode, k->size, len);
        return -1;
    }
    if (k->opcode == RPB_OP_PAD) {
        if (k->flags || (k->size >= 16 && ld64(p + 8))) {
            snprintf(err, errlen, "PAD with flags or seq");
            return -1;
        }
        return check_body(k, err, errlen);
    }
    if (k->size < RPB_HDR_BYTES) {
        snprintf(err, errlen, "opcode %u: size %u below header", k->opcode, k->size);
        return -1;
    }
    k->seq = (uint32_t)ld64(p + 8);
    if ((ld64(p + 8) >> 32) != 0 || k->seq != *expect_seq) {
        snprintf(err, errlen, "opcode %u: seq %u, expected %u (or reserved nonzero)", k->opcode, k->seq,
                 *expect_seq);
        return -1;
    }
    if (k_fixed_size[k->opcode] ? k->size != k_fixed_size[k->opcode] : k->size < RPB_WRITE64_BASE + 8u) {
        snprintf(err, errlen, "opcode %u: size %u is not the packet size", k->opcode, k->size);
        return -1;
    }
    (*expect_seq)++;
    return check_body(k, err, errlen);
}

int pbsim_decode(const uint8_t *buf, size_t len, uint64_t counts[RPB_OP_COUNT_], char *err, size_t errlen)
{
    size_t off = 0;
    uint32_t seq = 0;
    pkt k;
    if (((uintptr_t)buf & 7u) || (len & 7u)) {
        snprintf(err, errlen, "buffer not 8-byte aligned or sized (%zu)", len);
        return -1;
    }
    while (off < len) {
        if (decode_one(buf + off, len - off, &seq, &k, err, errlen))
            return -1;
        if (counts)
            counts[k.opcode]++;
        off += k.size;
    }
    return 0;
}

/* ---- execution ---- */

static int exec_copy(pbsim_machine *m, const pkt *k)
{
    rpb_loc dst, src;
    uint64_t bytes = ld64(k->p + 48), done = 0;
    loc_ok(k->p + 16, &dst);
    loc_ok(k->p + 32, &src);
    while (done < bytes) {
        uint64_t gd, gs, i, n;
        uint8_t *d = span(m, dst, done, bytes - done, &gd);
        uint8_t *s = d ? span(m, src, done, gd, &gs) : NULL;
        if (!s)
            return -1;
        n = gs;
        if (d < s + n && s < d + n)
            return fail(m, "COPY seq %u: source and destination overlap", k->seq);
        if (k->flags == RPB_COPY_PLAIN)
            memcpy(d, s, (size_t)n);
        else if (k->flags == RPB_COPY_SWIZZLE)
            for (i = 0; i < n; i++)
                d[i] = rpb_swizzle_byte(s[i]);
        else
            for (i = 0; i < n; i++)
                d[i] = rpb_unswizzle_byte(s[i]);
        done += n;
    }
    return 0;
}

static int exec_fill(pbsim_machine *m, const pkt *k)
{
    rpb_loc dst;
    uint64_t bytes = ld64(k->p + 32), done = 0, i;
    uint32_t pattern = (uint32_t)ld64(k->p + 40);
    loc_ok(k->p + 16, &dst);
    while (done < bytes) {
        uint64_t got;
        uint8_t *d = span(m, dst, done, bytes - done, &got);
        if (!d)
            return -1;
        for (i = 0; i < got; i++) /* byte k of the packet takes pattern byte k mod 4 */
            d[i] = (uint8_t)(pattern >> (8u * ((done + i) & 3u)));
        done += got;
    }
    return 0;
}

static int store64(pbsim_machine *m, rpb_loc dst, uint64_t index, uint64_t v)
{
    uint64_t got;
    uint8_t *d;
    if ((dst.addr & 7u) != 0)
        return fail(m, "unaligned 64-bit store at 0x%llx", (unsigned long long)dst.addr);
    d = span(m, dst, index * 8u, 8, &got);
    if (!d)
        return -1;
    memcpy(d, &v, 8);
    return 0;
}

static int exec_write64(pbsim_machine *m, const pkt *k)
{
    rpb_loc dst;
    uint64_t n = ld64(k->p + 32), i;
    loc_ok(k->p + 16, &dst);
    for (i = 0; i < n; i++)
        if (store64(m, dst, i, ld64(k->p + RPB_WRITE64_BASE + 8u * i)))
            return -1;
    return 0;
}

static int exec_ptegen(pbsim_machine *m, const pkt *k)
{
    rpb_loc dst;
    uint64_t n = ld64(k->p + 32), v = ld64(k->p + 40), incr = ld64(k->p + 48), i;
    loc_ok(k->p + 16, &dst);
    for (i = 0; i < n; i++, v += incr)
        if (store64(m, dst, i, v))
            return -1;
    return 0;
}

static int exec_tlb_inval(pbsim_machine *m, const pkt *k)
{
    rpb_loc root;
    loc_ok(k->p + 16, &root);
    if (m->writes_since_barrier)
        return fail(m, "TLB_INVAL seq %u with %u writes not behind a BARRIER", k->seq, m->writes_since_barrier);
    if (root.space > RPB_SPACE_APERTURE_TABLE && root.space <= RPB_SPACE_APERTURE_TABLE + m->layout.segment_count)
        tlb_invalidate(m, root.space, ld64(k->p + 32), ld64(k->p + 40));
    else if (root.space == m->layout.root_space && root.addr == m->layout.root_addr)
        tlb_invalidate(m, RPB_SPACE_PAGING_VA, ld64(k->p + 32), ld64(k->p + 40));
    /* Any other root names a page table this machine does not walk: nothing cached. */
    return 0;
}

static int exec_note(pbsim_machine *m, const pkt *k)
{
    pbsim_note *n;
    if (m->note_count >= PBSIM_MAX_NOTES)
        return fail(m, "NOTE log full");
    n = &m->notes[m->note_count++];
    n->ddi_op = (uint32_t)ld64(k->p + 16);
    n->flags = (uint32_t)(ld64(k->p + 16) >> 32);
    n->handle = ld64(k->p + 24);
    n->a = ld64(k->p + 32);
    n->b = ld64(k->p + 40);
    return 0;
}

static int exec_touch(pbsim_machine *m, const pkt *k)
{
    pbsim_touch *t;
    uint64_t got;
    rpb_loc loc;
    loc_ok(k->p + 16, &loc);
    if (!span(m, loc, 0, ld64(k->p + 32), &got) || got != ld64(k->p + 32))
        return fail(m, "TOUCH seq %u: bad or page-crossing access", k->seq);
    if (m->touch_count >= PBSIM_MAX_NOTES)
        return fail(m, "TOUCH log full");
    t = &m->touches[m->touch_count++];
    t->loc = loc;
    t->bytes = (uint32_t)got;
    t->write = k->flags & RPB_TOUCH_WRITE;
    return 0;
}

static int exec_one(pbsim_machine *m, const pkt *k)
{
    rpb_loc dst;
    m->packets_by_op[k->opcode]++;
    switch (k->opcode) {
    case RPB_OP_PAD:
        return 0;
    case RPB_OP_COPY:
        m->writes_since_barrier++;
        return exec_copy(m, k);
    case RPB_OP_FILL32:
        m->writes_since_barrier++;
        return exec_fill(m, k);
    case RPB_OP_WRITE64:
        m->writes_since_barrier++;
        return exec_write64(m, k);
    case RPB_OP_PTEGEN:
        m->writes_since_barrier++;
        return exec_ptegen(m, k);
    case RPB_OP_TLB_INVAL:
        return exec_tlb_inval(m, k);
    case RPB_OP_BARRIER:
        m->writes_since_barrier = 0;
        return 0;
    case RPB_OP_FENCE64:
        loc_ok(k->p + 16, &dst);
        m->writes_since_barrier++;
        return store64(m, dst, 0, ld64(k->p + 32));
    case RPB_OP_NOTE:
        return exec_note(m, k);
    case RPB_OP_TOUCH:
        return exec_touch(m, k);
    default:
        return fail(m, "unreachable opcode %u", k->opcode);
    }
}

int pbsim_execute(pbsim_machine *m, const uint8_t *buf, size_t len)
{
    size_t off = 0;
    uint32_t seq = 0;
    pkt k;
    char err[160];
    if (pbsim_decode(buf, len, NULL, err, sizeof err))
        return fail(m, "decode: %s", err);
    while (off < len) {
        decode_one(buf + off, len - off, &seq, &k, err, sizeof err);
        if (exec_one(m, &k))
            return -1;
        off += k.size;
    }
    return 0;
}

/* ---- CPU side ---- */

static int region_contains(const pbsim_region *r, const uint8_t *p, uint64_t bytes, uint64_t *off)
{
    if (!r->bytes || p < r->bytes || p > r->bytes + r->size || bytes > (uint64_t)(r->bytes + r->size - p))
        return 0;
    *off = (uint64_t)(p - r->bytes);
    return 1;
}

int pbsim_cpu_va_to_loc(pbsim_machine *m, const void *cpu_va, uint64_t bytes, rpb_loc *out)
{
    uint32_t s;
    uint64_t off;
    const uint8_t *p = cpu_va;
    for (s = 1; s <= m->layout.segment_count; s++)
        if (region_contains(&m->seg[s], p, bytes, &off)) {
            *out = rpb_loc_make((uint16_t)s, off);
            return 0;
        }
    if (region_contains(&m->sys, p, bytes, &off)) {
        *out = rpb_loc_make(RPB_SPACE_SYSTEM, m->layout.sys_pfn_base * PBSIM_PAGE + off);
        return 0;
    }
    return -1;
}

int pbsim_cpu_write64(pbsim_machine *m, void *cpu_va, const uint64_t *v, uint32_t n)
{
    rpb_loc l;
    if (((uintptr_t)cpu_va & 7u) || pbsim_cpu_va_to_loc(m, cpu_va, (uint64_t)n * 8u, &l))
        return fail(m, "CPU write of %u qwords outside simulated memory", n);
    memcpy(cpu_va, v, (size_t)n * 8u);
    return 0;
}

/* ---- comparison ---- */

static int region_diff(const pbsim_region *a, const pbsim_region *b, const char *name, uint32_t idx, char *why,
                       size_t whylen)
{
    uint64_t i;
    if (!a->bytes || memcmp(a->bytes, b->bytes, (size_t)a->size) == 0)
        return 0;
    for (i = 0; i < a->size && a->bytes[i] == b->bytes[i]; i++)
        ;
    snprintf(why, whylen, "%s %u differs at byte 0x%llx: 0x%02x vs 0x%02x", name, idx, (unsigned long long)i,
             a->bytes[i], b->bytes[i]);
    return 1;
}

int pbsim_equal(const pbsim_machine *a, const pbsim_machine *b, char *why, size_t whylen)
{
    uint32_t s, i;
    for (s = 1; s <= a->layout.segment_count; s++)
        if (region_diff(&a->seg[s], &b->seg[s], "segment", s, why, whylen) ||
            region_diff(&a->table[s], &b->table[s], "aperture table", s, why, whylen))
            return 0;
    if (region_diff(&a->sys, &b->sys, "system pool", 0, why, whylen))
        return 0;
    if (a->note_count != b->note_count) {
        snprintf(why, whylen, "note count %u vs %u", a->note_count, b->note_count);
        return 0;
    }
    for (i = 0; i < a->note_count; i++)
        if (memcmp(&a->notes[i], &b->notes[i], sizeof a->notes[i])) {
            snprintf(why, whylen, "note %u differs (op %u vs %u)", i, a->notes[i].ddi_op, b->notes[i].ddi_op);
            return 0;
        }
    if (a->touch_count != b->touch_count) {
        snprintf(why, whylen, "touch count %u vs %u", a->touch_count, b->touch_count);
        return 0;
    }
    for (i = 0; i < a->touch_count; i++)
        if (a->touches[i].loc.space != b->touches[i].loc.space || a->touches[i].loc.addr != b->touches[i].loc.addr ||
            a->touches[i].bytes != b->touches[i].bytes || a->touches[i].write != b->touches[i].write) {
            snprintf(why, whylen, "touch %u differs", i);
            return 0;
        }
    return 1;
}

static int canary_ok(const pbsim_region *r)
{
    uint32_t i;
    if (!r->raw)
        return 1;
    for (i = 0; i < PBSIM_CANARY_BYTES; i++)
        if (r->raw[i] != PBSIM_CANARY || r->bytes[r->size + i] != PBSIM_CANARY)
            return 0;
    return 1;
}

int pbsim_canaries_ok(const pbsim_machine *m, char *why, size_t whylen)
{
    uint32_t s;
    for (s = 1; s <= m->layout.segment_count; s++)
        if (!canary_ok(&m->seg[s]) || !canary_ok(&m->table[s])) {
            snprintf(why, whylen, "canary around segment %u overwritten", s);
            return 0;
        }
    if (!canary_ok(&m->sys)) {
        snprintf(why, whylen, "canary around system pool overwritten");
        return 0;
    }
    return 1;
}
