/* What one parse (one architecture x one DDI interface version) yields, in
 * the shape of the merged layout model but without "where" sets. */
#ifndef DDIGEN_CONFIG_MODEL_H
#define DDIGEN_CONFIG_MODEL_H

#include "../spec/layout.h"
#include "../util/arena.h"

#include <stdint.h>

struct cfg_record;

/* A type as the target compiler sees it (clang's canonical type). */
struct cfg_type_facts {
    uint64_t bytes;  /* DDI_BYTES_UNKNOWN when clang cannot say (incomplete) */
    unsigned scalar; /* enum ddi_scalar, | DDI_TYPE_ENUM, | pointee << DDI_POINTEE_SHIFT */
};

struct cfg_field {
    const char *name, *path, *type, *canonical, *sal, *array;
    const char *comment_dir;   /* "in", "out", "both" from the header's own comment, or NULL */
    const char *spelled;       /* the declarator as written when a macro made the name, else NULL */
    int bit_width;
    unsigned line;
    unsigned source_offset;    /* where it is declared: fixes the order */
    uint64_t offset_bits;      /* from the top-level record */
    struct cfg_type_facts facts; /* of the declared type; of one element for an array */
    struct cfg_record *nested; /* inline record type, or NULL */
};

struct cfg_record {
    const char *name, *tag, *kind, *file;
    const char *cxx_type;      /* C++ spelling when the tag is declared inside another record */
    unsigned line;
    int anonymous;
    int referenced;            /* declared outside the DDI headers, pulled in by a reference */
    uint64_t size, align;
    struct vec fields; /* struct cfg_field* */
};

struct cfg_enumerator {
    const char *name;
    int64_t value;
};

struct cfg_enum {
    const char *name, *tag, *file;
    unsigned line;
    int referenced;
    struct vec values; /* struct cfg_enumerator* */
};

struct cfg_typedef {
    const char *name, *type, *canonical, *file;
    unsigned line;
    struct cfg_type_facts facts;
};

struct cfg_param {
    const char *name, *type, *sal;
};

struct cfg_functype {
    const char *name, *pointer_to, *result, *sal, *file;
    const char *callconv;      /* "stdcall"/"fastcall" where the target has them (x86), else NULL */
    unsigned line;
    int pointer;               /* typedef R (CC *NAME)(...): a pointer to this signature */
    struct vec params; /* struct cfg_param* */
};

struct cfg_model {
    struct arena arena;
    struct vec records;   /* top-level struct cfg_record* */
    struct vec enums, typedefs, functypes;
    unsigned diag_errors, diag_warnings;
    unsigned unknown_errors;  /* errors not on the known list: the layout cannot be trusted */
    struct vec invalid;       /* "NAME (file:line)" of records clang declared invalid */
    int fatal;            /* the parse could not complete (missing include...) */
};

void cfg_model_free(struct cfg_model *m);

#endif
