/* d:validation-plan(): the rule lowering of gen/rules as a node-set, so
 * the validator templates render checks the C side decided. */
#include "emit.h"

#include "../rules/rules.h"
#include "../util/strbuf.h"

#include <libxslt/extensions.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xsltutils.h>
#include <libxml/xpathInternals.h>

static void fn_validation_plan(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 0) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xsltTransformContextPtr tctxt = xsltXPathGetTransformContext(ctxt);
    xmlDocPtr spec = ctxt->context->doc;
    struct rules_plan *plan = spec ? rules_lower(spec) : NULL;
    if (!tctxt || !plan) {
        xsltTransformError(tctxt, NULL, NULL, "validation-plan: cannot lower the rules\n");
        rules_plan_free(plan);
        valuePush(ctxt, xmlXPathNewNodeSet(NULL));
        return;
    }
    /* Kept until the transformation ends: templates hold it in a variable. */
    xmlDocPtr container = xsltCreateRVT(tctxt);
    xsltRegisterPersistRVT(tctxt, container);
    xmlNodePtr root = rules_plan_xml(plan, container);
    xmlAddChild((xmlNodePtr)container, root);
    rules_plan_free(plan);
    valuePush(ctxt, xmlXPathNewNodeSet(root));
}

/* c-string("a \"b\"") -> a C string literal: quotes, backslashes, control
 * and non-ASCII bytes escaped (octal, which never swallows a next digit
 * beyond three), so the literal means the same bytes on every compiler. */
static void fn_c_string(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    struct strbuf sb = {0};
    sb_append(&sb, "\"");
    for (const unsigned char *p = s; p && *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(&sb, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7F || (*p == '?' && p[1] == '?'))
            sb_printf(&sb, "\\%03o", *p);
        else
            sb_printf(&sb, "%c", *p);
    }
    sb_append(&sb, "\"");
    valuePush(ctxt, xmlXPathNewString(BAD_CAST sb_str(&sb)));
    sb_free(&sb);
    xmlFree(s);
}

void emit_register_rule_extensions(void)
{
    xsltRegisterExtModuleFunction(BAD_CAST "c-string", BAD_CAST "urn:ddigen:xslt", fn_c_string);
    xsltRegisterExtModuleFunction(BAD_CAST "validation-plan", BAD_CAST "urn:ddigen:xslt", fn_validation_plan);
}
