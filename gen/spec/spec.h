/* `ddigen spec`: the layout and the docs merged into one spec with stable
 * IDs, and `ddigen lint`: the findings of reconciling the two views. */
#ifndef DDIGEN_SPEC_H
#define DDIGEN_SPEC_H

#include <libxml/tree.h>

struct spec_build_options {
    const char *overrides;      /* spec/overrides.xml, or NULL */
    const char *previous;       /* previous spec (IDs kept), or NULL */
    /* The previous spec already loaded and checked (history chains the
     * kits in one process), or NULL: previous is read. Only read; previous
     * still names it in messages. */
    xmlDocPtr previous_doc;
    const char *reviewed;       /* spec/reviewed.xml, or NULL */
};

/* Builds the spec from a layout document and a docs document (may be
 * NULL). Their <layout> and <docs> parts move into the new document, so
 * the inputs are left without them (free them as usual). Returns the new
 * document, or NULL after reporting errors (bad overrides, bad previous
 * spec). */
xmlDocPtr spec_build(xmlDocPtr layout, xmlDocPtr docs, const struct spec_build_options *opt);

int ddigen_cmd_spec(int argc, char **argv);
int ddigen_cmd_lint(int argc, char **argv);

#endif
