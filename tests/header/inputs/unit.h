/* Input for header_units: the shapes the WDK headers use, in miniature. */
#define _In_
#define _In_opt_
#define _Out_
#define _Field_size_(n)
#define _Field_size_bytes_(n)
#define _IRQL_requires_(x)
#define _In_reads_bytes_(n)
#define _When_(c, a)
#define _Check_return_
#define _Out_writes_bytes_(n)
#define APIENTRY __stdcall
#define CALLBACK __stdcall
#define IN_CONST_HANDLE _In_ const HANDLE
#define IN_PUNIT_ARGS _In_ UNIT_ARGS *

typedef void *HANDLE;
typedef unsigned int UINT;
typedef unsigned char UCHAR;
typedef unsigned long long UINT64;
typedef long NTSTATUS;

#define DXGKDDI_INTERFACE_VERSION_OLD 0x1000
#define DXGKDDI_INTERFACE_VERSION_MID 0x2000
#define DXGKDDI_INTERFACE_VERSION_SAME_AS_MID 0x2000
#define DXGKDDI_INTERFACE_VERSION_NEW 0x3000
#ifndef DXGKDDI_INTERFACE_VERSION
#define DXGKDDI_INTERFACE_VERSION DXGKDDI_INTERFACE_VERSION_NEW
#endif

typedef struct _UNIT_FLAGS {
    union {
        struct {
            UINT Swizzle : 1;
#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_MID)
            UINT Renamed : 1;
#else
            UINT Reserved00 : 1;
#endif
            UINT Reserved : 30;
        };
        UINT Value;
    };
} UNIT_FLAGS;

#pragma pack(push, 1)
typedef struct _UNIT_PACKED {
    UCHAR Tag;
    UINT64 Address;
} UNIT_PACKED;
#pragma pack(pop)

typedef struct _UNIT_ARGS {
    _Field_size_bytes_(Size) void *pBuffer;
    UINT Size;
    union {
        struct {
            HANDLE hAllocation;
            struct {
                UINT SegmentId;
                union {
                    UINT64 SegmentAddress;
                    void *pMdl;
                };
            } Source;
        } Transfer;
#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_NEW)
        struct {
            UINT64 Big[4];
        } Grown;
#endif
    };
    UNIT_FLAGS Flags;
    UINT Matrix[2][3];
} UNIT_ARGS;

typedef enum _UNIT_OPERATION {
    UNIT_OP_A = 0,
    UNIT_OP_B = 1,
#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_NEW)
    UNIT_OP_C = 2,
#endif
} UNIT_OPERATION;

typedef
    _IRQL_requires_(PASSIVE_LEVEL)
NTSTATUS
APIENTRY
UNITDDI_BUILD(
    IN_CONST_HANDLE hAdapter,
    IN_PUNIT_ARGS pArgs,
    _In_opt_ void *pContext,
    _When_(pContext != 0, _In_reads_bytes_(Size)) const void *pData
    );
typedef UNITDDI_BUILD *PUNITDDI_BUILD;

/* Shapes of older parts of a kit: a name made by a macro, padding without
 * a name, a condition continued on the next line, a tag declared inside
 * another record, an enumerator per version, callback pointer typedefs. */
#define UNIT_SPARE_BIT Spare

typedef struct _UNIT_MODE {
    UINT Fast : 1;
    UINT UNIT_SPARE_BIT : 1;
#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_MID) && \
    (DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_NEW)
    UINT Slow : 1;
    UINT : 29;
#else
    UINT : 30;
#endif
} UNIT_MODE;

typedef struct _UNIT_OUTER {
    UINT Count;
    struct _UNIT_WINDOW {
        UINT First;
        UINT Last;
    } Window;
#if defined(_UNIT_PREVIEW_) || \
    (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_OLD)
    _Field_size_(Count) struct _UNIT_WINDOW *pWindows;
#endif
} UNIT_OUTER;

/* Tags declared inside unnamed unions (d3dkmddi.h's
 * DXGK_POWER_COMPONENT_MAPPING): their scope has no name in C++, so they are
 * reached through the member declared with them, through a named member on
 * the way, and not at all through an array. */
typedef struct _UNIT_MAPPING {
    UINT Kind;
    union {
        struct UNIT_ENGINE_DESC {
            UINT NodeIndex;
        } EngineDesc;
        struct UNIT_MONITOR_DESC {
            UINT TargetId;
        } MonitorDesc;
    };
    union {
        struct UNIT_NAMED_DESC {
            UINT Value;
        } Inner;
    } Named;
    union {
        struct UNIT_ARRAY_DESC {
            UINT Value;
        } Items[2];
    };
} UNIT_MAPPING;

typedef enum _UNIT_LIMIT {
    UNIT_LIMIT_NONE = 0,
#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_NEW)
    UNIT_LIMIT_MAX = 9
#elif (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_MID)
    UNIT_LIMIT_MAX = 8
#else
    UNIT_LIMIT_MAX = 7
#endif
} UNIT_LIMIT;

typedef NTSTATUS (APIENTRY *UNITDDI_NOTIFY)(IN_CONST_HANDLE hDevice, _In_ UINT Code);
typedef _Check_return_ NTSTATUS (APIENTRY CALLBACK *PFNUNIT_QUERY)(
    _In_ HANDLE hDevice,
    _Out_writes_bytes_(Size) void *pOut,
    _In_ UINT Size
    );

/* The size and scalar class of each field's type, as the MSVC targets have
 * them: plain char signed, long 4 bytes, an enum int, a bit-field its
 * declared type, an array one element, T ** judged by T. */
typedef enum { UNIT_ANON_LOW = -1, UNIT_ANON_HIGH = 1 } UNIT_ANON_ENUM;
typedef struct _UNIT_SCALARS {
    char Plain;
    unsigned short Short;
    _Bool Flag;
    long Long;
    float Ratio;
    double Precise;
    UNIT_OPERATION Operation;
    UNIT_ANON_ENUM Anonymous;
    UINT Bits : 3;
    UCHAR Bytes[6];
    void *Address;
    UNIT_PACKED **ppPacked;
    UINT64 Quad;
    UNIT_FLAGS Flags;
} UNIT_SCALARS;

/* The header's own direction comments, as the WDK writes them. */
typedef struct _UNIT_COMMENTED
{
    HANDLE  hObject;            // in:  runtime handle/out: driver handle
    UINT    Width;              //out:Width of the surface
    UINT    Count;              // In
    UINT    Size;               // in bytes, not a direction
    UINT    Extra;              /* [in] */
    UINT    Both;               // in/out: both sides
    UINT    Opt;                // in_opt: may be zero
    UINT    Next;
                                // out: a comment on a line of its own is not Next's
    UINT    Last, Other;        // in: both declarators
} UNIT_COMMENTED;
