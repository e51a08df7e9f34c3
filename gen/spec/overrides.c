/* Reads spec/overrides.xml, validated against the embedded overrides.rng
 * (the grammar is self-contained, so it compiles from memory). */
#include "overrides.h"

#include "schema.h"
#include "../model/specxml.h"

#include "../util/diag.h"
#include "../util/output.h"

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <stdlib.h>
#include <string.h>

struct embedded_file {
    const char *name;
    const unsigned char *data;
    size_t len;
};
extern const struct embedded_file ddigen_embedded_schemas[];

const char *override_kind_name(enum override_kind k)
{
    switch (k) {
    case OVR_UNION_MEMBER: return "union-member";
    case OVR_FIELD_MATCH: return "field-match";
    case OVR_WRITES: return "writes";
    }
    return "?";
}

static void report(void *ctx, xmlErrorPtr err)
{
    if (!err || err->level < XML_ERR_ERROR)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", err->message ? err->message : "invalid");
    size_t n = strlen(msg);
    while (n && msg[n - 1] == '\n')
        msg[--n] = '\0';
    long line = err->node ? xmlGetLineNo(err->node) : err->line;
    ddigen_error((const char *)ctx, (unsigned)(line > 0 ? line : 0), "%s", msg);
}

int overrides_validate_with(xmlDocPtr doc, const char *name, const char *grammar)
{
    const struct embedded_file *f = ddigen_embedded_schemas;
    while (f->name && strcmp(f->name, grammar))
        f++;
    if (!f->name) {
        ddigen_error(NULL, 0, "internal error: %s is not embedded", grammar);
        return -1;
    }
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt((const char *)f->data, (int)f->len);
    xmlRelaxNGPtr schema = xmlRelaxNGParse(pc);
    xmlRelaxNGFreeParserCtxt(pc);
    if (!schema) {
        ddigen_error(NULL, 0, "internal error: %s does not compile", grammar);
        return -1;
    }
    xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
    xmlRelaxNGSetValidStructuredErrors(vc, report, (void *)name);
    int rc = xmlRelaxNGValidateDoc(vc, doc);
    xmlRelaxNGFreeValidCtxt(vc);
    xmlRelaxNGFree(schema);
    return rc == 0 ? 0 : -1;
}

static const char *reason_of(xmlNodePtr n)
{
    xmlNodePtr r = sx_child(n, "reason");
    return r && r->children && r->children->content ? (const char *)r->children->content : "";
}

xmlDocPtr overrides_read_valid(const char *path, const char *grammar)
{
    xmlDocPtr doc = spec_read_xml_file(path);
    if (doc && overrides_validate_with(doc, path, grammar) != 0) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    return doc;
}

int overrides_load(struct overrides *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->name = path;
    if (!(o->doc = overrides_read_valid(path, "overrides.rng")))
        return -1;
    for (xmlNodePtr n = sx_child(xmlDocGetRootElement(o->doc), NULL); n; n = sx_next(n, NULL)) {
        struct override *v = arena_alloc(&o->a, sizeof *v);
        v->kind = sx_is(n, "union-member") ? OVR_UNION_MEMBER : sx_is(n, "field-match") ? OVR_FIELD_MATCH : OVR_WRITES;
        v->record = sx_get(n, "record");
        v->enum_name = sx_get(n, "enum");
        v->value = sx_get(n, "value");
        v->member = sx_get(n, "member");
        v->doc = sx_get(n, "doc");
        v->field = sx_get(n, "field");
        v->reason = reason_of(n);
        v->line = (unsigned)xmlGetLineNo(n);
        vec_push(&o->items, v);
    }
    return 0;
}

void overrides_free(struct overrides *o)
{
    xmlFreeDoc(o->doc);
    vec_free(&o->items);
    arena_free(&o->a);
    memset(o, 0, sizeof *o);
}
