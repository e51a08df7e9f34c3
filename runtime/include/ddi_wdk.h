/* ddi_wdk.h: the one set of WDK headers that every generated .c file and the
 * paging runtime include, so that they see the DDI the way a miniport does. */
#ifndef DDI_WDK_H
#define DDI_WDK_H

/* A display miniport's translation unit: ntddk.h, then dispmprt.h, which
 * brings windef.h (UINT, ...) and then d3dkmddi.h and d3dkmdt.h. d3dkmddi.h
 * alone is not self-contained on real kits. (Generated .c files include a
 * driver's own header instead when DDIGEN_WDK_HEADER names one; the
 * runtime's headers never do, since such a header includes them.) */
#include <ntddk.h>
/* dispmprt.h of recent kits has static_assert(FIELD_OFFSET(...) == n):
 * MSVC folds FIELD_OFFSET's pointer arithmetic to a constant, clang and gcc
 * do not in C. For that header only, FIELD_OFFSET is the compiler's
 * offsetof, which gives the same value as a constant expression. */
#if defined(__clang__) || defined(__GNUC__)
#pragma push_macro("FIELD_OFFSET")
#undef FIELD_OFFSET
#define FIELD_OFFSET(type, field) ((LONG)__builtin_offsetof(type, field))
#include <dispmprt.h>
#pragma pop_macro("FIELD_OFFSET")
#else
#include <dispmprt.h>
#endif

#endif /* DDI_WDK_H */
