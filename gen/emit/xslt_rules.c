/* d:validation-plan(): the rule lowering of gen/rules as a node-set, so
 * the validator templates render checks the C side decided. */
#include "emit.h"
#include "view.h"

#include "../rules/rules.h"
#include "../util/strbuf.h"

#include <libxslt/extensions.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xsltutils.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* The plan as a document of its own, built once per emit on first use
 * (under the lock, with its dv:guard conditions and its XPath order set
 * before any transform reads it); NULL when lowering failed. */
static xmlNodePtr shared_plan_root(struct emit_shared *s)
{
    const struct rules_plan *plan = emit_shared_plan(s);
    pthread_mutex_lock(&s->lock);
    if (plan && !s->plan_doc && !s->plan_refused) {
        s->plan_doc = xmlNewDoc(BAD_CAST "1.0");
        xmlNodePtr root = rules_plan_xml(plan, s->plan_doc);
        xmlDocSetRootElement(s->plan_doc, root);
        if (emit_view_guard_plan(s->spec, root) != 0) {
            xmlFreeDoc(s->plan_doc); /* reported: no validator from a plan that breaks the scope */
            s->plan_doc = NULL;
            s->plan_refused = 1;
        } else {
            xmlXPathOrderDocElems(s->plan_doc);
        }
    }
    xmlNodePtr root = s->plan_doc ? xmlDocGetRootElement(s->plan_doc) : NULL;
    pthread_mutex_unlock(&s->lock);
    return root;
}

static void fn_validation_plan(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 0) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xsltTransformContextPtr tctxt = xsltXPathGetTransformContext(ctxt);
    xmlDocPtr spec = ctxt->context->doc;
    struct emit_shared *shared = tctxt ? tctxt->_private : NULL;
    if (shared && shared->spec == spec) {
        xmlNodePtr root = shared_plan_root(shared);
        if (!root)
            xsltTransformError(tctxt, NULL, NULL, "validation-plan: cannot lower the rules\n");
        valuePush(ctxt, xmlXPathNewNodeSet(root));
        return;
    }
    /* Another document (a user's template reading one): lowered here,
     * kept until the transformation ends. */
    struct rules_plan *own = spec ? rules_lower(spec) : NULL;
    if (!tctxt || !own) {
        xsltTransformError(tctxt, NULL, NULL, "validation-plan: cannot lower the rules\n");
        rules_plan_free(own);
        valuePush(ctxt, xmlXPathNewNodeSet(NULL));
        return;
    }
    xmlDocPtr container = xsltCreateRVT(tctxt);
    xsltRegisterPersistRVT(tctxt, container);
    xmlNodePtr root = rules_plan_xml(own, container);
    xmlAddChild((xmlNodePtr)container, root);
    emit_view_guard_plan(spec, root);
    rules_plan_free(own);
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

void emit_shared_init(struct emit_shared *s, xmlDocPtr spec, const struct ddi_model *model)
{
    s->spec = spec;
    s->model = model;
    s->lowered = 0;
    s->plan = NULL;
    s->plan_doc = NULL;
    s->plan_refused = 0;
    pthread_mutex_init(&s->lock, NULL);
}

void emit_shared_free(struct emit_shared *s)
{
    rules_plan_free(s->plan);
    s->plan = NULL;
    xmlFreeDoc(s->plan_doc);
    s->plan_doc = NULL;
    pthread_mutex_destroy(&s->lock);
}

const struct rules_plan *emit_shared_plan(struct emit_shared *s)
{
    pthread_mutex_lock(&s->lock);
    if (!s->lowered) {
        s->plan = s->model ? rules_lower_model(s->model) : rules_lower(s->spec);
        s->lowered = 1;
    }
    pthread_mutex_unlock(&s->lock);
    return s->plan;
}

void emit_register_rule_extensions(void)
{
    xsltRegisterExtModuleFunction(BAD_CAST "c-string", BAD_CAST "urn:ddigen:xslt", fn_c_string);
    xsltRegisterExtModuleFunction(BAD_CAST "validation-plan", BAD_CAST "urn:ddigen:xslt", fn_validation_plan);
}
