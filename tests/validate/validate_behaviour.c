/* Behaviour of the generated validators on the seed structures: for every
 * rule kind the generator says it checks (emit --stats), one structure that
 * passes and one that fails with exactly the expected rule ID; every case
 * is also run through the host evaluator (gen/rules) over the same bytes,
 * which must agree. The expectations are written from the fixture pages
 * (tests/fixtures/docs-validate), not from the generator's output.
 *   validate_behaviour STATS.txt SPEC.xml VERSION */
#include <ntddk.h>
#include <dispmprt.h>

#include "ddi_validate.h"
#include "eval_glue.h"

#include <stdio.h>
#include <string.h>


struct outcome {
    unsigned long n;
    ddi_violation v;
};

static int failures, cases;
static const char *spec_path, *version;
static char failing_kinds[32][32];
static int nfailing;

static void note_kind(const char *kind)
{
    for (int i = 0; i < nfailing; i++)
        if (strcmp(failing_kinds[i], kind) == 0)
            return;
    if (nfailing < 32)
        snprintf(failing_kinds[nfailing++], sizeof failing_kinds[0], "%s", kind);
}

/* Runs a validator and the host evaluator over the same object. */
static void expect(const char *what, const char *kind, const char *record, const char *dir, unsigned long n,
                   const ddi_violation *v, unsigned long stop_n, const void *object, size_t size,
                   const char *expected_id)
{
    cases++;
    int ok = expected_id ? n >= 1 && stop_n == 1 && v->rule_id && strcmp(v->rule_id, expected_id) == 0 : n == 0;
    if (!ok) {
        failures++;
        printf("FAIL %s: expected %s, got %lu violation(s), first %s\n", what, expected_id ? expected_id : "none", n,
               n ? v->rule_id : "-");
        return;
    }
    char host_id[256];
    long host_n = eval_glue_run(spec_path, record, version, dir, object, size, host_id, sizeof host_id);
    if (host_n == -2) {
        printf("ok   %s (%s; host layout differs from x64: evaluator not compared)\n", what,
               expected_id ? expected_id : "passes");
    } else if (host_n != (long)n || (n && strcmp(host_id, v->rule_id) != 0)) {
        failures++;
        printf("FAIL %s: the host evaluator says %ld violation(s), first %s\n", what, host_n, host_n ? host_id : "-");
        return;
    } else {
        printf("ok   %s (%s; evaluator agrees)\n", what, expected_id ? expected_id : "passes");
    }
    if (expected_id && kind)
        note_kind(kind);
}

#define RUN(what, kind, record, dir, obj, id)                                                                   \
    do {                                                                                                       \
        ddi_violation v_ = {0}, s_ = {0};                                                                          \
        unsigned long n_ = ddi_validate_##record##_##dir(&(obj), &v_, 0);                                      \
        unsigned long stop_ = ddi_validate_##record##_##dir(&(obj), &s_, DDI_VALIDATE_STOP_AT_FIRST);          \
        expect(what, kind, #record, #dir, n_, &v_, stop_, &(obj), sizeof(obj), id);                            \
    } while (0)

static D3DDDI_MAPGPUVIRTUALADDRESS good_map(void)
{
    D3DDDI_MAPGPUVIRTUALADDRESS m;
    memset(&m, 0, sizeof m);
    m.BaseAddress = 0x200000;
    m.MinimumAddress = 0x100000;
    m.MaximumAddress = 0x800000;
    m.hAllocation = 7;
    m.SizeInPages = 16;
    return m;
}

static void map_gpuva(void)
{
    D3DDDI_MAPGPUVIRTUALADDRESS m = good_map();
    RUN("MAPGPUVA valid", NULL, D3DDDI_MAPGPUVIRTUALADDRESS, in, m, NULL);
    m.Reserved0 = 1;
    RUN("MAPGPUVA Reserved0 set", "reserved-zero", D3DDDI_MAPGPUVIRTUALADDRESS, in, m,
        "D3DDDI_MAPGPUVIRTUALADDRESS.Reserved0:reserved-zero");
    m = good_map();
    m.BaseAddress = 0x200800;
    RUN("MAPGPUVA BaseAddress off 4 KB", "align", D3DDDI_MAPGPUVIRTUALADDRESS, in, m,
        "D3DDDI_MAPGPUVIRTUALADDRESS.BaseAddress:align");
    m = good_map();
    m.MinimumAddress = 0x100800; /* "a CPU page boundary": 4 KB on every DDI target */
    RUN("MAPGPUVA MinimumAddress off a CPU page", "align", D3DDDI_MAPGPUVIRTUALADDRESS, in, m,
        "D3DDDI_MAPGPUVIRTUALADDRESS.MinimumAddress:align");
    m = good_map();
    m.SizeInPages = 0;
    RUN("MAPGPUVA SizeInPages zero", "nonzero", D3DDDI_MAPGPUVIRTUALADDRESS, in, m,
        "D3DDDI_MAPGPUVIRTUALADDRESS.SizeInPages:nonzero");
    m.SizeInPages = 1048576;
    RUN("MAPGPUVA SizeInPages at the limit", NULL, D3DDDI_MAPGPUVIRTUALADDRESS, in, m, NULL);
    m.SizeInPages = 1048577;
    RUN("MAPGPUVA SizeInPages over the limit", "range", D3DDDI_MAPGPUVIRTUALADDRESS, in, m,
        "D3DDDI_MAPGPUVIRTUALADDRESS.SizeInPages:range");
    m = good_map();
    m.Protection.NoAccess = 1;
    RUN("MAPGPUVA NoAccess with an allocation", "null-when", D3DDDI_MAPGPUVIRTUALADDRESS, in, m,
        "D3DDDI_MAPGPUVIRTUALADDRESS.hAllocation:null-when:NoAccess");
    m.hAllocation = 0;
    RUN("MAPGPUVA NoAccess without an allocation", NULL, D3DDDI_MAPGPUVIRTUALADDRESS, in, m, NULL);
    /* VirtualAddress is [out]: the _in validator does not look at it */
    m.VirtualAddress = 0x123;
    RUN("MAPGPUVA out fields ignored on entry", NULL, D3DDDI_MAPGPUVIRTUALADDRESS, in, m, NULL);
}

static void allocation_flags(void)
{
    DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 f;
    memset(&f, 0, sizeof f);
    f.CpuVisible = 1;
    f.PermanentSysMem = 1;
    RUN("flags PermanentSysMem with CpuVisible", NULL, DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, out, f, NULL);
    f.CpuVisible = 0;
    RUN("flags PermanentSysMem without CpuVisible", "implies", DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, out, f,
        "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.PermanentSysMem:implies:CpuVisible");
    memset(&f, 0, sizeof f);
    f.CpuVisible = 1;
    f.PermanentSysMem = 1;
    f.Protected = 1;
    RUN("flags Protected with PermanentSysMem", "exclusive", DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f,
        "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.Protected:exclusive:PermanentSysMem");
    memset(&f, 0, sizeof f);
    f.Protected = 1;
    RUN("flags Protected alone", NULL, DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f, NULL);
    /* The alignment sentence on ExistingSysMem is about the memory, not the bit. */
    memset(&f, 0, sizeof f);
    f.ExistingSysMem = 1;
    RUN("flags ExistingSysMem set", NULL, DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f, NULL);
    memset(&f, 0, sizeof f);
    f.Overlay = 1;
    RUN("flags Overlay alone", NULL, DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f, NULL);
    f.Capture = 1;
    RUN("flags Capture with Overlay", "zero-when", DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f,
        "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.Capture:zero-when");
    /* Reserved bits through the Value word: the mask test, then the rule. */
    memset(&f, 0, sizeof f);
    f.Value = 0x00000800u; /* DXGK_ALLOC_RESERVED17 */
    RUN("flags reserved bit 11 via Value", "reserved-zero", DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f,
        "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.DXGK_ALLOC_RESERVED17:reserved-zero");
    f.Value = 0x80000000u;
    RUN("flags reserved bit 31 via Value", "reserved-zero", DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f,
        "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.DXGK_ALLOC_RESERVED0:reserved-zero");
    f.Value = 0x00000400u; /* Reserved00 before WDDM 2.1, CreateInVpr from it */
#if DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WDDM2_1
    RUN("flags bit 10 is Reserved00 here", "reserved-zero", DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f,
        "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.Reserved00:reserved-zero");
#else
    RUN("flags bit 10 is CreateInVpr here", NULL, DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, in, f, NULL);
#endif
}

static DXGK_SEGMENTDESCRIPTOR3 good_segment(void)
{
    DXGK_SEGMENTDESCRIPTOR3 s;
    memset(&s, 0, sizeof s);
    s.Size = 0x1000000;
    s.CommitLimit = 0x800000;
    s.NbOfBanks = 0;
    return s;
}

static void segment_descriptor(void)
{
    static SIZE_T banks[4];
    DXGK_SEGMENTDESCRIPTOR3 s = good_segment();
    RUN("segment valid", NULL, DXGK_SEGMENTDESCRIPTOR3, out, s, NULL);
    s.Reserved = 5;
    RUN("segment Reserved set", "reserved-zero", DXGK_SEGMENTDESCRIPTOR3, out, s,
        "DXGK_SEGMENTDESCRIPTOR3.Reserved:reserved-zero");
    RUN("segment Reserved is [out]: not checked on entry", NULL, DXGK_SEGMENTDESCRIPTOR3, in, s, NULL);
    s = good_segment();
    s.Size = 0x1000800;
    RUN("segment Size off 4 KB", "align", DXGK_SEGMENTDESCRIPTOR3, out, s, "DXGK_SEGMENTDESCRIPTOR3.Size:align");
    s = good_segment();
    s.CommitLimit = 0;
    RUN("segment CommitLimit zero", "nonzero", DXGK_SEGMENTDESCRIPTOR3, out, s,
        "DXGK_SEGMENTDESCRIPTOR3.CommitLimit:nonzero");
    s = good_segment();
    s.NbOfBanks = 33;
    RUN("segment 33 banks", "range", DXGK_SEGMENTDESCRIPTOR3, out, s, "DXGK_SEGMENTDESCRIPTOR3.NbOfBanks:range");
    s = good_segment();
    s.Flags.UseBanking = 1;
    RUN("segment banking without a table", "nonnull-iff", DXGK_SEGMENTDESCRIPTOR3, out, s,
        "DXGK_SEGMENTDESCRIPTOR3.pBankRangeTable:nonnull-iff");
    s.pBankRangeTable = banks;
    s.NbOfBanks = 4;
    RUN("segment banking with a table", NULL, DXGK_SEGMENTDESCRIPTOR3, out, s, NULL);
    s.Flags.UseBanking = 0;
    RUN("segment a table without banking", "nonnull-iff", DXGK_SEGMENTDESCRIPTOR3, out, s,
        "DXGK_SEGMENTDESCRIPTOR3.pBankRangeTable:nonnull-iff");
}

/* Descent (issue 26, depth): the Transfer member's validator calls the
 * validator of the DXGK_TRANSFERFLAGS it embeds (the fixture page
 * ns-d3dkmddi-_dxgk_transferflags.md: Reserved must be zero), and reports
 * the broken rule with the path from the argument record. */
static void transfer_flags(DXGKARG_BUILDPAGINGBUFFER *b)
{
    memset(&b->Transfer, 0, sizeof b->Transfer);
    b->Operation = DXGK_OPERATION_TRANSFER;
    b->Transfer.Flags.TransferStart = 1;
    RUN("BPB transfer, named flags", NULL, DXGKARG_BUILDPAGINGBUFFER, in, *b, NULL);
    b->Transfer.Flags.Value |= 0x80000000u;
    RUN("BPB transfer, reserved flag (descent into DXGK_TRANSFERFLAGS)", "reserved-zero", DXGKARG_BUILDPAGINGBUFFER,
        in, *b, "DXGK_TRANSFERFLAGS.Reserved:reserved-zero");
    ddi_violation v = {0};
    cases++;
    if (ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(b, &v, 0) != 1 || !v.via[0] ||
        strcmp(v.via[0], "Transfer.Flags") != 0 || v.via[1] || !v.field || strcmp(v.field, "Reserved") != 0) {
        failures++;
        printf("FAIL the descent's violation names Transfer.Flags then Reserved (got %s, %s)\n",
               v.via[0] ? v.via[0] : "-", v.field ? v.field : "-");
    }
    /* The same bytes under another operation are another member: not checked. */
    b->Operation = DXGK_OPERATION_DISCARD_CONTENT;
    b->DiscardContent.Flags.Value = 0;
    b->Transfer.Flags.Value = 0x80000000u;
    RUN("BPB discard ignores the Transfer flags' bits", NULL, DXGKARG_BUILDPAGINGBUFFER, in, *b, NULL);
}

static void build_paging_buffer(void)
{
    static unsigned char dma[4096];
    DXGKARG_BUILDPAGINGBUFFER b;
    memset(&b, 0, sizeof b);
    b.pDmaBuffer = dma;
    b.DmaSize = sizeof dma;
    b.Operation = DXGK_OPERATION_DISCARD_CONTENT;
    b.DiscardContent.Flags.AllocationIsIdle = 1;
    RUN("BPB discard, idle", NULL, DXGKARG_BUILDPAGINGBUFFER, in, b, NULL);
    b.DiscardContent.Flags.Value |= 0x100u;
    RUN("BPB discard, reserved flag (member validator)", "reserved-zero", DXGKARG_BUILDPAGINGBUFFER, in, b,
        "DXGKARG_BUILDPAGINGBUFFER.DiscardContent.Flags.Reserved:reserved-zero");
    ddi_violation v = {0};
    cases++;
    if (ddi_validate_DXGKARG_BUILDPAGINGBUFFER__DiscardContent_in(&b, &v, 0) != 1 ||
        strcmp(v.rule_id, "DXGKARG_BUILDPAGINGBUFFER.DiscardContent.Flags.Reserved:reserved-zero") != 0) {
        failures++;
        printf("FAIL the DiscardContent member validator called alone\n");
    }
    /* The same bytes under another operation are another member: not checked. */
    b.Operation = DXGK_OPERATION_FILL;
    RUN("BPB fill ignores DiscardContent bits", NULL, DXGKARG_BUILDPAGINGBUFFER, in, b, NULL);
    b.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)99;
    RUN("BPB unknown operation", "discriminator", DXGKARG_BUILDPAGINGBUFFER, in, b,
        "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
    transfer_flags(&b);
#if DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WDDM3_2
    b.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)22; /* NOTIFY_ALLOC comes with WDDM 3.2 */
    RUN("BPB operation from a later DDI version", "discriminator", DXGKARG_BUILDPAGINGBUFFER, in, b,
        "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
#endif
}

/* ddi_rules.c: where a rule comes from (line of the fixture page). */
static void rule_sources(void)
{
    const ddi_rule_info *r = ddi_rule_source("D3DDDI_MAPGPUVIRTUALADDRESS.Reserved0:reserved-zero");
    cases++;
    if (!r || r->line != 59 || !strstr(r->page, "ns-d3dukmdt-d3dddi_mapgpuvirtualaddress.md") ||
        strcmp(r->sentence, "Reserved; this member must be set to zero.") != 0) {
        failures++;
        printf("FAIL ddi_rule_source of Reserved0: %s:%lu\n", r ? r->page : "-", r ? r->line : 0ul);
    } else {
        printf("ok   ddi_rule_source gives the page, line 59 and the sentence\n");
    }
    cases++;
    if (ddi_rule_source("NO.SUCH:rule") != NULL || ddi_rule_source(NULL) != NULL) {
        failures++;
        printf("FAIL ddi_rule_source of an unknown ID\n");
    }
}

/* Every kind with checks (from the stats line "validate: KIND  N of M")
 * must have had a failing case above. */
static void claimed_kinds(const char *stats)
{
    FILE *f = fopen(stats, "r");
    if (!f) {
        failures++;
        printf("FAIL cannot read %s\n", stats);
        return;
    }
    char line[256], kind[64];
    unsigned long checked, total;
    int claimed = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "validate: %63s %lu of %lu", kind, &checked, &total) != 3 || strcmp(kind, "total") == 0 ||
            checked == 0)
            continue;
        claimed++;
        int seen = 0;
        for (int i = 0; i < nfailing; i++)
            seen |= strcmp(failing_kinds[i], kind) == 0;
        if (!seen) {
            failures++;
            printf("FAIL the generator checks %lu %s rule(s) but no case fails one\n", checked, kind);
        } else {
            printf("ok   kind %s: checked (%lu of %lu) and a failing case exists\n", kind, checked, total);
        }
    }
    fclose(f);
    if (!claimed) {
        failures++;
        printf("FAIL %s claims no checked kind\n", stats);
    }
}

/* Conditions that name a field (read from the fixture page's "If Type is
 * X", "If VirtualMachineData in Flags is zero", "If the SecureVirtualMachine
 * flag of Flags is set") and the enum values of Type at the compiled DDI
 * version (the fixture header adds values per version). */
static DXGKARG_QUERYADAPTERINFO good_query(void)
{
    DXGKARG_QUERYADAPTERINFO q;
    memset(&q, 0, sizeof q);
    q.Type = DXGKQAITYPE_QUERYSEGMENT;
    q.InputDataSize = 16;
    q.OutputDataSize = 64;
    /* the header sizes both buffers (_Field_size_bytes_): a size without a
     * buffer is no valid call */
    q.pInputData = (VOID *)(ULONG_PTR)0x1000;
    q.pOutputData = (VOID *)(ULONG_PTR)0x2000;
    return q;
}

static void query_adapter_info(void)
{
    DXGKARG_QUERYADAPTERINFO q = good_query();
    RUN("QUERYADAPTERINFO valid", NULL, DXGKARG_QUERYADAPTERINFO, in, q, NULL);
    q.InputDataSize = 0;
    RUN("QUERYADAPTERINFO QUERYSEGMENT without input (Type == X)", "nonzero", DXGKARG_QUERYADAPTERINFO, in, q,
        "DXGKARG_QUERYADAPTERINFO.InputDataSize:nonzero");
    q.Type = DXGKQAITYPE_DRIVERCAPS;
    RUN("QUERYADAPTERINFO DRIVERCAPS without input (Type != X)", NULL, DXGKARG_QUERYADAPTERINFO, in, q, NULL);
    q = good_query();
    q.pInputData = NULL;
    RUN("QUERYADAPTERINFO input size without a buffer", "nonnull-when", DXGKARG_QUERYADAPTERINFO, in, q,
        "DXGKARG_QUERYADAPTERINFO.pInputData:nonnull-when:sal");
    q.InputDataSize = 0;
    q.Type = DXGKQAITYPE_DRIVERCAPS;
    RUN("QUERYADAPTERINFO no input buffer, no input size", NULL, DXGKARG_QUERYADAPTERINFO, in, q, NULL);
    q = good_query();
    q.OutputDataSize = 0;
    RUN("QUERYADAPTERINFO no output, VirtualMachineData clear", "nonzero", DXGKARG_QUERYADAPTERINFO, in, q,
        "DXGKARG_QUERYADAPTERINFO.OutputDataSize:nonzero");
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    q.Flags.VirtualMachineData = 1;
    RUN("QUERYADAPTERINFO no output, VirtualMachineData set", NULL, DXGKARG_QUERYADAPTERINFO, in, q, NULL);
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
    q = good_query();
    q.Flags.SecureVirtualMachine = 1;
    RUN("QUERYADAPTERINFO no process, SecureVirtualMachine set", "nonzero", DXGKARG_QUERYADAPTERINFO, in, q,
        "DXGKARG_QUERYADAPTERINFO.hKmdProcessHandle:nonzero");
    q.hKmdProcessHandle = (HANDLE)(ULONG_PTR)8;
    RUN("QUERYADAPTERINFO a process, SecureVirtualMachine set", NULL, DXGKARG_QUERYADAPTERINFO, in, q, NULL);
#endif
    q = good_query();
    q.Type = (DXGK_QUERYADAPTERINFOTYPE)999;
    RUN("QUERYADAPTERINFO Type no enumerator", "range", DXGKARG_QUERYADAPTERINFO, in, q,
        "DXGKARG_QUERYADAPTERINFO.Type:enum");
    q.Type = (DXGK_QUERYADAPTERINFOTYPE)17; /* INTEGRATED_DISPLAY_DESCRIPTOR: from WDDM 2.2 */
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
    RUN("QUERYADAPTERINFO Type defined at this version", NULL, DXGKARG_QUERYADAPTERINFO, in, q, NULL);
#else
    RUN("QUERYADAPTERINFO Type not yet defined at this version", "range", DXGKARG_QUERYADAPTERINFO, in, q,
        "DXGKARG_QUERYADAPTERINFO.Type:enum");
#endif
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: validate_behaviour STATS SPEC VERSION\n");
        return 2;
    }
    spec_path = argv[2];
    version = argv[3];
    map_gpuva();
    allocation_flags();
    segment_descriptor();
    build_paging_buffer();
    rule_sources();
    query_adapter_info();
    claimed_kinds(argv[1]);
    printf("%d cases, %d failed\n", cases, failures);
    return failures ? 1 : 0;
}
