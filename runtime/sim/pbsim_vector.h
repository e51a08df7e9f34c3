/* Host hooks for the engine's AVX2 state save: tests and benchmarks plug them
 * into rpb_backend_ctx where a driver plugs KeSaveExtendedProcessorState. */
#ifndef PBSIM_VECTOR_H
#define PBSIM_VECTOR_H

#include "ddi_paging.h"

/* Host stand-in for a driver's KeSaveExtendedProcessorState(XSTATE_MASK_AVX) /
 * KeRestoreExtendedProcessorState pair, to plug into rpb_backend_ctx's
 * vector_save / vector_restore: XSAVE of the x87, SSE and AVX state into a
 * per-thread area and XRSTOR back, so tests check the pairing and benchmarks
 * pay what a kernel save costs at least. save returns -1 (the engine stays on
 * SSE2) without AVX2, off x64, or when a save is already open. */
int pbsim_vector_save(void *user, pb_vector_state *state);
void pbsim_vector_restore(void *user, pb_vector_state *state);
/* This thread's saves so far, and saves not yet restored (0 when paired). */
unsigned long pbsim_vector_saves(void);
long pbsim_vector_open(void);

#endif /* PBSIM_VECTOR_H */
