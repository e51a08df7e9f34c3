/* Skeleton options -> template parameters, and their check against the spec
 * (the templates check again, but only emit can refuse before any file is
 * written). */
#include "skeleton_opts.h"
#include "view.h"

#include "../model/vset.h"
#include "../model/specxml.h"

#include "../util/diag.h"
#include "../util/output.h"
#include "../util/strbuf.h"

#include <libxml/xpath.h>
#include <stdlib.h>
#include "../util/cli.h"

#include <string.h>

/* One name a line, '#' starts a comment; names are C identifiers. */
static char *read_list(const char *path, struct arena *a)
{
    char *data = NULL;
    size_t len = 0;
    if (ddigen_read_file(path, &data, &len) != 0)
        return NULL;
    struct strbuf sb = {0};
    int ok = 1;
    unsigned line = 1;
    for (char *p = data, *end = data + len; p < end && ok; line++) {
        char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
        char *hash = memchr(p, '#', n);
        size_t keep = hash ? (size_t)(hash - p) : n;
        size_t b = 0, e = keep;
        while (b < e && strchr(" \t\r", p[b]))
            b++;
        while (e > b && strchr(" \t\r", p[e - 1]))
            e--;
        if (e > b) {
            if (strspn(p + b, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != e - b) {
                ddigen_error(path, line, "expected one callback name (a C identifier) on the line");
                ok = 0;
            } else {
                sb_printf(&sb, "%s%.*s", sb.len ? " " : "", (int)(e - b), p + b);
            }
        }
        p = eol ? eol + 1 : end;
    }
    char *names = ok ? arena_strdup(a, sb_str(&sb)) : NULL;
    sb_free(&sb);
    free(data);
    return names;
}

int skeleton_option(int code, const char *arg, struct vec *params, struct arena *a)
{
    switch (code) {
    case SKELETON_OPT_DDI_VERSION:
        if (cli_check_names("--ddi-version", arg, 0) != 0)
            return 2;
        vec_push(params, arena_printf(a, "ddi-version=%s", arg));
        return 0;
    case SKELETON_OPT_ALL: vec_push(params, "ddi-list=all"); return 0;
    case SKELETON_OPT_DRIVER_KIND:
        if (strcmp(arg, "full") != 0 && strcmp(arg, "display-only") != 0) {
            ddigen_error(NULL, 0, "--driver-kind '%s': expected full or display-only", ddigen_quote(arg));
            return 2;
        }
        vec_push(params, arena_printf(a, "driver-kind=%s", arg));
        return 0;
    case SKELETON_OPT_DDI_LIST: {
        char *names = read_list(arg, a);
        if (!names)
            return 1;
        vec_push(params, arena_printf(a, "ddi-list=%s", names));
        return 0;
    }
    default: return 2;
    }
}

/* The last value given for NAME, or NULL. */
static const char *param_value(const char *const *params, const char *name)
{
    const char *value = NULL;
    size_t n = strlen(name);
    for (size_t i = 0; params && params[i]; i++)
        if (strncmp(params[i], name, n) == 0 && params[i][n] == '=')
            value = params[i] + n + 1;
    return value;
}

/* Number of nodes an XPath expression (with $1 substituted) selects. */
static int count_nodes(xmlXPathContextPtr ctx, const char *fmt, const char *arg, const char *arg2)
{
    char expr[1024];
    snprintf(expr, sizeof expr, fmt, arg, arg2 ? arg2 : "");
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    int n = r && r->nodesetval ? r->nodesetval->nodeNr : 0;
    xmlXPathFreeObject(r);
    return n;
}

static int check_list(xmlXPathContextPtr ctx, const char *spec_path, const char *record, const char *list)
{
    int rc = 0;
    char *copy = strdup(list);
    for (char *save = NULL, *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        /* A callback member by its name, its role typedef, or its name without DxgkDdi. */
        static const char fmt[] =
            "/ddi-spec/layout/record[@name='%s']/field[@type = /ddi-spec/layout/function-type[@pointer-to]/@name]"
            "[@name='%2$s' or concat('DxgkDdi', '%2$s') = @name or "
            "@type = /ddi-spec/layout/function-type[@pointer-to='%2$s']/@name]";
        if (strlen(name) > 200 || count_nodes(ctx, fmt, record, name) == 0) {
            ddigen_error(spec_path, 0, "--ddi-list: '%s' is not a callback member of %s", ddigen_quote(name),
                         ddigen_quote(record));
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

/* The string value of an XPath expression ("" when nothing). */
static char *string_of(xmlXPathContextPtr ctx, const char *expr)
{
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    xmlChar *v = r ? xmlXPathCastToString(r) : NULL;
    char *copy = strdup(v ? (const char *)v : "");
    xmlFree(v);
    xmlXPathFreeObject(r);
    return copy;
}

/* Position (1-based) of a version (short or macro name) among the spec's, 0
 * if none. Compared in C: a value given on the command line never becomes
 * part of an XPath expression. */
static int version_position(const struct ddi_versions *vl, const char *version)
{
    return ddi_version_find(vl, version, strlen(version)) + 1;
}

/* The kind's structure must exist at the chosen version (the newest when none
 * is given): KMDDOD_INITIALIZATION_DATA begins at WIN8. */
static int check_record_version(xmlXPathContextPtr ctx, const struct ddi_versions *vl, const char *spec_path,
                                const char *record, const char *version)
{
    char expr[300];
    snprintf(expr, sizeof expr, "string(/ddi-spec/layout/record[@name='%s']/@versions)", record);
    char *set = string_of(ctx, expr);
    int at = version ? version_position(vl, version) : (int)vl->n;
    int rc = 0;
    if (*set && at && !ddi_vset_has(ddi_vset_of(vl, set), at - 1)) {
        ddigen_error(spec_path, 0, "%s does not exist at %s (only %s)", record, version ? version : "the newest version",
                     set);
        rc = -1;
    }
    free(set);
    return rc;
}

int skeleton_check_params(xmlDocPtr spec, const char *spec_path, const char *const *params)
{
    const char *version = param_value(params, "ddi-version");
    const char *kind = param_value(params, "driver-kind");
    const char *list = param_value(params, "ddi-list");
    if (!version && !kind && !list)
        return 0;
    int rc = 0;
    xmlXPathContextPtr ctx = xmlXPathNewContext(spec);
    struct ddi_versions vl;
    ddi_versions_read(&vl, sx_part(spec, "layout"));
    if (kind && strcmp(kind, "full") != 0 && strcmp(kind, "display-only") != 0) {
        ddigen_error(NULL, 0, "--driver-kind '%s': expected full or display-only", ddigen_quote(kind));
        rc = -1;
    }
    if (version && !version_position(&vl, version)) {
        ddigen_error(spec_path, 0, "--ddi-version '%s' is not a DDI version of the spec", ddigen_quote(version));
        rc = -1;
    }
    const char *record =
        kind && strcmp(kind, "display-only") == 0 ? "KMDDOD_INITIALIZATION_DATA" : "DRIVER_INITIALIZATION_DATA";
    if (rc == 0 && (kind || (list && strcmp(list, "all") != 0)) &&
        !count_nodes(ctx, "/ddi-spec/layout/record[@name='%s']", record, NULL)) {
        ddigen_error(spec_path, 0, "the spec has no %s: no %s skeleton", record, kind ? kind : "full");
        rc = -1;
    }
    if (rc == 0 && (kind || version))
        rc = check_record_version(ctx, &vl, spec_path, record, version);
    if (rc == 0 && list && strcmp(list, "all") != 0)
        rc = check_list(ctx, spec_path, record, list);
    xmlXPathFreeContext(ctx);
    return rc;
}

/* Is the callback member on the driver's list: by its name, its role
 * typedef, or its name without DxgkDdi ("all" lists every one)? */
static int on_list(const char *list, const char *member, const char *role)
{
    if (!strcmp(list, "all"))
        return 1;
    const char *suffix = strncmp(member, "DxgkDdi", 7) == 0 ? member + 7 : NULL;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, " ");
        if (n && ((strlen(member) == n && !strncmp(p, member, n)) ||
                  (role && strlen(role) == n && !strncmp(p, role, n)) ||
                  (suffix && strlen(suffix) == n && !strncmp(p, suffix, n))))
            return 1;
        p += n + (p[n] == ' ');
    }
    return 0;
}

static int exists_at(const struct ddi_versions *vl, xmlNodePtr n, int at)
{
    const char *set = sx_get(n, "versions");
    return !set || ddi_vset_has(ddi_vset_of(vl, set), at);
}

static void mark(xmlNodePtr n, xmlNsPtr ns, const char *name)
{
    xmlNewNsProp(n, ns, BAD_CAST name, BAD_CAST "yes");
}

/* The kind's record and its callback members: which exist at the chosen
 * version, which are on the list. */
static void mark_members(xmlNodePtr layout, xmlNodePtr rec, xmlNsPtr ns, const struct ddi_versions *vl, int at,
                         const char *list)
{
    if (exists_at(vl, rec, at))
        mark(rec, ns, "at-chosen");
    for (xmlNodePtr f = sx_child(rec, "field"); f; f = sx_next(f, "field")) {
        const char *type = sx_get(f, "type"), *role = NULL;
        for (xmlNodePtr fn = sx_child(layout, "function-type"); type && fn && !role;
             fn = sx_next(fn, "function-type"))
            if (!strcmp(sx_get(fn, "name") ? sx_get(fn, "name") : "", type))
                role = sx_get(fn, "pointer-to");
        if (!role)
            continue;
        if (exists_at(vl, f, at))
            mark(f, ns, "at-chosen");
        if (on_list(list, sx_get(f, "name") ? sx_get(f, "name") : "", role))
            mark(f, ns, "listed");
    }
}

void skeleton_view_add(xmlDocPtr spec, const char *const *params)
{
    xmlNodePtr root = xmlDocGetRootElement(spec), layout = sx_part(spec, "layout");
    xmlNsPtr ns = root ? xmlSearchNsByHref(spec, root, BAD_CAST EMIT_VIEW_NS) : NULL;
    if (!layout || !ns)
        return;
    struct ddi_versions vl;
    ddi_versions_read(&vl, layout);
    const char *version = param_value(params, "ddi-version");
    const char *list = param_value(params, "ddi-list");
    int at = version ? version_position(&vl, version) - 1 : (int)vl.n - 1;
    if (at < 0)
        return; /* skeleton_check_params refused it; the templates say so again */
    int i = 0;
    for (xmlNodePtr v = sx_child(layout, "version"); v; v = sx_next(v, "version"), i++)
        if (i == at)
            mark(v, ns, "chosen");
    for (xmlNodePtr fn = sx_child(layout, "function-type"); fn; fn = sx_next(fn, "function-type"))
        if (exists_at(&vl, fn, at))
            mark(fn, ns, "at-chosen");
    for (xmlNodePtr rec = sx_child(layout, "record"); rec; rec = sx_next(rec, "record")) {
        const char *name = sx_get(rec, "name");
        if (name && (!strcmp(name, "DRIVER_INITIALIZATION_DATA") || !strcmp(name, "KMDDOD_INITIALIZATION_DATA")))
            mark_members(layout, rec, ns, &vl, at, list ? list : "all");
    }
}
