/* XSLT extension functions for what XSLT 1.0 does badly: C identifiers,
 * hex, all-ones masks, and DDI version sets as preprocessor conditions. */
#include "emit.h"

#include "../util/diag.h"
#include "../util/strbuf.h"

#include <ctype.h>
#include <inttypes.h>
#include <libxslt/extensions.h>
#include <libxslt/xsltutils.h>
#include <libxml/xpathInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DDIGEN_XSLT_NS "urn:ddigen:xslt"

static void return_string(xmlXPathParserContextPtr ctxt, const char *s)
{
    valuePush(ctxt, xmlXPathNewString(BAD_CAST s));
}

/* c-ident("X.(unnamed union).Y") -> "X_unnamed_union_Y" */
static void fn_c_ident(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    struct strbuf sb = {0};
    sb_append_c_ident(&sb, (const char *)s);
    return_string(ctxt, sb_str(&sb));
    sb_free(&sb);
    xmlFree(s);
}

/* validator-name(record, member, dir): the one spelling of a generated
 * validator, ddi_validate_<record>[__<member>]_<dir>, used by every family
 * that declares, defines or calls one. Record and member are paths
 * ("Constraint.ActiveSize"), so both go through c-ident. */
static void fn_validator_name(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 3) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *dir = xmlXPathPopString(ctxt);
    xmlChar *member = xmlXPathPopString(ctxt);
    xmlChar *record = xmlXPathPopString(ctxt);
    struct strbuf sb = {0};
    sb_append(&sb, "ddi_validate_");
    sb_append_c_ident(&sb, (const char *)record);
    if (member && *member) {
        sb_append(&sb, "__");
        sb_append_c_ident(&sb, (const char *)member);
    }
    sb_append(&sb, "_");
    sb_append_c_ident(&sb, (const char *)dir);
    return_string(ctxt, sb_str(&sb));
    sb_free(&sb);
    xmlFree(dir);
    xmlFree(member);
    xmlFree(record);
}

/* ones(5) -> "0x1Fu"; the literal suffix keeps 64-bit masks well typed. */
static void fn_ones(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    double w = xmlXPathPopNumber(ctxt);
    unsigned width = w >= 64 ? 64 : w <= 0 ? 0 : (unsigned)w;
    uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
    char buf[40];
    snprintf(buf, sizeof buf, "0x%" PRIX64 "%s", mask, width > 32 ? "ull" : "u");
    return_string(ctxt, buf);
}

/* hex(4096) -> "0x1000" */
static void fn_hex(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    double v = xmlXPathPopNumber(ctxt);
    char buf[40];
    snprintf(buf, sizeof buf, "0x%" PRIX64, v > 0 ? (uint64_t)v : 0);
    return_string(ctxt, buf);
}

struct version_list {
    char **names; /* short names in value order */
    char **macros;
    size_t n;
};

static void free_versions(struct version_list *vl)
{
    for (size_t i = 0; i < vl->n; i++) {
        xmlFree(vl->names[i]);
        xmlFree(vl->macros[i]);
    }
    free(vl->names);
    free(vl->macros);
}

/* The spec's <version short= name=> elements, in document (value) order. */
static struct version_list versions_of(xmlNodeSetPtr nodes)
{
    struct version_list vl = {0};
    size_t count = nodes ? (size_t)nodes->nodeNr : 0;
    vl.names = calloc(count + 1, sizeof *vl.names);
    vl.macros = calloc(count + 1, sizeof *vl.macros);
    for (size_t i = 0; i < count; i++) {
        vl.names[vl.n] = (char *)xmlGetProp(nodes->nodeTab[i], BAD_CAST "short");
        vl.macros[vl.n] = (char *)xmlGetProp(nodes->nodeTab[i], BAD_CAST "name");
        if (vl.names[vl.n] && vl.macros[vl.n]) {
            vl.n++;
        } else { /* an element missing one of the two is not a version */
            xmlFree(vl.names[vl.n]);
            xmlFree(vl.macros[vl.n]);
            vl.names[vl.n] = vl.macros[vl.n] = NULL;
        }
    }
    return vl;
}

static long find_version(const struct version_list *vl, const char *name, size_t len)
{
    for (size_t i = 0; i < vl->n; i++)
        if (strlen(vl->names[i]) == len && strncmp(vl->names[i], name, len) == 0)
            return (long)i;
    return -1;
}

/* One range [first, last] as a condition. Values outside every known
 * version count as the nearest known one: below the first is the first,
 * above the last is the last, between two is the lower. */
static void range_condition(struct strbuf *sb, const struct version_list *vl, long first, long last)
{
    int lower = first > 0, upper = last + 1 < (long)vl->n;
    if (!lower && !upper) {
        sb_append(sb, "1");
        return;
    }
    sb_append(sb, "(");
    if (lower)
        sb_printf(sb, "DXGKDDI_INTERFACE_VERSION >= %s", vl->macros[first]);
    if (lower && upper)
        sb_append(sb, " && ");
    if (upper)
        sb_printf(sb, "DXGKDDI_INTERFACE_VERSION < %s", vl->macros[last + 1]);
    sb_append(sb, ")");
}

/* version-cond("WDDM2_0-WDDM3_1 WDDM3_2", /ddi-spec/layout/version) */
static void fn_version_cond(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 2) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlNodeSetPtr nodes = xmlXPathPopNodeSet(ctxt);
    xmlChar *text = xmlXPathPopString(ctxt);
    struct version_list vl = versions_of(nodes);
    struct strbuf sb = {0};
    const char *p = (const char *)text;
    while (p && *p) {
        while (*p == ' ')
            p++;
        const char *end = p + strcspn(p, " ");
        const char *dash = memchr(p, '-', (size_t)(end - p));
        long first = find_version(&vl, p, (size_t)((dash ? dash : end) - p));
        long last = dash ? find_version(&vl, dash + 1, (size_t)(end - dash - 1)) : first;
        if (first < 0 || last < 0) {
            xsltTransformError(xsltXPathGetTransformContext(ctxt), NULL, NULL,
                               "version-cond: unknown DDI version in '%s'\n", ddigen_quote((const char *)text));
            break;
        }
        if (sb.len)
            sb_append(&sb, " || ");
        range_condition(&sb, &vl, first, last);
        p = end;
    }
    return_string(ctxt, sb.len ? sb.data : "1");
    sb_free(&sb);
    free_versions(&vl);
    xmlFree(text);
    xmlXPathFreeNodeSet(nodes);
}

/* fnv1a("DXGKDDI_BUILDPAGINGBUFFER") -> "0x1234ABCD": 32-bit FNV-1a of a
 * name, the trace ID of a DDI (the same in every release; ddigen trace
 * computes it the same way, gen/trace/trace.c). */
static void fn_fnv1a(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    uint32_t h = 2166136261u;
    for (const xmlChar *p = s; p && *p; p++)
        h = (h ^ *p) * 16777619u;
    char buf[16];
    snprintf(buf, sizeof buf, "0x%08" PRIX32, h);
    return_string(ctxt, buf);
    xmlFree(s);
}

/* version-in("WIN7-WDDM2_0 WDDM3_2", "WDDM2_0", /ddi-spec/layout/version):
 * whether the version set holds the version (short names; an empty set is
 * every version). The skeleton asks it per member for the chosen version. */
static void fn_version_in(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 3) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlNodeSetPtr nodes = xmlXPathPopNodeSet(ctxt);
    xmlChar *version = xmlXPathPopString(ctxt);
    xmlChar *set = xmlXPathPopString(ctxt);
    struct version_list vl = versions_of(nodes);
    long at = find_version(&vl, (const char *)version, strlen((const char *)version));
    int in = 0, any = 0;
    const char *p = (const char *)set;
    while (at >= 0 && p && *p && !in) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        any = 1;
        const char *end = p + strcspn(p, " ");
        const char *dash = memchr(p, '-', (size_t)(end - p));
        long first = find_version(&vl, p, (size_t)((dash ? dash : end) - p));
        long last = dash ? find_version(&vl, dash + 1, (size_t)(end - dash - 1)) : first;
        in = first >= 0 && last >= 0 && first <= at && at <= last;
        p = end;
    }
    if (at < 0)
        xsltTransformError(xsltXPathGetTransformContext(ctxt), NULL, NULL, "version-in: unknown DDI version '%s'\n",
                           ddigen_quote((const char *)version));
    valuePush(ctxt, xmlXPathNewBoolean(at >= 0 && (in || !any)));
    free_versions(&vl);
    xmlFree(set);
    xmlFree(version);
    xmlXPathFreeNodeSet(nodes);
}

void emit_register_extensions(void)
{
    xsltRegisterExtModuleFunction(BAD_CAST "version-in", BAD_CAST DDIGEN_XSLT_NS, fn_version_in);
    xsltRegisterExtModuleFunction(BAD_CAST "c-ident", BAD_CAST DDIGEN_XSLT_NS, fn_c_ident);
    xsltRegisterExtModuleFunction(BAD_CAST "validator-name", BAD_CAST DDIGEN_XSLT_NS, fn_validator_name);
    xsltRegisterExtModuleFunction(BAD_CAST "ones", BAD_CAST DDIGEN_XSLT_NS, fn_ones);
    xsltRegisterExtModuleFunction(BAD_CAST "hex", BAD_CAST DDIGEN_XSLT_NS, fn_hex);
    xsltRegisterExtModuleFunction(BAD_CAST "version-cond", BAD_CAST DDIGEN_XSLT_NS, fn_version_cond);
    xsltRegisterExtModuleFunction(BAD_CAST "fnv1a", BAD_CAST DDIGEN_XSLT_NS, fn_fnv1a);
    emit_register_rule_extensions();
}
