/* Oracle: computes from the DDI arguments alone what simulated memory must look
 * like after an operation, independently of the engine and the packet format. */
#ifndef PBORACLE_H
#define PBORACLE_H

#include "ddi_paging.h"
#include "pbsim.h"

typedef struct pboracle_env {
    pbsim_machine *m;               /* state to update */
    pbsim_machine *cpu_owner;       /* machine whose host memory CPU VAs in the arguments point into */
    uint64_t segment_base[PBSIM_MAX_SEGMENTS + 1];
    uint32_t dual_pte_offset;
} pboracle_env;

/* Applies one operation. Returns 0, or -1 with a message when the arguments
 * address memory the model does not have (the case generator's bug). */
int pboracle_apply(const pboracle_env *env, const DXGKARG_BUILDPAGINGBUFFER *a, char *err, size_t errlen);

/* The reference PTE encoding, written from docs/runtime-packet-format.md. */
uint64_t pboracle_pte(const DXGK_PTE *p, uint32_t level, int use_64kb);

#endif /* PBORACLE_H */
