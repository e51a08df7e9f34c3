/* Stand-in for the generated ddi_validate.h (issue 12's validators), with the
 * contract's names and signature, for one member only: the dispatch test checks
 * that a table built with DDIGEN_VALIDATE calls a validator that exists and
 * compiles without the ones that do not. */
#ifndef DDI_VALIDATE_H
#define DDI_VALIDATE_H

#include "ddi_violation.h"

#define DDI_VALIDATE_STOP_AT_FIRST 1ul

#define DDI_HAS_ddi_validate_DXGKARGCB_NOTIFY_INTERRUPT_DATA__DmaCompleted_in 1
unsigned long ddi_validate_DXGKARGCB_NOTIFY_INTERRUPT_DATA__DmaCompleted_in(const DXGKARGCB_NOTIFY_INTERRUPT_DATA *a,
                                                                           ddi_violation *first,
                                                                           unsigned long flags);

#endif
