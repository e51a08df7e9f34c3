/* The one place `ddigen trace` asks for the documented rules of a record to
 * be checked. The trace carries no rule meaning of its own: this hook hands
 * the record (rebuilt as raw bytes for an arch and DDI version, see
 * image.h) to the rule evaluator the generated validators share, and gets
 * back the violations, each naming its field path. */
#ifndef DDIGEN_TRACE_RULES_HOOK_H
#define DDIGEN_TRACE_RULES_HOOK_H

#include "ddi_violation.h"
#include "model/model.h"

#include <libxml/tree.h>
#include <stddef.h>

struct trace_rules_query {
    const struct ddi_model *model; /* of the spec */
    xmlNodePtr record;          /* the top-level <record> of the spec */
    const char *arch;           /* x86, x64, arm64 */
    const char *ddi_version;    /* short name, e.g. WDDM3_1 */
    unsigned direction;         /* 0 in, 1 out (DDI_TRACE_IN / DDI_TRACE_OUT) */
    const unsigned char *image; /* the record's bytes for arch and version */
    size_t image_size;
};

enum trace_rules_status {
    TRACE_RULES_NOT_CHECKED = 0, /* no evaluator linked, or the record has no lowered rules */
    TRACE_RULES_CHECKED = 1      /* out[0..*count) are the violations (possibly none) */
};

/* Checks q's record: *count is the number of violations, out[0] the first
 * (the evaluator reports the first, as the generated validators do). */
enum trace_rules_status trace_check_rules(const struct trace_rules_query *q, ddi_violation *out, size_t max,
                                          size_t *count);
/* Frees what the hook keeps between calls (the lowered rules of a spec). */
void trace_rules_release(void);

#endif
