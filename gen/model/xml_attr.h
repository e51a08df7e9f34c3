/* Reading a spec element without allocating: an attribute's text as it
 * lies in the tree, and an element test. For gen/model, which sits below
 * gen/spec (whose specxml.h has the same for the stages above). */
#ifndef DDIGEN_MODEL_XML_ATTR_H
#define DDIGEN_MODEL_XML_ATTR_H

#include <libxml/tree.h>
#include <string.h>

/* The value of attribute name, or NULL; points into the tree. */
static inline const char *ddi_xml_attr(xmlNodePtr n, const char *name)
{
    for (xmlAttrPtr a = n ? n->properties : NULL; a; a = a->next)
        if (!strcmp((const char *)a->name, name) && a->children && a->children->type == XML_TEXT_NODE)
            return (const char *)a->children->content;
    return NULL;
}

static inline int ddi_xml_is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

#endif
