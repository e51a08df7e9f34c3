/* Merges one configuration's findings into the layout model. Called in a
 * fixed order (arch, then version ascending), which fixes the field order
 * when versions add fields. */
#ifndef DDIGEN_HEADER_MERGE_CONFIGS_H
#define DDIGEN_HEADER_MERGE_CONFIGS_H

#include "../spec/layout.h"
#include "config_model.h"

void merge_config(struct ddi_layout *l, enum ddi_arch arch, unsigned version, const struct cfg_model *m);
/* Sorts records, enums and typedefs by name; frees the merge indexes. */
void merge_finish(struct ddi_layout *l);

#endif
