/* The rules hook of `ddigen trace` (see rules_hook.h): the validators' own
 * lowering (gen/rules, rules_lower_model) evaluated over the record's bytes by
 * rules_eval, the same checks in the same order as the generated
 * ddi_validate_<RECORD>_<dir>, so the trace has no rule meaning of its own.
 * The plan is lowered once per model of a spec. */
#include "rules_hook.h"

#include "rules/rules.h"

static const struct ddi_model *plan_model;
static struct rules_plan *plan;

void trace_rules_release(void)
{
    rules_plan_free(plan);
    plan = NULL;
    plan_model = NULL;
}

enum trace_rules_status trace_check_rules(const struct trace_rules_query *q, ddi_violation *out, size_t max,
                                          size_t *count)
{
    *count = 0;
    if (plan_model != q->model) {
        trace_rules_release();
        plan = rules_lower_model(q->model);
        plan_model = q->model;
    }
    const struct ddi_model_record *r = ddi_model_record_of(q->model, q->record);
    const struct rules_record *rec = plan && r ? rules_find(plan, r->name) : NULL;
    if (!rec || !rec->nchecks || !max || !q->image)
        return TRACE_RULES_NOT_CHECKED;
    /* rules_eval fills the first violation and counts them all. */
    *count = rules_eval(plan, rec, q->arch, q->ddi_version, q->direction ? RULES_DIR_OUT : RULES_DIR_IN, q->image,
                        q->image_size, &out[0], 0);
    return TRACE_RULES_CHECKED;
}
