/* Which records a driver's generated code covers (issue 27): with a
 * --ddi-list or --records, the records its callbacks' parameters reach and
 * those it names, closed under what a marshaller or validator descends into;
 * marked in emit's view so each template's record selection reads one mark. */
#ifndef DDIGEN_EMIT_SCOPE_H
#define DDIGEN_EMIT_SCOPE_H

#include "../util/arena.h"
#include "../util/strmap.h"

#include <libxml/tree.h>
#include <stddef.h>
#include <stdio.h>

struct ddi_model;

struct emit_scope {
    int active;          /* a list or --records narrowed it; 0: every record (no marks) */
    struct strmap names; /* record name -> itself, for the records in scope */
    /* Type names the driver's code spells (the fields of the records in
     * scope, the listed callbacks' role typedefs, pointer types and
     * parameters), and the enums they stand for: what a diff about the
     * driver reports besides the records (emit does not read it). */
    struct strmap types;
    struct vec owned; /* the names types holds that the scope allocated */
    size_t in_scope;     /* distinct record names in scope */
    size_t total;        /* distinct record names of the spec */
};

/* Whether the parameters narrow the scope (a ddi-list other than all, or
 * records): only then is a model needed. */
int emit_scope_wanted(const char *const *params);

/* --records with --all (every record): a usage error, before any work;
 * 0 or -1 after reporting. */
int emit_scope_check_options(const char *const *params);

/* The scope the parameters (NAME=VALUE, NULL-terminated: ddi-list,
 * driver-kind, records) ask for, over the model of spec. 0 (inactive when
 * neither a list other than --all nor --records is given), or -1 after
 * reporting a --records name the spec lacks. The names point into m. */
int emit_scope_compute(struct emit_scope *s, const struct ddi_model *m, const char *const *params,
                       const char *spec_path);
void emit_scope_free(struct emit_scope *s);

/* dv:out-of-scope on every <layout> record outside an active scope (after
 * emit_view_add, before rendering; emit_view_remove takes it out again). */
void emit_scope_mark(const struct emit_scope *s, xmlDocPtr spec);

/* The closure's guarantee, checked on what the marshallers will print: a
 * marshalled record in scope names (dv:record) only records in scope. 0, or
 * -1 after reporting each record that breaks it. */
int emit_scope_check_marshal(const struct emit_scope *s, xmlDocPtr spec, const char *spec_path);

/* "records in scope: N of M" for --stats (nothing when inactive). */
void emit_scope_print_stats(const struct emit_scope *s, FILE *out);

#endif
