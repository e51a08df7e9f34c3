/* Options stamped into the spec and the generated files (stamp.h). */
#include "stamp.h"

#include "emit.h"

#include "../model/specxml.h"
#include "../util/hash.h"
#include "../util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* list-file names where the list was read (a path of the machine that ran
 * generate): it only places messages, and a spec or file that carried it
 * would differ from one checkout to the next. A parameter given its
 * default (--all, scope=ddi) shapes nothing: stamping it would make the
 * files of `--all` differ from those of no option. */
static int stamped(const char *param)
{
    return strncmp(param, "list-file=", 10) != 0 && strcmp(param, "ddi-list=all") != 0 &&
           strcmp(param, "scope=ddi") != 0;
}

void emit_stamp_add(xmlDocPtr spec, const char *outputs, const char *const *params)
{
    xmlNodePtr root = xmlDocGetRootElement(spec);
    xmlNodePtr old = sx_child(root, "generated-with");
    if (old) {
        xmlUnlinkNode(old);
        xmlFreeNode(old);
    }
    int any = outputs != NULL;
    for (size_t i = 0; params && params[i]; i++)
        any |= stamped(params[i]);
    if (!any)
        return;
    xmlNodePtr with = xmlNewChild(root, NULL, BAD_CAST "generated-with", NULL);
    if (outputs)
        xmlSetProp(with, BAD_CAST "outputs", BAD_CAST outputs);
    for (size_t i = 0; params && params[i]; i++) {
        if (!stamped(params[i]))
            continue;
        const char *eq = strchr(params[i], '=');
        char *name = strndup(params[i], (size_t)(eq - params[i]));
        xmlNodePtr p = xmlNewChild(with, NULL, BAD_CAST "param", NULL);
        xmlSetProp(p, BAD_CAST "name", BAD_CAST name);
        xmlSetProp(p, BAD_CAST "value", BAD_CAST(eq + 1));
        free(name);
    }
}

static int sets(const char *const *params, const char *name, size_t n)
{
    for (size_t i = 0; params && params[i]; i++)
        if (!strncmp(params[i], name, n) && params[i][n] == '=')
            return 1;
    return 0;
}

void emit_stamp_apply(xmlDocPtr spec, struct emit_options *opt, struct vec *merged, struct arena *a)
{
    xmlNodePtr with = sx_child(xmlDocGetRootElement(spec), "generated-with");
    if (!with)
        return;
    if (!opt->outputs && sx_get(with, "outputs"))
        opt->outputs = arena_strdup(a, sx_get(with, "outputs"));
    /* --all on the command line sets ddi-list, and so drops the stamped list
     * and the records its lines named. */
    int list_given = sets(opt->params, "ddi-list", 8);
    for (xmlNodePtr p = sx_child(with, "param"); p; p = sx_next(p, "param")) {
        const char *name = sx_get(p, "name"), *value = sx_get(p, "value");
        if (!name || !value || sets(opt->params, name, strlen(name)) ||
            (list_given && !strcmp(name, "list-records")))
            continue;
        vec_push(merged, arena_printf(a, "%s=%s", name, value));
    }
    for (size_t i = 0; opt->params && opt->params[i]; i++)
        vec_push(merged, (void *)opt->params[i]);
    vec_push(merged, NULL);
    opt->params = (const char *const *)merged->items;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A value as it goes into a comment: no end or start of a comment (a
 * nested one is a warning at /W4 and -Wcomment), no line break. */
static void put_value(struct strbuf *sb, const char *name, const char *value)
{
    size_t n = strlen(value);
    if (!strcmp(name, "ddi-list") && strcmp(value, "all") != 0) {
        size_t names = 1;
        for (const char *c = value; *c; c++)
            names += *c == ' ';
        sb_printf(sb, "<%zu callbacks, fnv1a %08x>", names, fnv1a32n(value, n));
        return;
    }
    if (n > 48) {
        sb_printf(sb, "<%zu bytes, fnv1a %08x>", n, fnv1a32n(value, n));
        return;
    }
    for (const char *c = value; *c; c++) {
        int opens_or_closes = (c[0] == '*' && c[1] == '/') || (c[0] == '/' && c[1] == '*');
        char ch = (unsigned char)*c < 0x20 || opens_or_closes ? '?' : *c;
        sb_printf(sb, "%c", ch);
    }
}

const char *emit_stamp_comment(const char *const *params, struct arena *a)
{
    struct vec sorted = {0};
    for (size_t i = 0; params && params[i]; i++)
        if (stamped(params[i]))
            vec_push(&sorted, (void *)params[i]);
    if (!sorted.len)
        return NULL;
    qsort(sorted.items, sorted.len, sizeof *sorted.items, by_name);
    struct strbuf sb = {0};
    sb_printf(&sb, "/* ddigen options:");
    for (size_t i = 0; i < sorted.len; i++) {
        const char *p = sorted.items[i], *eq = strchr(p, '=');
        char *name = arena_strndup(a, p, (size_t)(eq - p));
        sb_printf(&sb, " %s=", name);
        put_value(&sb, name, eq + 1);
    }
    sb_printf(&sb, " */\n");
    const char *comment = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    vec_free(&sorted);
    return comment;
}
