/* The derived view emit adds to the spec before rendering (view.c): the
 * facts templates print instead of deciding, in urn:ddigen:view. */
#ifndef DDIGEN_EMIT_VIEW_H
#define DDIGEN_EMIT_VIEW_H

#include <libxml/tree.h>

#define EMIT_VIEW_NS "urn:ddigen:view"

/* Adds the view to a valid, semantically checked spec; 0, or -1 after
 * reporting. spec_name names the spec in messages. */
int emit_view_add(xmlDocPtr spec, const char *spec_name);
/* Takes every attribute of the view out of the spec again. */
void emit_view_remove(xmlDocPtr spec);
/* dv:guard on the validation plan's gated nodes (under plan_root, a
 * document of its own), with the spec's versions, and dv:c-type on its
 * records; 0 or -1. */
int emit_view_guard_plan(xmlDocPtr spec, xmlNodePtr plan_root);

#endif
