/* The skeleton's command-line options (--ddi-version, --ddi-list FILE, --all,
 * --driver-kind) as template parameters, and their check against the spec
 * before anything is rendered, so a name that matches nothing writes nothing. */
#ifndef DDIGEN_SKELETON_OPTS_H
#define DDIGEN_SKELETON_OPTS_H

#include "../util/arena.h"

#include <libxml/tree.h>

/* getopt codes of the options, shared by emit and generate. */
enum {
    SKELETON_OPT_DDI_VERSION = 400,
    SKELETON_OPT_DDI_LIST,
    SKELETON_OPT_ALL,
    SKELETON_OPT_DRIVER_KIND,
    SKELETON_OPT_CALLBACK_NAME,
    SKELETON_OPT_THUNKS,
    SKELETON_OPT_RECORDS
};

#define SKELETON_LONG_OPTIONS                                                                                          \
    {"ddi-list", required_argument, NULL, SKELETON_OPT_DDI_LIST}, {"all", no_argument, NULL, SKELETON_OPT_ALL},        \
        {"driver-kind", required_argument, NULL, SKELETON_OPT_DRIVER_KIND},                                            \
        {"callback-name", required_argument, NULL, SKELETON_OPT_CALLBACK_NAME},                                        \
        {"records", required_argument, NULL, SKELETON_OPT_RECORDS},                                                    \
    {                                                                                                                  \
        "thunks", required_argument, NULL, SKELETON_OPT_THUNKS                                                         \
    }

#define SKELETON_USAGE                                                                                                 \
    "  --ddi-list FILE     skeleton callbacks, one name a line (DxgkDdiX, DXGKDDI_X or X; # comments),\n"              \
    "                      optionally '= MyFunction' (the driver's name for it; Class::Name in C++)\n"                 \
    "  --callback-name P   the driver's names: P with %s for the callback without DxgkDdi (MyDdi%s,\n"                 \
    "                      MyDriver::%s for static members; default drv_%s)\n"                                         \
    "  --thunks all|none   none: the fill puts the driver's functions in the table (no thunks, no\n"                   \
    "                      validation on the way in)\n"                                                                \
    "  --all               skeleton of every callback, every family for every record (the default)\n"                \
    "  --driver-kind K     full (DRIVER_INITIALIZATION_DATA) or display-only (KMDDOD_INITIALIZATION_DATA)\n"      \
    "  With --ddi-list, every family but the asserts covers only the records the listed callbacks'\n"             \
    "  parameters reach (through pointers, embedded records, arrays and unions), plus:\n"                        \
    "  --records A,B       records the driver also needs (a record's name or tag); a line\n"                \
    "                      'records: A, B' in the list does the same\n"

/* Pushes the parameter (NAME=VALUE in a) for a skeleton option onto params;
 * 0, or -1 after reporting (an unreadable or malformed list file). */
int skeleton_option(int code, const char *arg, struct vec *params, struct arena *a);

/* Checks ddi-version (V, V1..V2, V1.., ..V2), driver-kind and ddi-list among params (NULL-terminated
 * NAME=VALUE) against the spec; 0, or -1 after reporting each problem. */
int skeleton_check_params(xmlDocPtr spec, const char *spec_path, const char *const *params);

/* What can be checked before a kit is parsed (a build's configure step,
 * generate before libclang): the ddi-list's names against the callback
 * members the kit at wdk declares at any of its DDI versions (its headers
 * read as text), else against the previous spec; the rest of
 * skeleton_check_params against the previous spec when there is one. The
 * kit is preferred for the names: a previous spec made from an older kit
 * lacks what the new one added. wdk and previous may be NULL; 0, or -1
 * after reporting each problem (a name: at its line of the list, with the
 * nearest callback's name when one is near). */
int skeleton_check_before_parse(const char *wdk, xmlDocPtr previous, const char *previous_path,
                                const char *const *params);

/* Adds the skeleton's part of emit's derived view (view.h; after
 * emit_view_add), so its templates print and decide nothing: dv:chosen on
 * the chosen <version> (the newest when none is given), dv:at-chosen on the
 * function types, initialization records and callback members that exist
 * at it, dv:listed on the callback members the ddi-list names. */
void skeleton_view_add(xmlDocPtr spec, const char *const *params);

/* The last value params (NULL-terminated NAME=VALUE) give NAME, or NULL. */
const char *skeleton_param(const char *const *params, const char *name);
/* The initialization record --driver-kind names. */
const char *skeleton_kind_record(const char *const *params);
/* Whether the --ddi-list names a callback member (by its name, its role
 * typedef or its name without DxgkDdi); every member without a list or
 * with --all. */
int skeleton_member_listed(const char *const *params, const char *member, const char *role);

#endif
