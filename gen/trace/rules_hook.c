/* The rules hook of `ddigen trace` (see rules_hook.h): the validators' own
 * lowering (gen/rules, rules_lower) evaluated over the record's bytes by
 * rules_eval, the same checks in the same order as the generated
 * ddi_validate_<RECORD>_<dir>, so the trace has no rule meaning of its own.
 * The plan is lowered once per spec. */
#include "rules_hook.h"

#include "rules/rules.h"

static xmlDocPtr plan_spec;
static struct rules_plan *plan;

void trace_rules_release(void)
{
    rules_plan_free(plan);
    plan = NULL;
    plan_spec = NULL;
}

enum trace_rules_status trace_check_rules(const struct trace_rules_query *q, ddi_violation *out, size_t max,
                                          size_t *count)
{
    *count = 0;
    if (plan_spec != q->spec) {
        trace_rules_release();
        plan = rules_lower(q->spec);
        plan_spec = q->spec;
    }
    xmlChar *name = xmlGetProp(q->record, BAD_CAST "name");
    const struct rules_record *rec = plan && name ? rules_find(plan, (const char *)name) : NULL;
    xmlFree(name);
    if (!rec || !rec->nchecks || !max || !q->image)
        return TRACE_RULES_NOT_CHECKED;
    /* rules_eval fills the first violation and counts them all. */
    *count = rules_eval(plan, rec, q->arch, q->ddi_version, q->direction ? RULES_DIR_OUT : RULES_DIR_IN, q->image,
                        q->image_size, &out[0], 0);
    return TRACE_RULES_CHECKED;
}
