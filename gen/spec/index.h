/* An index over the <layout> of a spec document: records (top-level and
 * nested), fields by path, enums and their values, typedefs and versions,
 * for the stages that reconcile the layout with the docs (merge, lint). */
#ifndef DDIGEN_SPEC_INDEX_H
#define DDIGEN_SPEC_INDEX_H

#include "../model/vset.h"
#include "../util/arena.h"
#include "../util/strmap.h"

#include <libxml/tree.h>

struct srec;

struct sfield {
    xmlNodePtr node;
    const char *name, *path, *type;
    int bits;                /* bit width, -1 when not a bitfield */
    const char *versions;    /* existence, NULL = every version */
    unsigned long id;        /* 0 when the spec has no IDs */
    unsigned line;
    long offset;             /* bit offset from the top-level record (first arch listed) */
    struct srec *owner;      /* the record element that holds it */
    struct srec *nested;     /* inline record, or NULL */
    struct sfield *same_path; /* next field with the same path (alternatives) */
    unsigned documented;     /* doc members matched to it */
};

struct srec {
    xmlNodePtr node;
    const char *name, *kind, *file, *versions;
    unsigned line;
    unsigned long id;
    int anonymous;
    struct srec *top;
    struct sfield *holder;   /* the field of the parent that holds a nested record */
    struct vec fields;       /* direct children, struct sfield* */
    struct vec all;          /* top-level only: every field, all depths, document order */
    struct strmap by_path;   /* top-level only: path -> first struct sfield* */
    struct strmap by_spelled; /* top-level only: path as written before a macro made the name */
};

struct svalue {
    xmlNodePtr node;
    const char *name;
    long long value;
    const char *versions;
    unsigned long id;
    struct senum *owner;
};

struct senum {
    xmlNodePtr node;
    const char *name, *file, *versions;
    unsigned line;
    unsigned long id;
    struct vec values; /* struct svalue* */
};

struct sfunc {
    xmlNodePtr node;
    const char *name, *file;
    unsigned line;
};

struct spec_index {
    struct arena a;
    struct strmap records;  /* every record by name; top-level ones also by tag */
    struct strmap enums;    /* by name and tag */
    struct strmap values;   /* enum value name -> struct svalue* */
    struct strmap typedefs; /* name -> spelled underlying type */
    struct strmap funcs;    /* function types by name */
    struct vec tops;        /* top-level struct srec*, document order */
    struct vec enum_list;   /* struct senum* */
    struct vec all_records; /* every struct srec* */
    struct ddi_versions where; /* the layout's versions (archs not read) */
};

void spec_index_build(struct spec_index *ix, xmlDocPtr doc);
void spec_index_free(struct spec_index *ix);

struct srec *spec_index_record(const struct spec_index *ix, const char *name);
/* The first field of top (any depth) with this C designator, or NULL. */
struct sfield *spec_index_field(const struct srec *top, const char *path);
/* The field whose designator, written as in the header before a macro
 * made its name (DXGK_ALLOC_RESERVED0 for Reserved0), is path; or NULL. */
struct sfield *spec_index_field_spelled(const struct srec *top, const char *path);
/* The record a field type names (typedefs followed, const/struct/union
 * dropped; pointers are not followed), or NULL. */
struct srec *spec_index_type_record(const struct spec_index *ix, const char *type);
struct senum *spec_index_type_enum(const struct spec_index *ix, const char *type);
/* Position of a version (full or short name) in the spec's ordered list,
 * or -1. */
int spec_version_index(const struct spec_index *ix, const char *name);
/* First and last version index of a "WDDM2_0-WDDM3_1 WDDM3_2" set; a NULL
 * set means every version (0 and nversions-1). -1 when unparsable. */
int spec_versions_first(const struct spec_index *ix, const char *set);
int spec_versions_last(const struct spec_index *ix, const char *set);
/* WDDM number of a version short name (VISTA 1.0, WIN7 1.1, WIN8 1.2,
 * WDDM2_9 2.9) times 10, or -1. */
int spec_version_wddm10(const char *short_name);
/* Do two existence sets share a version? */
int spec_versions_overlap(const struct spec_index *ix, const char *a, const char *b);

#endif
