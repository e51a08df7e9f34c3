#define _IRQL_requires_max_(x)
#define _Function_class_FN_
typedef _In_ struct _ARGS *IN_PARGS;
typedef
_Function_class_FN_
_IRQL_requires_max_(PASSIVE_LEVEL)
long
FN_WIDGET(
    _In_ const void *hAdapter,
    IN_PARGS pArgs,
    _Inout_updates_(n) int *pValues
    );
typedef FN_WIDGET *PFN_WIDGET;
