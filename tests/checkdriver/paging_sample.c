/*
 * A small display miniport in C for check-driver's paging cases: callbacks
 * bound by a designated initialiser and by role typedefs, placed by
 * #pragma code_seg(push/pop) and __declspec(code_seg). A line that ends in
 * "expect: KIND" is where check-driver must report KIND; nothing else may be
 * reported.
 */
#include <ntddk.h>
#include <dispmprt.h>

static DXGKDDI_DPC_ROUTINE SampleDpc;
NTSTATUS SampleAddDevice(const PDEVICE_OBJECT Pdo, PVOID* Context);
VOID SampleUnload(VOID);
VOID SampleResetDevice(const PVOID Context);

#pragma code_seg(push, "PAGE")
/* Called at DISPATCH_LEVEL: in PAGE, a page fault there is a bug check. */
static VOID SampleDpc(const PVOID Context) /* expect: pageable-above-passive */
{
    UNREFERENCED_PARAMETER(Context);
}

/* PASSIVE_LEVEL and pageable, but without PAGED_CODE(). */
NTSTATUS SampleAddDevice(const PDEVICE_OBJECT Pdo, PVOID* Context) /* expect: paged-code-missing */
{
    UNREFERENCED_PARAMETER(Pdo);
    *Context = NULL;
    return STATUS_SUCCESS;
}

/* Not a callback: no DDI says at what IRQL it runs. */
static VOID SampleHelper(VOID)
{
}
#pragma code_seg(pop)

/* Pageable with PAGED_CODE(), at PASSIVE_LEVEL: as it should be. */
__declspec(code_seg("PAGE")) VOID SampleUnload(VOID)
{
    PAGED_CODE();
    SampleHelper();
}

/* Declared only through its role typedef (d3dkmddi.h's, APIENTRY: libclang
 * gives the declaration the prototype, not the typedef), after an
 * attribute, and in no table: still a callback. */
__declspec(code_seg("PAGE")) DXGKDDI_QUERYADAPTERINFO SampleQueryAdapterInfo;
__declspec(code_seg("PAGE")) NTSTATUS APIENTRY SampleQueryAdapterInfo( /* expect: paged-code-missing */
    const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO* pQueryAdapterInfo)
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(pQueryAdapterInfo);
    return STATUS_NOT_SUPPORTED;
}

/* Resident again after the pop. */
VOID SampleResetDevice(const PVOID Context)
{
    UNREFERENCED_PARAMETER(Context);
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA Init = {
        .Version = DXGKDDI_INTERFACE_VERSION,
        .DxgkDdiAddDevice = SampleAddDevice,
        .DxgkDdiDpcRoutine = SampleDpc,
        .DxgkDdiUnload = SampleUnload,
        .DxgkDdiResetDevice = SampleResetDevice,
    };
    return DxgkInitialize(DriverObject, RegistryPath, &Init);
}
