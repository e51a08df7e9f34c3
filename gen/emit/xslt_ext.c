/* XSLT extension functions for what XSLT 1.0 does badly: C identifiers,
 * hex, all-ones masks, trace IDs, membership of a version in a set. The
 * preprocessor condition of a version set is not one: the derived view
 * (view.c) writes it on every element that has one. */
#include "emit.h"

#include "../model/vset.h"
#include "../util/diag.h"
#include "../util/hash.h"
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

/* fnv1a("DXGKDDI_BUILDPAGINGBUFFER") -> "0x1234ABCD": the trace ID of a
 * DDI (ddi_trace_id, util/hash.h; the same in every release). */
static void fn_fnv1a(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    uint32_t h = ddi_trace_id(s ? (const char *)s : "");
    char buf[16];
    snprintf(buf, sizeof buf, "0x%08" PRIX32, h);
    return_string(ctxt, buf);
    xmlFree(s);
}

void emit_register_extensions(void)
{
    xsltRegisterExtModuleFunction(BAD_CAST "c-ident", BAD_CAST DDIGEN_XSLT_NS, fn_c_ident);
    xsltRegisterExtModuleFunction(BAD_CAST "validator-name", BAD_CAST DDIGEN_XSLT_NS, fn_validator_name);
    xsltRegisterExtModuleFunction(BAD_CAST "ones", BAD_CAST DDIGEN_XSLT_NS, fn_ones);
    xsltRegisterExtModuleFunction(BAD_CAST "hex", BAD_CAST DDIGEN_XSLT_NS, fn_hex);
    xsltRegisterExtModuleFunction(BAD_CAST "fnv1a", BAD_CAST DDIGEN_XSLT_NS, fn_fnv1a);
    emit_register_rule_extensions();
}
