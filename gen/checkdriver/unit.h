/* One translation unit of the driver, parsed with libclang and reduced to
 * what check-driver compares: the driver's function definitions (canonical
 * signature, spelled SAL, PAGED_CODE, code segment), the callback roles it
 * binds (init-data members assigned, role typedef declarations) and the
 * canonical signature of each DDI role typedef as this unit sees it. */
#ifndef DDIGEN_CHECKDRIVER_UNIT_H
#define DDIGEN_CHECKDRIVER_UNIT_H

#include "ddi_side.h"

#include "../util/arena.h"
#include "../util/strmap.h"

struct cd_loc {
    const char *file;
    unsigned line, column;
};

/* A function given a DDI role: assigned to an init-data member or
 * declared through the role typedef. */
struct cd_binding {
    const char *function; /* qualified name (Class::Name in C++) */
    const char *role;     /* the function typedef, DXGKDDI_PATCH */
    struct cd_loc at;
};

/* A function type as canonical spellings of this unit (C and C++ units
 * spell the same type differently, so signatures compare within a unit). */
struct cd_signature {
    const char *result;
    int callconv; /* enum CXCallingConv */
    unsigned nparams;
    const char **params;
    struct cd_loc at;
};

struct cd_param {
    const char *name;
    const char *sal; /* as spelled before the name, or NULL */
    struct cd_loc at;
};

struct cd_definition {
    const char *function;
    struct cd_loc at;
    struct cd_signature sig;
    struct cd_param *params;
    int use_decl_annotations; /* the SAL is the declaration's */
    int paged_code;           /* PAGED_CODE() in the body */
    const char *segment;      /* the code section it is placed in (PAGE), or NULL */
    const char *segment_how;  /* "#pragma alloc_text", "#pragma code_seg", "__declspec(code_seg)" */
    const struct cd_unit *unit;
};

struct cd_unit {
    const char *source;
    struct arena arena;
    struct vec bindings;     /* struct cd_binding* */
    struct vec definitions;  /* struct cd_definition* */
    struct strmap role_sigs; /* role typedef name -> struct cd_signature* */
};

/* Parses source with args (its compile flags, the source among them) and
 * fills unit. 0; 1 when the source does not compile (clang's errors
 * reported at their file:line); -1 when it cannot be read (reported). */
int cd_unit_scan(struct cd_unit *unit, struct ddi_side *ddi, const char *source, const char *kit_root,
                 const char *const *args, int nargs);
void cd_unit_free(struct cd_unit *unit);

#endif
