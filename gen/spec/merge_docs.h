/* The merge of the header view (<layout>) and the doc view (<docs>) of a
 * spec: doc members matched to header fields (saying how), doc rules
 * attached to the fields they constrain with field operands resolved,
 * discriminators (an enum field that selects a union member), and the
 * overrides applied. The result is the <merge> part of the spec. */
#ifndef DDIGEN_SPEC_MERGE_DOCS_H
#define DDIGEN_SPEC_MERGE_DOCS_H

#include "overrides.h"
#include "reviewed.h"

#include <libxml/tree.h>

struct spec_merge_stats {
    unsigned pages, pages_matched;
    unsigned members, members_matched;
    unsigned unnamed, unnamed_matched;
    unsigned rules, rules_attached;
    unsigned operands, operands_resolved;
    unsigned discriminators, cases, cases_mapped;
    unsigned overrides_applied, overrides_stale, overrides_unknown;
    unsigned reviewed_applied, reviewed_stale;
};

/* Adds <merge> to spec (which holds <layout> with IDs and <docs>). ovr and
 * rev (spec/reviewed.xml, applied last) may be NULL. Returns 0, or -1 when
 * an override names nothing (reported as an error at its line). */
int spec_merge(xmlDocPtr spec, struct overrides *ovr, struct reviewed *rev, struct spec_merge_stats *st);

#endif
