/* refdriver: the WDK headers every translation unit of the driver starts
 * with, and the skeleton's violation hook. This is the driver's
 * DDIGEN_WDK_HEADER: ddigen's generated .c files and the paging runtime's
 * sources include it (through ddi_wdk.h) instead of ntddk.h + dispmprt.h.
 * It must therefore not include the runtime's headers: they include
 * ddi_wdk.h, and the cycle would leave their types undeclared. */
#ifndef REFDRIVER_WDK_H
#define REFDRIVER_WDK_H

#include <ntddk.h>
#include <dispmprt.h>

#include "ddi_violation.h"

#if defined(REFDRIVER_HAVE_SKELETON)
/* The thunks' report of a documented rule broken on entry (debug builds):
 * ddi_skeleton.c expands the hook inside the thunk, where the adapter
 * handle is in scope. */
void refdriver_skeleton_violation(HANDLE adapter, const ddi_violation *violation);
#define DDIGEN_SKELETON_VIOLATION(callback, violation) refdriver_skeleton_violation(hAdapter, (violation))
#endif

#endif
