/* The layout model: every record, field, enum, typedef and function typedef
 * of the DDI, merged over architectures and DDI interface versions. Each
 * fact carries the set of configurations (arch x version) it holds in. */
#ifndef DDIGEN_LAYOUT_H
#define DDIGEN_LAYOUT_H

#include "../util/arena.h"
#include "../util/strmap.h"

#include <stdint.h>

enum ddi_arch { DDI_ARCH_X86, DDI_ARCH_X64, DDI_ARCH_ARM64, DDI_ARCH_COUNT };
#define DDI_MAX_VERSIONS 64

const char *ddi_arch_name(enum ddi_arch arch);
int ddi_arch_parse(const char *name, enum ddi_arch *arch);

/* Where something holds: a version bit mask per architecture. */
struct ddi_where {
    uint64_t versions[DDI_ARCH_COUNT];
};

struct ddi_version {
    const char *name;   /* DXGKDDI_INTERFACE_VERSION_WDDM2_0 */
    uint32_t value;
    const char *aliases; /* other names with the same value, space-separated, or NULL */
};

/* What a field's or typedef's type is to the target compiler (asked of
 * clang, never guessed from a spelling): how its bytes read as a value.
 * Every target is *-pc-windows-msvc: plain char is signed, wchar_t is
 * unsigned short, an enum's integer type is int. */
enum ddi_scalar {
    DDI_SCALAR_NONE,     /* none of the below (incomplete, vector...): not written */
    DDI_SCALAR_SIGNED,   /* signed integer, or an enum whose integer type is signed */
    DDI_SCALAR_UNSIGNED, /* unsigned integer (bool, wchar_t), or such an enum */
    DDI_SCALAR_POINTER,  /* a pointer (unsigned, pointer-sized) */
    DDI_SCALAR_FLOAT,    /* floating point */
    DDI_SCALAR_RECORD,   /* a struct or union: no signedness */
    DDI_SCALAR_COUNT
};
/* A type-facts value packs the scalar class, DDI_TYPE_ENUM when the type
 * is an enumeration (its scalar is then its integer type's), and for a
 * pointer the scalar class of the type under all its pointer levels (T for
 * T **; DDI_SCALAR_NONE for void or a function), shifted by
 * DDI_POINTEE_SHIFT. */
#define DDI_TYPE_ENUM 0x100u
#define DDI_POINTEE_SHIFT 16
/* A type size clang could not give (an incomplete type). */
#define DDI_BYTES_UNKNOWN UINT64_MAX

/* "signed", "unsigned"...; NULL for DDI_SCALAR_NONE. */
const char *ddi_scalar_name(enum ddi_scalar s);

/* One measured value (offset in bits, size+align in bytes, or a type's
 * size and scalar class) and where. */
struct ddi_value {
    enum ddi_arch arch;
    uint64_t versions;
    uint64_t a, b;
};
struct ddi_values {
    struct ddi_value *items;
    size_t len, cap;
};

struct ddi_record;

struct ddi_field {
    const char *name;        /* "" for an anonymous struct/union member */
    const char *path;        /* C designator from the top-level record */
    const char *type;        /* as spelled in the header */
    const char *canonical[DDI_ARCH_COUNT];
    const char *sal;         /* annotations on the declaration, or NULL */
    const char *comment_dir; /* "in", "out", "both": the header's comment after it ("// in: ..."), or NULL */
    const char *array;       /* extents "64" or "2 3", or NULL */
    const char *spelled;     /* declarator as written when a macro made the name, or NULL */
    int bit_width;           /* -1 when not a bitfield */
    unsigned line;
    struct ddi_where where;
    struct ddi_values offsets; /* a = bit offset from the top-level record */
    /* a = bytes of its type (of one element for an array; DDI_BYTES_UNKNOWN),
     * b = scalar, enum and pointee packed (DDI_TYPE_ENUM). Apart from offsets: a record
     * member's size changes by version where its offset does not. */
    struct ddi_values type_facts;
    struct ddi_record *nested; /* inline (unnamed-type) record, or NULL */
};

struct ddi_record {
    const char *name;        /* typedef or tag name; for nested ones a dotted path */
    const char *tag;         /* struct tag, or NULL */
    const char *kind;        /* "struct" or "union" */
    const char *cxx_type;    /* C++ spelling (Outer::_TAG) when declared inside a record */
    const char *file;
    unsigned line;
    int anonymous;           /* an anonymous member (C11) */
    int referenced;          /* outside the DDI headers, pulled in by a reference (MDL) */
    struct ddi_where where;
    struct ddi_values sizes; /* a = size, b = alignment, in bytes */
    struct vec fields;       /* struct ddi_field*, declaration order */
};

struct ddi_enumerator {
    const char *name;
    int64_t value;
    struct ddi_where where;
};

struct ddi_enum {
    const char *name;
    const char *tag;
    const char *file;
    unsigned line;
    int referenced;
    struct ddi_where where;
    struct vec values;       /* struct ddi_enumerator* */
};

struct ddi_typedef {
    const char *name;
    const char *type;        /* underlying type as spelled */
    const char *canonical[DDI_ARCH_COUNT];
    const char *file;
    unsigned line;
    struct ddi_where where;
    struct ddi_values type_facts; /* as a field's */
};

struct ddi_param {
    const char *name;
    const char *type;
    const char *sal;
};

struct ddi_functype {
    const char *name;        /* DXGKDDI_BUILDPAGINGBUFFER or a PFN typedef */
    const char *pointer_to;  /* for PDXGKDDI_X: the function typedef it points to */
    int pointer;             /* typedef R (CC *NAME)(...): NAME is a pointer to this signature */
    const char *result;
    const char *sal;         /* annotations before the declarator */
    const char *callconv;    /* x86 calling convention: "stdcall", "fastcall" or NULL (cdecl) */
    const char *file;
    unsigned line;
    struct ddi_where where;
    struct vec params;       /* struct ddi_param* */
};

struct ddi_layout {
    struct arena arena;
    unsigned arch_mask;              /* bit per enum ddi_arch */
    struct ddi_version versions[DDI_MAX_VERSIONS];
    unsigned nversions;
    struct vec records;              /* top-level struct ddi_record*, sorted by name */
    struct vec enums, typedefs, functypes; /* sorted by name */
    /* Identity -> entry while configurations are merged (header/merge_configs.c);
     * emptied by merge_finish. */
    struct strmap merge_index;
    struct arena merge_arena;
};

void ddi_layout_free(struct ddi_layout *l);
void ddi_values_add(struct arena *a, struct ddi_values *v, enum ddi_arch arch,
                    unsigned version, uint64_t x, uint64_t y);

/* "WDDM2_0-WDDM3_1 WDDM3_2" style text for a version mask; NULL if all. */
char *ddi_versions_text(struct arena *a, const struct ddi_layout *l, uint64_t mask);
/* Short name of a version: the part after DXGKDDI_INTERFACE_VERSION_. */
const char *ddi_version_short(const struct ddi_version *v);

/* XML for the layout, validated against the embedded schema; 0 or -1. */
int ddi_layout_write_xml(const struct ddi_layout *l, const char *path);
/* Appends <layout> under parent (for callers that build a larger spec). */
struct _xmlNode *ddi_layout_to_xml(const struct ddi_layout *l, struct _xmlNode *parent);

#endif
