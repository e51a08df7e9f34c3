/* The lowered plan as XML for the templates (d:validation-plan), with each
 * check's failing condition already written as a C expression over the
 * record pointer `a`, so the meaning of an operation lives here, beside
 * the host evaluator, and not a second time in XSLT. Also --stats. */
#include "rules.h"

#include "kinds.h"

#include "../util/strbuf.h"

#include <string.h>

static const char *dir_name(unsigned dir)
{
    return dir == RULES_DIR_IN ? "in" : dir == RULES_DIR_OUT ? "out" : "both";
}

static const char *provenance_name(enum ddi_rule_provenance p)
{
    return p == DDI_PROVENANCE_REVIEWED ? "reviewed" : "extracted";
}

static void gating(const struct rules_plan *plan, xmlNodePtr n, uint64_t versions, unsigned archs)
{
    struct strbuf sb = {0};
    ddi_vset_text(&plan->where, versions, &sb);
    if (sb.len)
        xmlNewProp(n, BAD_CAST "versions", BAD_CAST sb_str(&sb));
    if (!versions)
        xmlNewProp(n, BAD_CAST "never", BAD_CAST "true");
    sb.len = 0;
    if ((archs & ddi_archset_all(&plan->where)) != ddi_archset_all(&plan->where))
        ddi_archset_condition(&plan->where, archs, &sb);
    if (sb.len)
        xmlNewProp(n, BAD_CAST "arch-cond", BAD_CAST sb_str(&sb));
    sb_free(&sb);
}

static void field_props(xmlNodePtr n, const struct rules_field *f)
{
    struct strbuf sb = {0};
    xmlNewProp(n, BAD_CAST "field", BAD_CAST rules_field_shown(f));
    rules_render_value(&sb, f);
    xmlNewProp(n, BAD_CAST "observed", BAD_CAST sb_str(&sb));
    sb_free(&sb);
}

static void check_xml(const struct rules_plan *plan, xmlNodePtr parent, const struct rules_check *c)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, BAD_CAST(c->kind_id == DDI_RULE_DISCRIMINATOR ? "selector" : "check"), NULL);
    xmlNewProp(n, BAD_CAST "id", BAD_CAST c->id);
    xmlNewProp(n, BAD_CAST "kind", BAD_CAST c->kind);
    /* so that templates can gate enforcement on who decided the rule */
    xmlNewProp(n, BAD_CAST "provenance", BAD_CAST provenance_name(c->provenance));
    /* what a broken one sets in ddi_violation.flags, as C */
    xmlNewProp(n, BAD_CAST "violation-flags",
               BAD_CAST(c->provenance == DDI_PROVENANCE_REVIEWED ? "DDI_VIOLATION_REVIEWED" : "0ul"));
    xmlNewProp(n, BAD_CAST "op", BAD_CAST c->how->op);
    xmlNewProp(n, BAD_CAST "dir", BAD_CAST dir_name(c->dir));
    if (c->member)
        xmlNewProp(n, BAD_CAST "member", BAD_CAST c->member);
    gating(plan, n, c->versions, c->archs);
    field_props(n, &c->subject);
    struct strbuf sb = {0};
    rules_render_check(&sb, c);
    xmlNewProp(n, BAD_CAST "bad", BAD_CAST sb_str(&sb));
    sb_free(&sb);
    if (c->mask_group >= 0) {
        char g[16];
        snprintf(g, sizeof g, "%d", c->mask_group);
        xmlNewProp(n, BAD_CAST "mask", BAD_CAST g);
    }
    if (c->page)
        xmlNewProp(n, BAD_CAST "page", BAD_CAST c->page);
    char line[24];
    snprintf(line, sizeof line, "%ld", c->line);
    xmlNewProp(n, BAD_CAST "line", BAD_CAST line);
    if (c->sentence) {
        /* rendered inside C comments too: no comment terminator survives */
        struct strbuf t = {0};
        for (const char *p = c->sentence; *p; p++)
            sb_append(&t, p[0] == '*' && p[1] == '/' ? "* " : (char[]){*p, 0});
        xmlNewTextChild(n, NULL, BAD_CAST "sentence", BAD_CAST sb_str(&t));
        sb_free(&t);
    }
    for (size_t i = 0; i < c->ncases; i++) {
        xmlNodePtr k = xmlNewChild(n, NULL, BAD_CAST "case", NULL);
        char num[24];
        snprintf(num, sizeof num, "%lld", c->cases[i].number);
        xmlNewProp(k, BAD_CAST "number", BAD_CAST num);
        xmlNewProp(k, BAD_CAST "value", BAD_CAST(c->cases[i].value ? c->cases[i].value : ""));
        gating(plan, k, c->cases[i].versions, ddi_archset_all(&plan->where));
        if (c->cases[i].member) {
            /* the member's own gating, for its validator and the call */
            xmlNodePtr m = xmlNewChild(k, NULL, BAD_CAST "call", NULL);
            xmlNewProp(m, BAD_CAST "member", BAD_CAST c->cases[i].member);
            gating(plan, m, c->cases[i].member_versions, ddi_archset_all(&plan->where));
        }
    }
}

static void mask_xml(const struct rules_plan *plan, xmlNodePtr parent, const struct rules_mask *m, size_t index)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, BAD_CAST "mask", NULL);
    char buf[40];
    snprintf(buf, sizeof buf, "%zu", index);
    xmlNewProp(n, BAD_CAST "index", BAD_CAST buf);
    xmlNewProp(n, BAD_CAST "dir", BAD_CAST dir_name(m->dir));
    if (m->member)
        xmlNewProp(n, BAD_CAST "member", BAD_CAST m->member);
    gating(plan, n, m->word.versions, m->word.archs);
    field_props(n, &m->word);
    snprintf(buf, sizeof buf, "0x%llX%s", m->mask, m->word.width[0] > 4 ? "ull" : "u");
    xmlNewProp(n, BAD_CAST "bits", BAD_CAST buf);
}

/* A call of an embedded record's validator: its field, the callee, the
 * direction of the path. */
static void descent_xml(const struct rules_plan *plan, xmlNodePtr parent, const struct rules_descent *d)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, BAD_CAST "descend", NULL);
    xmlNewProp(n, BAD_CAST "field", BAD_CAST d->path);
    xmlNewProp(n, BAD_CAST "record", BAD_CAST d->callee->name);
    xmlNewProp(n, BAD_CAST "dir", BAD_CAST dir_name(d->dir));
    if (d->member)
        xmlNewProp(n, BAD_CAST "member", BAD_CAST d->member);
    gating(plan, n, d->versions, d->archs);
}

static void record_xml(const struct rules_plan *plan, xmlNodePtr root, const struct rules_record *r)
{
    xmlNodePtr n = xmlNewChild(root, NULL, BAD_CAST "record", NULL);
    xmlNewProp(n, BAD_CAST "name", BAD_CAST r->name);
    if (r->dirs == RULES_DIR_IN)
        xmlNewProp(n, BAD_CAST "read-only", BAD_CAST "true"); /* no _out validator */
    if (r->dirs != RULES_DIR_BOTH) /* the validators it has: in, out, or none */
        xmlNewProp(n, BAD_CAST "dirs", BAD_CAST(r->dirs ? dir_name(r->dirs) : "none"));
    gating(plan, n, r->versions, r->archs);
    for (size_t i = 0; i < r->nchecks; i++)
        check_xml(plan, n, &r->checks[i]);
    for (size_t i = 0; i < r->nmasks; i++)
        mask_xml(plan, n, &r->masks[i], i);
    for (size_t i = 0; i < r->ndescents; i++)
        descent_xml(plan, n, &r->descents[i]);
    for (size_t i = 0; i < r->nskips; i++) {
        const struct rules_skip *s = &r->skips[i];
        xmlNodePtr k = xmlNewChild(n, NULL, BAD_CAST "skip", NULL);
        xmlNewProp(k, BAD_CAST "id", BAD_CAST s->id);
        xmlNewProp(k, BAD_CAST "kind", BAD_CAST s->kind);
        xmlNewProp(k, BAD_CAST "provenance", BAD_CAST provenance_name(s->provenance));
        xmlNewProp(k, BAD_CAST "reason", BAD_CAST s->reason);
    }
}

xmlNodePtr rules_plan_xml(const struct rules_plan *plan, xmlDocPtr doc)
{
    xmlNodePtr root = xmlNewDocNode(doc, NULL, BAD_CAST "validation", NULL);
    for (size_t i = 0; i < plan->nrecords; i++)
        record_xml(plan, root, &plan->records[i]);
    return root;
}

/* Printed only when some rule is reviewed, so the stats of a spec made
 * without spec/reviewed.xml stay as they were. */
static void print_reviewed_stats(const struct rules_plan *plan, FILE *out)
{
    size_t checks = 0, skips = 0;
    for (size_t i = 0; i < plan->nrecords; i++) {
        const struct rules_record *r = &plan->records[i];
        for (size_t j = 0; j < r->nchecks; j++)
            checks += r->checks[j].provenance == DDI_PROVENANCE_REVIEWED;
        for (size_t j = 0; j < r->nskips; j++)
            skips += r->skips[j].provenance == DDI_PROVENANCE_REVIEWED;
    }
    if (checks + skips)
        fprintf(out, "validate: reviewed       %zu of %zu rules checked\n", checks, checks + skips);
}

void rules_print_stats(const struct rules_plan *plan, FILE *out)
{
    size_t total_checks = 0, total = 0;
    for (int k = 0; k < DDI_RULE_KIND_COUNT; k++) {
        const char *kind = ddi_rule_kind_name((enum ddi_rule_kind)k);
        size_t checks = 0, rules = 0;
        for (size_t i = 0; i < plan->nrecords; i++) {
            const struct rules_record *r = &plan->records[i];
            for (size_t j = 0; j < r->nchecks; j++)
                checks += strcmp(r->checks[j].kind, kind) == 0;
            for (size_t j = 0; j < r->nskips; j++)
                rules += strcmp(r->skips[j].kind, kind) == 0;
        }
        rules += checks;
        total_checks += checks, total += rules;
        if (rules)
            fprintf(out, "validate: %-14s %zu of %zu rules checked\n", kind, checks, rules);
    }
    fprintf(out, "validate: total          %zu of %zu rules checked in %zu records\n", total_checks, total,
            plan->nrecords);
    print_reviewed_stats(plan, out);
}
