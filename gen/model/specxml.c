/* libxml2 helpers for spec documents: attribute access that does not
 * allocate (the stages read hundreds of thousands of attributes) and
 * attribute insertion at a fixed place so output stays canonical. */
#include "specxml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sx_get(xmlNodePtr n, const char *name)
{
    if (!n || n->type != XML_ELEMENT_NODE)
        return NULL;
    for (xmlAttrPtr a = n->properties; a; a = a->next)
        if (!strcmp((const char *)a->name, name))
            return a->children && a->children->content ? (const char *)a->children->content : "";
    return NULL;
}

unsigned long sx_get_ulong(xmlNodePtr n, const char *name, unsigned long dflt)
{
    const char *v = sx_get(n, name);
    if (!v || !*v)
        return dflt;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    return *end ? dflt : x;
}

bool sx_is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

xmlNodePtr sx_next(xmlNodePtr n, const char *name)
{
    for (n = n ? n->next : NULL; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && (!name || !strcmp((const char *)n->name, name)))
            return n;
    return NULL;
}

xmlNodePtr sx_child(xmlNodePtr parent, const char *name)
{
    if (!parent)
        return NULL;
    for (xmlNodePtr n = parent->children; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && (!name || !strcmp((const char *)n->name, name)))
            return n;
    return NULL;
}

void sx_set(xmlNodePtr n, const char *name, const char *value)
{
    if (value)
        xmlSetProp(n, BAD_CAST name, BAD_CAST value);
}

void sx_set_ulong(xmlNodePtr n, const char *name, unsigned long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lu", v);
    xmlSetProp(n, BAD_CAST name, BAD_CAST buf);
}

void sx_set_after(xmlNodePtr n, const char *name, const char *value, const char *after)
{
    xmlAttrPtr existing = xmlHasProp(n, BAD_CAST name);
    if (existing) {
        xmlSetProp(n, BAD_CAST name, BAD_CAST value);
        return;
    }
    xmlAttrPtr a = xmlNewProp(n, BAD_CAST name, BAD_CAST value); /* appended last */
    if (a == n->properties)
        return; /* the only attribute */
    xmlAttrPtr anchor = after ? xmlHasProp(n, BAD_CAST after) : NULL;
    if (anchor == a || (anchor && anchor->next == a))
        return;
    /* unlink a from the tail */
    if (a->prev)
        a->prev->next = NULL;
    a->prev = NULL;
    if (!anchor) {
        a->next = n->properties;
        if (n->properties)
            n->properties->prev = a;
        n->properties = a;
        return;
    }
    a->next = anchor->next;
    if (anchor->next)
        anchor->next->prev = a;
    anchor->next = a;
    a->prev = anchor;
}

xmlNodePtr sx_add(xmlNodePtr parent, const char *name)
{
    return xmlNewChild(parent, NULL, BAD_CAST name, NULL);
}

xmlNodePtr sx_part(xmlDocPtr doc, const char *name)
{
    return doc ? sx_child(xmlDocGetRootElement(doc), name) : NULL;
}

void sx_insert_part(xmlNodePtr root, xmlNodePtr child, const char *const *before_names)
{
    xmlNodePtr last = NULL;
    for (xmlNodePtr n = root->children; n; n = n->next)
        for (const char *const *b = before_names; *b; b++)
            if (sx_is(n, *b))
                last = n;
    if (last)
        xmlAddNextSibling(last, child);
    else if (root->children)
        xmlAddPrevSibling(root->children, child);
    else
        xmlAddChild(root, child);
}

xmlNodePtr sx_operand(xmlNodePtr rule, const char *name)
{
    for (xmlNodePtr o = sx_child(rule, "operand"); o; o = sx_next(o, "operand")) {
        const char *n = sx_get(o, "name");
        if (n && !strcmp(n, name))
            return o;
    }
    return NULL;
}

const char *sx_operand_value(xmlNodePtr rule, const char *name)
{
    return sx_get(sx_operand(rule, name), "value");
}
