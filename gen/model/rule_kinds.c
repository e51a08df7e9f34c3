/* Names of the rule kinds (rule_kinds.h). */
#include "rule_kinds.h"

#include <string.h>

static const char *const names[DDI_RULE_KIND_COUNT] = {
#define DDI_RULE_KIND_NAME(id, name) name,
    DDI_RULE_KIND_LIST(DDI_RULE_KIND_NAME)
#undef DDI_RULE_KIND_NAME
};

const char *ddi_rule_kind_name(enum ddi_rule_kind k)
{
    return (unsigned)k < DDI_RULE_KIND_COUNT ? names[k] : NULL;
}

int ddi_rule_kind_find(const char *name)
{
    for (int k = 0; name && k < DDI_RULE_KIND_COUNT; k++)
        if (!strcmp(names[k], name))
            return k;
    return -1;
}
