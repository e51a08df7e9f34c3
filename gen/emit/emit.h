/* Emit stage: renders every templates/NAME.xsl over the spec into
 * OUT/NAME with libxslt, plus C-side XSLT extension functions. */
#ifndef DDIGEN_EMIT_H
#define DDIGEN_EMIT_H

#include "../util/datadir.h"

#include <libxml/tree.h>
#include <pthread.h>

/* The templates folder when no --templates is given: found from the
 * executable (installed: PREFIX/share/ddigen/templates). */
#define DDIGEN_DEFAULT_TEMPLATES ddigen_data_dir("templates")

struct ddi_model;

struct emit_options {
    const char *spec_path;
    const char *templates_dir;
    const char *out_dir;
    int check; /* compare with what is in out_dir instead of writing */
    const char *const *params; /* NAME=VALUE template parameters, NULL-terminated, or NULL */
    int stats; /* print per rule kind how many rules the validators check */
    int checks; /* print every check as a tab-separated line (rules/checks_tsv.c) */
    const char *outputs; /* --outputs family list (families.h), or NULL for every template */
    int jobs; /* transforms run at once; 0: one per core */
    /* The spec's model, loaded before the view is added (generate shares
     * lint's); NULL: emit loads its own for the validation plan. */
    const struct ddi_model *model;
    /* Called, when set, once emit is about to change the spec (its view):
     * until then emit only reads it, so another thread may read it too
     * (generate's schema check of the written spec). */
    void (*spec_unshared)(void *arg);
    void *spec_unshared_arg;
    /* A family left out of the selection (generate renders it early, see
     * layout_only), or NULL. */
    const char *skip_family;
    /* The document is the layout alone (<ddi-spec><layout>), rendered for
     * a family that reads nothing else (asserts) while generate builds the
     * spec: the skeleton's options and a scope are the spec's to check,
     * so neither is looked at here (the caller renders this way only
     * without a scope). */
    int layout_only;
};

/* Whether opt (templates_dir, outputs, skip_family) renders a template of
 * the family. */
int emit_selects_family(const struct emit_options *opt, const char *family);

/* Checks the --outputs list against the templates folder without writing
 * anything; 0, or -1 after reporting. */
int emit_check_outputs(const char *templates_dir, const char *outputs);

/* Checks a NAME=VALUE template parameter; 0, or -1 after reporting. */
int emit_check_param(const char *param);

/* An error naming the options when two set one template parameter
 * (--ddi-list F --all, --driver-kind twice), or --records with --all; 0 or -1. */
int emit_check_param_conflicts(const char *const *params);

/* 0 ok; 1 errors (reported); 3 with check: outputs are stale. */
int emit_run(const struct emit_options *opt);
/* The same over a spec already in memory (valid, semantically checked:
 * what spec_load gives, or what `generate` built and wrote); opt->spec_path
 * names it in messages. The derived view (view.h) is added to the
 * document while the templates render and taken out again after: the
 * document is left as it was, except that its XPath document order is set. */
int emit_render(const struct emit_options *opt, xmlDocPtr spec);
int ddigen_cmd_emit(int argc, char **argv);

/* Registers the ddigen XSLT extension functions (urn:ddigen:xslt). */
void emit_register_extensions(void);
/* d:validation-plan() (xslt_rules.c): the lowered rules for the validators. */
void emit_register_rule_extensions(void);

/* What the transforms of one emit share (a transform context's _private):
 * the spec and its validation plan, lowered once on first use whatever
 * the number of templates and threads that ask for it. */
struct rules_plan;
struct emit_shared {
    xmlDocPtr spec;
    const struct ddi_model *model; /* the caller's, or NULL */
    pthread_mutex_t lock;
    int lowered;
    struct rules_plan *plan; /* NULL after lowering: it failed */
    xmlDocPtr plan_doc;      /* the plan as XML, with its guards (d:validation-plan) */
    int plan_refused;      /* the plan's view failed (reported once): every d:validation-plan fails */
};
void emit_shared_init(struct emit_shared *s, xmlDocPtr spec, const struct ddi_model *model);
void emit_shared_free(struct emit_shared *s);
const struct rules_plan *emit_shared_plan(struct emit_shared *s);

#endif
