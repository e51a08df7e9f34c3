/* One side of the cross-release test: built against the code generated from
 * one fixture release. `write FILE` writes a trace of calls whose values
 * follow from their field IDs; `read FILE` reads a trace written by either
 * release, checks every value it knows against the same rule (nothing
 * misread) and prints per call the fields it did not know and the fields
 * it missed, for cross_release.sh to compare with the two specs. */
#include <dispmprt.h>
#include <ntddk.h>

#include "ddi_marshal.h"
#include "ddi_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BPB DXGKARG_BUILDPAGINGBUFFER
#define F(path) DDI_MARSHAL_FIELD_DXGKARG_BUILDPAGINGBUFFER_##path

static BPB sample(void)
{
    BPB a;
    memset(&a, 0, sizeof a);
    /* Each value is 1000 + its field ID: a field read into another's place
     * shows up as a wrong value. */
    a.Operation = DXGK_OPERATION_FILL;
    a.DmaSize = 1000 + F(DmaSize);
    a.DmaBufferPrivateDataSize = 1000 + F(DmaBufferPrivateDataSize);
    a.MultipassOffset = 1000 + F(MultipassOffset);
    a.Fill.FillSize = 1000 + F(Fill_FillSize);
    a.Fill.FillPattern = 1000 + F(Fill_FillPattern);
    a.Fill.Destination.SegmentId = 1000 + F(Fill_Destination_SegmentId);
#if defined(DDI_MARSHAL_FIELD_DXGKARG_BUILDPAGINGBUFFER_DmaBufferWriteOffset)
    a.DmaBufferWriteOffset = 1000 + F(DmaBufferWriteOffset);
#endif
    return a;
}

static int check(const char *what, unsigned long long got, unsigned long long want)
{
    if (got == want)
        return 0;
    printf("MISREAD %s: %llu, expected %llu\n", what, got, want);
    return 1;
}

static int write_trace(const char *path)
{
    static uint8_t buf[4096];
    size_t used = 0, needed = 0;
    BPB a = sample();
    DDI_TRACE_CALL(buf, sizeof buf, &used, &needed, DDI_TRACE_DDI_DXGKDDI_BUILDPAGINGBUFFER, DDI_TRACE_IN,
                   DXGKARG_BUILDPAGINGBUFFER, &a, 0);
    a.MultipassOffset++;
    DDI_TRACE_CALL(buf, sizeof buf, &used, &needed, DDI_TRACE_DDI_DXGKDDI_BUILDPAGINGBUFFER, DDI_TRACE_OUT,
                   DXGKARG_BUILDPAGINGBUFFER, &a, 0);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, used, f) != used || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

static int read_trace(const char *path)
{
    static uint8_t buf[4096];
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ddi_marshal_ctx c;
    ddi_marshal_result res;
    ddi_mrt_ctx_init(&c, buf, n, NULL, &res);
    ddi_trace_call_head head;
    int rc, bad = 0, calls = 0;
    while ((rc = ddi_trace_next(&c.r, &head)) == 1) {
        BPB b;
        memset(&b, 0, sizeof b);
        if (head.ddi_id != DDI_TRACE_DDI_DXGKDDI_BUILDPAGINGBUFFER ||
            head.record_id != DDI_MARSHAL_ID_DXGKARG_BUILDPAGINGBUFFER) {
            printf("FAIL call %d: DDI %u record %u\n", calls, head.ddi_id, head.record_id);
            return 1;
        }
        res.unknown = res.missing = 0;
        if (!ddi_marshal_get_DXGKARG_BUILDPAGINGBUFFER(&c, &b)) {
            printf("FAIL call %d: status %d at record %u key %u\n", calls, res.status, res.error_record, res.error_key);
            return 1;
        }
        BPB want = sample();
        want.MultipassOffset += head.direction == DDI_TRACE_OUT;
        bad |= check("Operation", (unsigned long long)b.Operation, (unsigned long long)want.Operation);
        bad |= check("DmaSize", b.DmaSize, want.DmaSize);
        bad |= check("DmaBufferPrivateDataSize", b.DmaBufferPrivateDataSize, want.DmaBufferPrivateDataSize);
        bad |= check("MultipassOffset", b.MultipassOffset, want.MultipassOffset);
        bad |= check("Fill.FillSize", b.Fill.FillSize, want.Fill.FillSize);
        bad |= check("Fill.FillPattern", b.Fill.FillPattern, want.Fill.FillPattern);
        bad |= check("Fill.Destination.SegmentId", b.Fill.Destination.SegmentId, want.Fill.Destination.SegmentId);
#if defined(DDI_MARSHAL_FIELD_DXGKARG_BUILDPAGINGBUFFER_DmaBufferWriteOffset)
        if (res.missing == 0)
            bad |= check("DmaBufferWriteOffset", b.DmaBufferWriteOffset, want.DmaBufferWriteOffset);
#endif
        printf("call %d dir %u: unknown %u first %u; missing %u first %u\n", calls, head.direction, res.unknown,
               res.unknown ? res.first_unknown_key : 0, res.missing, res.missing ? res.first_missing_key : 0);
        calls++;
    }
    if (rc < 0) {
        printf("FAIL malformed trace: %s\n", ddi_cbor_status_text(c.r.status));
        return 1;
    }
    printf("%d calls, %s\n", calls, bad ? "MISREAD" : "nothing misread");
    return bad || calls != 2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "write"))
        return write_trace(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "read"))
        return read_trace(argv[2]);
    fprintf(stderr, "usage: %s write|read FILE\n", argv[0]);
    return 2;
}
