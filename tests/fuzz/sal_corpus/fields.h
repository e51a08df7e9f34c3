#define IN_CONST_PTR _In_ const void *
#define _In_
#define _Out_writes_bytes_(n)
#define _When_(a, b)
typedef struct _WIDGET_ARGS {
    _In_ UINT Count;
    _Out_writes_bytes_(Count) PVOID pData;
    _When_(Count > 0, _In_) IN_CONST_PTR pExtra;
#if VERSION >= 2
    UINT Added : 3;
#endif
} WIDGET_ARGS;
