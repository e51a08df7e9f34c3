/* Stand-in for the generated ddi_validate.h with the contract's names and
 * signature for DXGKARG_BUILDPAGINGBUFFER: skeleton_policy.c decides what
 * each call finds broken, to test what the thunk does with it. */
#ifndef DDI_VALIDATE_H
#define DDI_VALIDATE_H

#include "ddi_violation.h"

#define DDI_VALIDATE_STOP_AT_FIRST 1ul

/* The thunks' hook, counted by the test. */
void skeleton_policy_hook(const char *callback, const ddi_violation *violation);
#define DDIGEN_SKELETON_VIOLATION(callback, violation) skeleton_policy_hook(callback, violation)

#define DDI_HAS_ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in 1
#define DDI_HAS_ddi_validate_DXGKARG_BUILDPAGINGBUFFER_out 1
unsigned long ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(const DXGKARG_BUILDPAGINGBUFFER *a, ddi_violation *first,
                                                        unsigned long flags);
unsigned long ddi_validate_DXGKARG_BUILDPAGINGBUFFER_out(const DXGKARG_BUILDPAGINGBUFFER *a, ddi_violation *first,
                                                         unsigned long flags);

#endif
