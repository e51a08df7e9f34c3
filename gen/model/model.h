/* The typed model of a spec that its consumers read instead of the XML:
 * versions and architectures, the layout's records and fields with their
 * per-arch offsets, sizes and type facts, and the documented rules joined
 * with their merge resolution. Built once by ddi_model_load; read-only after. */
#ifndef DDIGEN_MODEL_MODEL_H
#define DDIGEN_MODEL_MODEL_H

#include "rule_kinds.h"
#include "type_facts.h"
#include "vset.h"

#include "../util/arena.h"
#include "../util/strmap.h"

#include <libxml/tree.h>
#include <stddef.h>

/* A value measured per architecture that may differ by version (an
 * <offset> or <size> element): where it holds and what it is. */
struct ddi_model_measure {
    ddi_vset versions;
    int every_version; /* the element had no versions= (holds wherever the record does) */
    long value;        /* bits of an offset; bytes of a size */
    long align;        /* bytes, for a size; 0 otherwise */
};

struct ddi_model_measures {
    const struct ddi_model_measure *items; /* document order */
    size_t len;
};

/* A type fact that holds for some versions (one per <type-size>, the
 * element's own facts applied first). */
struct ddi_model_fact {
    ddi_vset versions;
    struct ddi_type_fact fact;
};

struct ddi_model_record;

struct ddi_model_field {
    xmlNodePtr node; /* for consumers that still print XML */
    const char *name, *path, *type, *sal, *spelled;
    const char *comment_dir; /* "in", "out", "both": the header's comment on the member, or NULL */
    const char *canonical; /* the canonical= attribute (one spelling on every arch), or NULL */
    const char *array;     /* the array= attribute ("4", "flexible"), or NULL */
    const char *versions_attr; /* versions= as written, NULL = every version (for messages) */
    int bits;              /* bitfield width, 0 when not a bitfield (or a :0 one) */
    int bitfield;          /* a bits= attribute is present */
    unsigned long id;      /* stable ID, 0 when the spec has none */
    unsigned line;
    size_t index;      /* its number among the model's fields, for consumers' side arrays */
    ddi_vset versions; /* own existence */
    ddi_archset archs;
    ddi_vset eff_versions; /* own, intersected with every field and record holding it */
    ddi_archset eff_archs; /* up to (not including) the top-level record */
    /* Bit offsets from the start of the top-level record, per arch index. */
    struct ddi_model_measures offsets[DDI_ARCH_MAX];
    /* Type facts per arch index: the element's own (base) and the per-version variants. */
    struct ddi_type_fact base_fact;
    const struct ddi_model_fact *facts[DDI_ARCH_MAX];
    size_t nfacts[DDI_ARCH_MAX];
    struct ddi_model_record *owner;       /* the record element holding it */
    struct ddi_model_record *nested;      /* its inline record, or NULL */
    struct ddi_model_record *type_record; /* the top-level record its named type stands for, or NULL */
    struct ddi_model_field *same_path;    /* next field of the top record with this path (alternatives) */
};

/* A field operand or subject resolved from a top-level record: the first
 * field lies in it, each next one in the record named by the type of the
 * one before (Protection.NoAccess goes through a named struct). */
#define DDI_MODEL_MAX_CHAIN 4
struct ddi_model_chain {
    const struct ddi_model_field *field[DDI_MODEL_MAX_CHAIN];
    int depth; /* 0: did not resolve */
};

/* A page's operand of a rule (<docs>): a name and its value as written. */
struct ddi_model_docs_operand {
    const char *name, *value;
};

/* A rule as its page states it (<docs> page/rules/rule), whether or not
 * the merge resolved it. */
struct ddi_model_docs_rule {
    xmlNodePtr node;
    const char *id, *kind, *subject, *condition;
    const char *sentence;                          /* or NULL */
    const struct ddi_model_docs_operand *operands; /* document order */
    size_t noperands;
};

/* A merge operand: the page's name and value, and the field it resolved to. */
struct ddi_model_operand {
    const char *name, *value;
    const char *field;             /* field= as the merge wrote it, or NULL */
    const char *record;            /* record= (field relative to that record), or NULL */
    int resolved;                  /* a field= and no resolved="no" */
    struct ddi_model_chain target; /* field= resolved from the rule's record */
};

/* Who decides a rule: the extractor (the page's sentence read by the
 * docs stage's patterns), or an entry of spec/reviewed.xml. */
enum ddi_rule_provenance { DDI_PROVENANCE_EXTRACTED, DDI_PROVENANCE_REVIEWED };

/* What a reviewed entry did to the rule. */
enum ddi_rule_review { DDI_REVIEW_NONE, DDI_REVIEW_ADD, DDI_REVIEW_KEEP, DDI_REVIEW_DROP, DDI_REVIEW_CORRECT };

/* A reviewed condition the rule's `ref` operands cannot carry: a field
 * clear, or equal to an enumerator (<merge> rule/when). */
struct ddi_model_when {
    const char *field;   /* designator from the rule's record */
    const char *is;      /* "set", "clear", or NULL */
    const char *equals;  /* an enumerator, or NULL */
    struct ddi_model_chain target;
};

struct ddi_model_rule {
    const char *id;
    const char *kind_name;
    int kind;                              /* enum ddi_rule_kind, or -1 for a kind this build does not know */
    const struct ddi_model_record *record; /* top-level record of the page */
    const char *page;                      /* the page's source */
    long line;
    const char *sentence;  /* the docs <sentence>, or NULL */
    const char *condition; /* the docs condition=, NULL when unconditional */
    /* The subject as the merge matched it (field=, relative to
     * field_record when the match went through a named type) and as a
     * designator from this record (the page's subject then). */
    const char *field, *field_record;
    const char *subject;
    struct ddi_model_chain subject_field; /* subject resolved from record */
    const struct ddi_model_docs_operand *docs_operands;
    size_t ndocs_operands;
    const struct ddi_model_operand *operands; /* merge order */
    size_t noperands;
    int has_docs; /* the <docs> rule of this ID was found */
    xmlNodePtr merge_node, docs_node;
    enum ddi_rule_provenance provenance;
    /* A reviewed rule: what its entry did, the entry's line in the
     * reviewed file and its reason; the sentence, docs operands and
     * condition above are then the entry's (<merge> review), not the page's. */
    enum ddi_rule_review review;
    long review_line;
    const char *review_reason;
    const struct ddi_model_when *whens;
    size_t nwhens;
};

struct ddi_model_case {
    long long number;
    const char *value, *member;
    ddi_vset versions;
    const struct ddi_model_field *member_field; /* the member in the record, or NULL */
};

struct ddi_model_discriminator {
    const char *selector, *enum_name, *union_name;
    const struct ddi_model_case *cases;
    size_t ncases;
    xmlNodePtr node;
};

struct ddi_model_record {
    xmlNodePtr node;
    const char *name, *tag, *kind, *file, *cxx_type;
    const char *versions_attr; /* versions= as written, NULL = every version */
    int is_union, anonymous, referenced;
    unsigned long id;
    unsigned line;
    ddi_vset versions;
    ddi_archset archs;
    struct ddi_model_measures sizes[DDI_ARCH_MAX]; /* per arch index: bytes and align */
    struct ddi_model_field **fields;               /* direct, document order */
    size_t nfields;
    struct ddi_model_record *top;   /* itself for a top-level record */
    struct ddi_model_field *holder; /* the field holding a nested record */
    /* Top-level records only: */
    struct ddi_model_field **all; /* every field at every depth, document order */
    size_t nall;
    struct strmap by_path;                     /* path -> first field (pre-order) */
    struct strmap by_spelled;                  /* path as written before a macro made the name -> first named field */
    const struct ddi_model_rule *const *rules; /* its pages' rules, unique by ID, page order */
    size_t nrules;
    const char *const *writes; /* fields a `writes` override names */
    size_t nwrites;
    const struct ddi_model_discriminator *discriminator; /* or NULL */
};

struct ddi_model_enum;

struct ddi_model_value {
    xmlNodePtr node;
    const char *name;
    long long value;
    const char *versions_attr; /* as written, NULL = every version */
    ddi_vset versions;
    ddi_archset archs;
    unsigned long id;
    const struct ddi_model_enum *owner;
};

struct ddi_model_enum {
    xmlNodePtr node;
    const char *name, *tag, *file, *versions_attr;
    ddi_vset versions;
    ddi_archset archs;
    unsigned long id;
    unsigned line;
    const struct ddi_model_value *values; /* document order */
    size_t nvalues;
};

struct ddi_model_typedef {
    xmlNodePtr node;
    const char *name, *type; /* type: the underlying type as spelled */
    const char *versions_attr;
    ddi_vset versions;
    ddi_archset archs;
};

struct ddi_model_param {
    const char *name, *type, *sal;
};

/* A <function-type>: a callback's signature. */
struct ddi_model_functype {
    xmlNodePtr node;
    const char *name, *file, *result, *sal, *pointer_to;
    const char *versions_attr;
    ddi_vset versions;
    ddi_archset archs;
    unsigned line;
    const struct ddi_model_param *params;
    size_t nparams;
};

struct ddi_model {
    xmlDocPtr doc;
    struct ddi_versions where;
    struct ddi_model_record **records; /* top-level, document order (every layout part) */
    size_t nrecords;
    size_t nfields;                /* fields at every depth (their index runs below this) */
    struct strmap by_name, by_tag; /* top-level records, first of each name / tag */
    const struct ddi_model_enum *enums; /* document order */
    size_t nenums;
    const struct ddi_model_typedef *typedefs;
    size_t ntypedefs;
    const struct ddi_model_functype *functypes;
    size_t nfunctypes;
    /* First of each: enums by name, then by tag where no name is the tag;
     * enum values by name; typedefs and function types by name. */
    struct strmap enum_by_name, value_by_name, typedef_by_name, functype_by_name;
    const struct ddi_model_docs_rule *docs_rules; /* every page's, document order */
    size_t ndocs_rules;
    struct strmap docs_field_text; /* <docs> field ID -> its <text>, the first of each */
    struct arena arena;
    void *nodes; /* xmlNodePtr -> field or record (model.c) */
};

/* Builds the model of a spec; it points into spec, which must outlive it.
 * NULL on no memory. */
struct ddi_model *ddi_model_load(xmlDocPtr spec);
void ddi_model_free(struct ddi_model *m);

const struct ddi_model_record *ddi_model_record(const struct ddi_model *m, const char *name);
const struct ddi_model_record *ddi_model_record_by_tag(const struct ddi_model *m, const char *tag);
/* A record by name at any depth ("A.u" names A's nested record u), else a
 * top-level one by tag; NULL when none. */
const struct ddi_model_record *ddi_model_record_any(const struct ddi_model *m, const char *name);
/* The first field of a record's top-level record (any depth) with this path, or NULL. */
const struct ddi_model_field *ddi_model_field(const struct ddi_model_record *top, const char *path);
/* The same among fields with a name (an anonymous member carries its
 * holder's path), and the next named one with f's path (an alternative by
 * version), or NULL. */
const struct ddi_model_field *ddi_model_named_field(const struct ddi_model_record *top, const char *path);
const struct ddi_model_field *ddi_model_next_named(const struct ddi_model_field *f);
/* The named field whose designator, written as in the header before a
 * macro made its name (DXGK_ALLOC_RESERVED0 for Reserved0), is path; or NULL. */
const struct ddi_model_field *ddi_model_field_spelled(const struct ddi_model_record *top, const char *path);
/* The bit offset of the field's first <offset> (the first arch that has
 * one, whatever its versions), or -1. */
long ddi_model_first_offset(const struct ddi_model_field *f);

const struct ddi_model_enum *ddi_model_enum(const struct ddi_model *m, const char *name);
const struct ddi_model_value *ddi_model_value(const struct ddi_model *m, const char *name);
const struct ddi_model_functype *ddi_model_functype(const struct ddi_model *m, const char *name);
/* The spelled underlying type of a typedef, or NULL. */
const char *ddi_model_typedef_type(const struct ddi_model *m, const char *name);
/* The top-level record or the enum a C type names: typedefs followed,
 * const/volatile/struct/union/enum dropped, pointers and arrays not
 * followed; NULL when none. */
const struct ddi_model_record *ddi_model_type_record(const struct ddi_model *m, const char *type);
const struct ddi_model_enum *ddi_model_type_enum(const struct ddi_model *m, const char *type);
/* The <text> of the first <docs> field with this ID (RECORD.path, as its
 * page names the record), or NULL. */
xmlNodePtr ddi_model_docs_field_text(const struct ddi_model *m, const char *id);
/* The model's field or record for an element of the spec, or NULL. */
const struct ddi_model_field *ddi_model_field_of(const struct ddi_model *m, xmlNodePtr node);
const struct ddi_model_record *ddi_model_record_of(const struct ddi_model *m, xmlNodePtr node);

/* Resolves a C designator from a top-level record into a chain of fields,
 * stepping into a field's named record type where the designator goes on
 * past it. 0, or -1 when it names no field (out->depth is then 0). */
int ddi_model_resolve(const struct ddi_model *m, const struct ddi_model_record *top, const char *path,
                      struct ddi_model_chain *out);

/* A measure for arch index and version index: the first that holds there;
 * at version -1 the first written without versions=. NULL when none. */
const struct ddi_model_measure *ddi_model_measure_at(const struct ddi_model_measures *ms, int version);
/* The bit offset of f from its top-level record, or -1. */
long ddi_model_offset(const struct ddi_model_field *f, int arch, int version);
/* The type facts of f on arch index at version index (-1: the first
 * variant of the arch, whatever its versions), as ddi_type_fact_at. */
struct ddi_type_fact ddi_model_fact(const struct ddi_model_field *f, int arch, int version);

/* A page operand (<docs>) of the rule, or NULL. */
const char *ddi_model_docs_operand(const struct ddi_model_rule *r, const char *name);
/* The first of a page's operands with that name, or NULL (a <docs> rule's
 * own, when no merged rule carries it: ddi_model.docs_rules). */
const char *ddi_model_operand_named(const struct ddi_model_docs_operand *ops, size_t n, const char *name);

#endif
