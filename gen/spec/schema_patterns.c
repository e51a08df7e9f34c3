/* Pattern facets taken out of the RELAX NG grammar and checked here, each
 * expression compiled once per document instead of once per value (see
 * docs/ARCHITECTURE.md, "generate": the schema checks). */
#include "schema_patterns.h"

#include <libxml/hash.h>
#include <libxml/xmlregexp.h>
#include <stdlib.h>
#include <string.h>

#define RNG_NS "http://relaxng.org/ns/structure/1.0"
#define XSD_LIBRARY "http://www.w3.org/2001/XMLSchema-datatypes"

/* An attribute on the elements of one name, over every grammar. */
struct pair {
    xmlChar *element, *attribute;
    xmlChar *pattern; /* the pattern every declaration has; NULL: one has none */
    int integer;      /* pattern names an XSD integer type (xsd_integer_holds) */
    int seen;         /* declared at least once */
    int mixed;        /* declarations differ, or an element is not known by name */
    int taken;        /* a facet of it was taken out: checked here */
};

struct schema_patterns {
    struct pair *pairs;
    size_t n, cap;
    xmlHashTablePtr taken; /* element, attribute -> struct pair (taken only) */
};

static int is_rng(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->ns && xmlStrEqual(n->ns->href, BAD_CAST RNG_NS) &&
           xmlStrEqual(n->name, BAD_CAST name);
}

/* The only element child of n, or NULL when it has none or several. */
static xmlNodePtr only_child(xmlNodePtr n)
{
    xmlNodePtr one = NULL;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (one)
            return NULL;
        one = c;
    }
    return one;
}

static xmlChar *name_of(xmlNodePtr n)
{
    return xmlGetNoNsProp(n, BAD_CAST "name");
}

static int name_is(xmlNodePtr n, const xmlChar *name)
{
    xmlChar *v = name_of(n);
    int same = v && xmlStrEqual(v, name);
    xmlFree(v);
    return same;
}

/* What the grammar may hold that the analysis below does not follow; a
 * grammar with any of it keeps all its facets. */
static int follows(xmlNodePtr n, int main_grammar, int depth)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_rng(n, "parentRef") || is_rng(n, "include") || (is_rng(n, "grammar") && depth > 0) ||
            (is_rng(n, "externalRef") && !main_grammar) || is_rng(n, "anyName") || is_rng(n, "nsName") ||
            xmlHasNsProp(n, BAD_CAST "combine", NULL) || xmlHasNsProp(n, BAD_CAST "ns", NULL) ||
            (is_rng(n, "attribute") && !xmlHasNsProp(n, BAD_CAST "name", NULL)))
            return 0;
        if (!follows(n->children, main_grammar, depth + 1))
            return 0;
    }
    return 1;
}

static xmlNodePtr find_define(xmlNodePtr n, const xmlChar *name)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_rng(n, "define") && name_is(n, name))
            return n;
        xmlNodePtr d = find_define(n->children, name);
        if (d)
            return d;
    }
    return NULL;
}

/* The data element a pattern resolves to through references, or NULL. */
static xmlNodePtr data_of(xmlDocPtr g, xmlNodePtr content)
{
    for (int depth = 0; content && is_rng(content, "ref") && depth < 32; depth++) {
        xmlChar *name = name_of(content);
        xmlNodePtr def = name ? find_define(xmlDocGetRootElement(g), name) : NULL;
        xmlFree(name);
        content = def ? only_child(def) : NULL;
    }
    return content && is_rng(content, "data") ? content : NULL;
}

/* The XSD integer types of the grammar (no facets), checked here as
 * libxml2's datatype library checks them (xmlSchemaValAtomicType): blanks
 * around the value (its whitespace is collapsed), a sign, a first digit,
 * at most 24 digits after the leading zeros (xmlSchemaParseUInt), and the
 * type's range by sign and zero. */
static const char *const integer_types[] = {"integer", "nonNegativeInteger", "positiveInteger"};

static int is_integer_type(const xmlChar *type)
{
    for (size_t i = 0; type && i < sizeof integer_types / sizeof integer_types[0]; i++)
        if (xmlStrEqual(type, BAD_CAST integer_types[i]))
            return 1;
    return 0;
}

static int blank(xmlChar c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int schema_patterns_integer_holds(const char *xsd_type, const xmlChar *v)
{
    if (!is_integer_type(BAD_CAST xsd_type))
        return -1;
    while (blank(*v))
        v++;
    int negative = *v == '-';
    if (*v == '-' || *v == '+')
        v++;
    if (*v < '0' || *v > '9')
        return 0;
    while (*v == '0')
        v++;
    size_t significant = 0;
    for (; *v >= '0' && *v <= '9'; v++)
        significant++;
    while (blank(*v))
        v++;
    if (*v || significant > 24)
        return 0;
    if (!strcmp(xsd_type, "positiveInteger"))
        return !negative && significant;
    if (!strcmp(xsd_type, "nonNegativeInteger"))
        return !negative || !significant;
    return 1;
}

static int in_xsd_library(xmlNodePtr data)
{
    xmlChar *library = NULL;
    for (xmlNodePtr up = data; up && up->type == XML_ELEMENT_NODE && !library; up = up->parent)
        library = xmlGetNoNsProp(up, BAD_CAST "datatypeLibrary");
    int xsd = library && xmlStrEqual(library, BAD_CAST XSD_LIBRARY);
    xmlFree(library);
    return xsd;
}

/* What decides a data element's values exactly as libxml2 does: its
 * pattern facet when it holds that alone on an XSD string, or the type's
 * name (*integer set) for an XSD integer type without facets; or NULL. */
static xmlChar *lone_pattern(xmlNodePtr data, int *integer)
{
    *integer = 0;
    if (!data || !in_xsd_library(data))
        return NULL;
    xmlChar *type = xmlGetNoNsProp(data, BAD_CAST "type");
    int string = type && xmlStrEqual(type, BAD_CAST "string");
    xmlNodePtr param = only_child(data);
    if (is_integer_type(type) && !param) {
        *integer = 1;
        return type;
    }
    xmlFree(type);
    if (!string || !is_rng(param, "param"))
        return NULL;
    xmlChar *facet = name_of(param);
    int pattern = facet && xmlStrEqual(facet, BAD_CAST "pattern");
    xmlFree(facet);
    return pattern ? xmlNodeGetContent(param) : NULL;
}

/* An XSD string without facets: any value, as <text/> says without
 * asking the datatype library (a hash lookup of the type per value, a
 * fifth of a real kit's spec check). */
static int plain_string(xmlNodePtr data)
{
    if (!data || only_child(data) || !in_xsd_library(data))
        return 0;
    xmlChar *type = xmlGetNoNsProp(data, BAD_CAST "type");
    int string = type && xmlStrEqual(type, BAD_CAST "string");
    xmlFree(type);
    return string;
}

/* Element names in out (owned), the elements an attribute declaration
 * or reference at n can be on: its nearest element, or, through a define,
 * those of every reference to it. -1 when one is not known by name. */
struct names {
    xmlChar **items;
    size_t n, cap;
};

static int names_add(struct names *s, xmlChar *name)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        xmlChar **items = realloc(s->items, cap * sizeof *items);
        if (!items) {
            xmlFree(name);
            return -1;
        }
        s->items = items;
        s->cap = cap;
    }
    s->items[s->n++] = name;
    return 0;
}

static void names_free(struct names *s)
{
    for (size_t i = 0; i < s->n; i++)
        xmlFree(s->items[i]);
    free(s->items);
}

static int contexts(xmlDocPtr g, xmlNodePtr n, struct names *out, int depth);

static int contexts_of_refs(xmlDocPtr g, xmlNodePtr n, const xmlChar *define, struct names *out, int depth)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_rng(n, "ref") && name_is(n, define) && contexts(g, n, out, depth + 1) != 0)
            return -1;
        if (contexts_of_refs(g, n->children, define, out, depth) != 0)
            return -1;
    }
    return 0;
}

static int contexts(xmlDocPtr g, xmlNodePtr n, struct names *out, int depth)
{
    if (depth > 32)
        return -1;
    for (xmlNodePtr p = n->parent; p && p->type == XML_ELEMENT_NODE; p = p->parent) {
        if (is_rng(p, "element")) {
            xmlChar *name = name_of(p);
            return name ? names_add(out, name) : -1;
        }
        if (is_rng(p, "define")) {
            xmlChar *name = name_of(p);
            int rc = name ? contexts_of_refs(g, xmlDocGetRootElement(g), name, out, depth) : -1;
            xmlFree(name);
            return rc;
        }
        if (is_rng(p, "start") || is_rng(p, "grammar"))
            return -1;
    }
    return -1;
}

static struct pair *pair_of(struct schema_patterns *p, const xmlChar *element, const xmlChar *attribute)
{
    for (size_t i = 0; i < p->n; i++)
        if ((p->pairs[i].element == element ||
             (element && p->pairs[i].element && xmlStrEqual(p->pairs[i].element, element))) &&
            xmlStrEqual(p->pairs[i].attribute, attribute))
            return &p->pairs[i];
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        struct pair *pairs = realloc(p->pairs, cap * sizeof *pairs);
        if (!pairs)
            return NULL;
        p->pairs = pairs;
        p->cap = cap;
    }
    struct pair *new = &p->pairs[p->n++];
    memset(new, 0, sizeof *new);
    new->element = element ? xmlStrdup(element) : NULL;
    new->attribute = xmlStrdup(attribute);
    return new;
}

/* One attribute declaration, recorded on every pair it makes. */
static int record_declaration(struct schema_patterns *p, xmlDocPtr g, xmlNodePtr attr)
{
    xmlChar *name = name_of(attr);
    int integer;
    xmlChar *pattern = lone_pattern(data_of(g, only_child(attr)), &integer);
    struct names where = {0};
    int known = contexts(g, attr, &where, 0) == 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < (known ? where.n : 1); i++) {
        struct pair *one = pair_of(p, known ? where.items[i] : NULL, name);
        if (!one) {
            rc = -1;
        } else if (!known) {
            one->mixed = 1;
        } else if (!one->seen) {
            one->seen = 1;
            one->pattern = pattern ? xmlStrdup(pattern) : NULL;
            one->integer = integer;
            one->mixed = !pattern;
        } else {
            one->mixed |= !pattern || !one->pattern || !xmlStrEqual(one->pattern, pattern) || one->integer != integer;
        }
    }
    names_free(&where);
    xmlFree(pattern);
    xmlFree(name);
    return rc;
}

static int record_all(struct schema_patterns *p, xmlDocPtr g, xmlNodePtr n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_rng(n, "attribute") && record_declaration(p, g, n) != 0)
            return -1;
        if (record_all(p, g, n->children) != 0)
            return -1;
    }
    return 0;
}

/* A pair is clean when every declaration agrees on one pattern and no
 * element name of any grammar could hide another declaration: an
 * attribute name declared where the element is not known by name (pair
 * with no element) makes every pair of that name mixed. */
static int pair_clean(const struct schema_patterns *p, const struct pair *one)
{
    if (one->mixed || !one->pattern)
        return 0;
    for (size_t i = 0; i < p->n; i++)
        if (!p->pairs[i].element && xmlStrEqual(p->pairs[i].attribute, one->attribute))
            return 0;
    return 1;
}

/* Every pair an attribute declaration makes is clean (mark: marks them
 * taken). */
static int declaration_clean(struct schema_patterns *p, xmlDocPtr g, xmlNodePtr attr, int mark)
{
    xmlChar *name = name_of(attr);
    struct names where = {0};
    int ok = name && contexts(g, attr, &where, 0) == 0 && where.n;
    for (size_t j = 0; ok && j < where.n; j++) {
        struct pair *one = pair_of(p, where.items[j], name);
        ok = one && pair_clean(p, one);
        if (ok && mark)
            one->taken = 1;
    }
    names_free(&where);
    xmlFree(name);
    return ok;
}

/* An attribute's value pattern becomes <text/> (any value). */
static int replace_with_text(xmlDocPtr g, xmlNodePtr value)
{
    xmlNodePtr text = xmlNewDocNode(g, value->ns, BAD_CAST "text", NULL);
    if (!text)
        return -1;
    xmlReplaceNode(value, text);
    xmlFreeNode(value);
    return 0;
}

/* In a grammar, the value of each attribute declaration whose pairs
 * are all clean becomes <text/>: its pattern (through references or not)
 * is checked here; so does a plain XSD string's, which needs no check.
 * Defines stay as they are, for the declarations that keep them. */
static void take_facets(struct schema_patterns *p, xmlDocPtr g, xmlNodePtr n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (!is_rng(n, "attribute")) {
            take_facets(p, g, n->children);
            continue;
        }
        xmlNodePtr value = only_child(n);
        xmlNodePtr data = value ? data_of(g, value) : NULL;
        int integer;
        xmlChar *pattern = lone_pattern(data, &integer);
        if (pattern && declaration_clean(p, g, n, 0) && replace_with_text(g, value) == 0)
            declaration_clean(p, g, n, 1);
        else if (!pattern && plain_string(data))
            (void)replace_with_text(g, value);
        xmlFree(pattern);
    }
}

static void free_pairs(struct schema_patterns *p)
{
    for (size_t i = 0; i < p->n; i++) {
        xmlFree(p->pairs[i].element);
        xmlFree(p->pairs[i].attribute);
        xmlFree(p->pairs[i].pattern);
    }
    free(p->pairs);
    xmlHashFree(p->taken, NULL);
    free(p);
}

struct schema_patterns *schema_patterns_take(xmlDocPtr grammar, xmlDocPtr *others, size_t n_others)
{
    if (!grammar || !follows(xmlDocGetRootElement(grammar), 1, 0))
        return NULL;
    for (size_t i = 0; i < n_others; i++)
        if (!others[i] || !follows(xmlDocGetRootElement(others[i]), 0, 0))
            return NULL;
    struct schema_patterns *p = calloc(1, sizeof *p);
    int rc = p ? record_all(p, grammar, xmlDocGetRootElement(grammar)) : -1;
    for (size_t i = 0; rc == 0 && i < n_others; i++)
        rc = record_all(p, others[i], xmlDocGetRootElement(others[i]));
    if (rc != 0) {
        if (p)
            free_pairs(p);
        return NULL;
    }
    /* The table first: a grammar changed with no table to check what was
     * taken out of it would accept what the schema refuses. */
    p->taken = xmlHashCreate(64);
    if (!p->taken) {
        free_pairs(p);
        return NULL;
    }
    take_facets(p, grammar, xmlDocGetRootElement(grammar));
    for (size_t i = 0; i < n_others; i++)
        take_facets(p, others[i], xmlDocGetRootElement(others[i]));
    size_t taken = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->pairs[i].taken && xmlHashAddEntry2(p->taken, p->pairs[i].element, p->pairs[i].attribute,
                                                  &p->pairs[i]) == 0)
            taken++;
    if (!taken) {
        free_pairs(p);
        return NULL;
    }
    return p;
}

/* ---- checking a document ---------------------------------------------- */

struct compiled {
    const xmlChar *pattern;
    xmlRegexpPtr re;
};

/* The expressions, compiled per check (a thread of its own each time:
 * nothing compiled is shared between threads). */
struct check {
    const struct schema_patterns *p;
    xmlDocPtr doc;
    struct compiled *re;
    size_t n;
};

static xmlRegexpPtr regexp_of(struct check *c, const xmlChar *pattern)
{
    for (size_t i = 0; i < c->n; i++)
        if (xmlStrEqual(c->re[i].pattern, pattern))
            return c->re[i].re;
    xmlRegexpPtr re = xmlRegexpCompile(pattern);
    if (re) {
        c->re[c->n].pattern = pattern;
        c->re[c->n++].re = re;
    }
    return re;
}

static int text_holds(struct check *c, const struct pair *one, const xmlChar *v)
{
    if (one->integer)
        return schema_patterns_integer_holds((const char *)one->pattern, v) == 1;
    xmlRegexpPtr re = regexp_of(c, one->pattern);
    return re && xmlRegexpExec(re, v) == 1;
}

static int value_holds(struct check *c, const struct pair *one, xmlAttrPtr a)
{
    xmlNodePtr t = a->children;
    if (t && t->type == XML_TEXT_NODE && !t->next)
        return text_holds(c, one, t->content ? t->content : BAD_CAST "");
    xmlChar *v = xmlNodeListGetString(c->doc, a->children, 1);
    int ok = text_holds(c, one, v ? v : BAD_CAST "");
    xmlFree(v);
    return ok;
}

static int element_holds(struct check *c, xmlNodePtr e)
{
    if (e->ns)
        return 1; /* no element of the grammar has a namespace */
    for (xmlAttrPtr a = e->properties; a; a = a->next) {
        if (a->ns)
            continue;
        const struct pair *one = xmlHashLookup2(c->p->taken, e->name, a->name);
        if (one && !value_holds(c, one, a))
            return 0;
    }
    return 1;
}

int schema_patterns_hold(const struct schema_patterns *p, xmlDocPtr doc)
{
    struct check c = {.p = p, .doc = doc, .re = calloc(p->n ? p->n : 1, sizeof *c.re)};
    int ok = c.re != NULL;
    xmlNodePtr n = xmlDocGetRootElement(doc);
    while (ok && n) {
        ok = element_holds(&c, n);
        xmlNodePtr next = n->children;
        while (next && next->type != XML_ELEMENT_NODE)
            next = next->next;
        if (!next) {
            for (; n && n->type == XML_ELEMENT_NODE; n = n->parent) {
                for (next = n->next; next && next->type != XML_ELEMENT_NODE; next = next->next)
                    ;
                if (next)
                    break;
            }
        }
        n = next;
    }
    for (size_t i = 0; c.re && i < c.n; i++)
        xmlRegFreeRegexp(c.re[i].re);
    free(c.re);
    return ok;
}

