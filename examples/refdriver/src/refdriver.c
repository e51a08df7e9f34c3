/* DxgkDdiBuildPagingBuffer of the reference driver: generated layout
 * asserts pin the WDK's records at compile time, debug builds check the
 * arguments with the generated validators, the paging runtime encodes. */
#include "refdriver.h"

/* Compile-time: every DDI record where the spec says, for the architecture
 * and DXGKDDI_INTERFACE_VERSION being compiled. */
#include "ddi_layout_asserts.h"

/* The other generated families, when ddigen_generate() was asked for them
 * (CMake defines REFDRIVER_HAVE_<FAMILY>); their code is compiled into the
 * driver by ddigen_generate, these are the declarations. */
#if defined(REFDRIVER_HAVE_VALIDATE)
#include "ddi_validate.h"
#endif
#if defined(REFDRIVER_HAVE_DISPATCH)
#include "ddi_dispatch.h"
#endif
#if defined(REFDRIVER_HAVE_SKELETON)
#include "ddi_skeleton.h"
#endif

/* The engine's report hook: a refused call names the rule it broke. */
static void on_rule(void *ctx, const char *rule_id, pb_severity severity, const DXGKARG_BUILDPAGINGBUFFER *args)
{
    refdriver_adapter *adapter = (refdriver_adapter *)ctx;
    (void)severity;
    (void)args;
    adapter->violations++;
    adapter->last_violation.rule_id = rule_id;
    adapter->last_violation.field = 0;
    adapter->last_violation.observed = 0;
}

NTSTATUS refdriver_start_adapter(refdriver_adapter *adapter, const refdriver_platform *platform)
{
    uint32_t s;
    adapter->backend.cpu_write64 = platform->cpu_write64;
    adapter->backend.user = platform->user;
    rpb_backend_init(&adapter->config.backend, &adapter->backend);
    adapter->config.paging_buffer_size = platform->paging_buffer_size;
    adapter->config.segment_count = platform->segment_count;
    for (s = 1; s <= platform->segment_count && s <= PB_MAX_SEGMENTS; s++)
        adapter->config.segments[s] = platform->segments[s];
    /* The reference GPU's MMU: two levels of 512 entries. */
    adapter->config.level_count = 2;
    adapter->config.index_bits[0] = 9;
    adapter->config.index_bits[1] = 9;
    adapter->config.report = on_rule;
    adapter->config.report_ctx = adapter;
    return pb_engine_init(&adapter->engine, &adapter->config);
}

#if defined(DDIGEN_VALIDATE) && defined(DDI_HAS_ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in)
/* Debug builds: the documented rules of the arguments, checked by the
 * generated validator before the engine sees them. */
static int arguments_valid(refdriver_adapter *adapter, const DXGKARG_BUILDPAGINGBUFFER *args)
{
    ddi_violation first;
    if (ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(args, &first, DDI_VALIDATE_STOP_AT_FIRST) == 0)
        return 1;
    adapter->violations++;
    adapter->last_violation = first;
    return 0;
}
#else
static int arguments_valid(refdriver_adapter *adapter, const DXGKARG_BUILDPAGINGBUFFER *args)
{
    (void)adapter;
    (void)args;
    return 1; /* release builds: the engine's own checks only */
}
#endif

NTSTATUS APIENTRY RefDdiBuildPagingBuffer(IN_CONST_HANDLE hAdapter, IN_PDXGKARG_BUILDPAGINGBUFFER pBuildPagingBuffer)
{
    refdriver_adapter *adapter = (refdriver_adapter *)hAdapter;
    if (!arguments_valid(adapter, pBuildPagingBuffer))
        return STATUS_INVALID_PARAMETER;
    return pb_build_paging_buffer(&adapter->engine, pBuildPagingBuffer);
}
