/* See eval_glue.h. The spec is loaded and lowered once per process. */
#include "eval_glue.h"

#include "rules/rules.h"
#include "spec/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static xmlDocPtr doc;
static struct rules_plan *plan;

static void release(void)
{
    rules_plan_free(plan);
    xmlFreeDoc(doc);
}

/* x64 size of the record at version, or 0. */
static unsigned long x64_size(const struct rules_record *rec, const char *version)
{
    int v = ddi_version_find(&plan->where, version, strlen(version));
    int x64 = ddi_arch_find(&plan->where, "x64", 3);
    const struct ddi_model_measure *s = x64 >= 0 ? ddi_model_measure_at(&rec->model->sizes[x64], v) : NULL;
    return s && s->value > 0 ? (unsigned long)s->value : 0;
}

long eval_glue_run(const char *spec, const char *record, const char *version, const char *dir, const void *object,
                   size_t size, char *first_id, size_t id_size)
{
    if (!doc) {
        doc = spec_load(spec);
        plan = doc ? rules_lower(doc) : NULL;
        if (!plan)
            return -1;
        atexit(release);
    }
    const struct rules_record *rec = rules_find(plan, record);
    if (!rec)
        return -1;
    if (x64_size(rec, version) != size)
        return -2;
    ddi_violation v = {0};
    unsigned d = strcmp(dir, "in") == 0 ? RULES_DIR_IN : RULES_DIR_OUT;
    unsigned long n = rules_eval(plan, rec, "x64", version, d, object, size, &v, 0);
    snprintf(first_id, id_size, "%s", n && v.rule_id ? v.rule_id : "");
    return (long)n;
}
