/* Skeleton options -> template parameters, and their check against the spec
 * (the templates check again, but only emit can refuse before any file is
 * written). */
#include "skeleton_opts.h"
#include "view.h"

#include "../model/irql.h"
#include "../model/specxml.h"
#include "../model/vset.h"

#include "../header/kit_callbacks.h"

#include "../util/diag.h"
#include "../util/output.h"
#include "../util/similar.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include "../util/cli.h"
#include <stdlib.h>

#include <string.h>

static int is_ident_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* n bytes of s are one C identifier. */
static int is_ident(const char *s, size_t n)
{
    if (!n || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_ident_char(s[i]))
            return 0;
    return 1;
}

/* A name the driver gives a callback: an identifier, or a C++ static member
 * spelled Class::Name (Outer::Class::Name). */
static int is_driver_name(const char *s, size_t n)
{
    for (;;) {
        const char *sep = NULL;
        for (size_t i = 0; i + 1 < n && !sep; i++)
            if (s[i] == ':' && s[i + 1] == ':')
                sep = s + i;
        if (!sep)
            return is_ident(s, n);
        if (!is_ident(s, (size_t)(sep - s)))
            return 0;
        n -= (size_t)(sep - s) + 2;
        s = sep + 2;
    }
}

static void trim(const char *p, size_t *b, size_t *e)
{
    while (*b < *e && strchr(" \t\r", p[*b]))
        (*b)++;
    while (*e > *b && strchr(" \t\r", p[*e - 1]))
        (*e)--;
}

/* One line of the list (without its comment) into sb as NAME or
 * NAME=DRIVER; 0, or -1 when it is neither. */
static int list_line(const char *p, size_t n, struct strbuf *sb)
{
    const char *eq = memchr(p, '=', n);
    size_t b = 0, e = eq ? (size_t)(eq - p) : n;
    trim(p, &b, &e);
    if (b == e && !eq)
        return 0; /* blank */
    if (!is_ident(p + b, e - b))
        return -1;
    sb_printf(sb, "%s%.*s", sb->len ? " " : "", (int)(e - b), p + b);
    if (!eq)
        return 0;
    size_t db = (size_t)(eq - p) + 1, de = n;
    trim(p, &db, &de);
    if (!is_driver_name(p + db, de - db))
        return -1;
    sb_printf(sb, "=%.*s", (int)(de - db), p + db);
    return 0;
}

#define RECORDS_CUE "records:"
#define NAME_SEPARATORS " \t,"

/* A `records: A, B` line (the records the driver also needs, scope.h)
 * appended to records as "LINE:NAME,...": 1; 0 when the line is not one;
 * -1 when it names nothing or something that is not an identifier. */
static int records_line(const char *p, size_t n, unsigned line, struct strbuf *records)
{
    size_t b = 0, e = n, cue = sizeof RECORDS_CUE - 1;
    trim(p, &b, &e);
    if (e - b < cue || strncmp(p + b, RECORDS_CUE, cue) != 0)
        return 0;
    int named = 0;
    for (size_t i = b + cue; i < e;) {
        i += strspn(p + i, NAME_SEPARATORS);
        size_t start = i;
        while (i < e && !strchr(NAME_SEPARATORS, p[i]))
            i++;
        if (start == i)
            break;
        if (!is_ident(p + start, i - start))
            return -1;
        sb_printf(records, "%s%u:%.*s", records->len ? "," : "", line, (int)(i - start), p + start);
        named = 1;
    }
    return named ? 1 : -1;
}

/* One callback a line, '#' starts a comment: its name (a C identifier),
 * optionally `= DriverFunction` (the driver's name for it: an identifier or
 * Class::Name). Kept as "NAME NAME=DRIVER ...". A `records: A, B` line
 * names records the driver also needs (into *records, "LINE:NAME,..."). */
static char *read_list(const char *path, struct arena *a, char **records)
{
    char *data = NULL;
    size_t len = 0;
    if (ddigen_read_file(path, &data, &len) != 0)
        return NULL;
    struct strbuf sb = {0}, rec = {0};
    int ok = 1;
    unsigned line = 1;
    for (char *p = data, *end = data + len; p < end && ok; line++) {
        char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
        char *hash = memchr(p, '#', n);
        n = hash ? (size_t)(hash - p) : n;
        int kind = records_line(p, n, line, &rec);
        if (kind < 0) {
            ddigen_error(path, line, "expected 'records:' and record names (C identifiers) separated by commas");
            ok = 0;
        } else if (kind == 0 && list_line(p, n, &sb) != 0) {
            ddigen_error(path, line,
                         "expected one callback name (a C identifier), optionally '= DriverFunction' "
                         "(an identifier or Class::Name), or 'records:' and record names");
            ok = 0;
        }
        p = eol ? eol + 1 : end;
    }
    char *names = ok ? arena_strdup(a, sb_str(&sb)) : NULL;
    *records = ok && rec.len ? arena_strdup(a, sb_str(&rec)) : NULL;
    sb_free(&sb);
    sb_free(&rec);
    free(data);
    return names;
}

/* --ddi-version V, V1..V2, V1.. or ..V2: each name letters, digits, '_'. */
static int check_version_option(const char *arg)
{
    const char *dots = strstr(arg, "..");
    if (!dots)
        return cli_check_names("--ddi-version", arg, 0);
    for (const char *c = arg; *c; c++)
        if (c != dots && c != dots + 1 && !is_ident_char(*c)) {
            ddigen_error(NULL, 0,
                         "--ddi-version '%s': a character that is not a letter, digit or '_'; expected a version "
                         "or a range (V1..V2, V1.. or ..V2)",
                         ddigen_quote(arg));
            return -1;
        }
    return 0;
}

/* --callback-name PATTERN: %s once, the rest making a driver name. */
static int check_name_pattern(const char *arg)
{
    const char *s = strstr(arg, "%s");
    char probe[256];
    int ok = s && !strstr(s + 2, "%") && !memchr(arg, '%', (size_t)(s - arg)) && strlen(arg) < 200;
    if (ok) {
        snprintf(probe, sizeof probe, "%.*sX%s", (int)(s - arg), arg, s + 2);
        ok = is_driver_name(probe, strlen(probe));
    }
    if (ok)
        return 0;
    ddigen_error(NULL, 0,
                 "--callback-name '%s': expected a pattern with one %%s (the callback without DxgkDdi) making a C "
                 "identifier or Class::Name, such as MyDdi%%s or MyDriver::%%s",
                 ddigen_quote(arg));
    return -1;
}

/* --records A,B,...: record names (C identifiers) separated by commas. */
static int check_records_option(const char *arg)
{
    for (const char *p = arg;; p++) {
        size_t n = strcspn(p, ",");
        if (!is_ident(p, n)) {
            ddigen_error(NULL, 0, "--records '%s': expected record names (C identifiers) separated by commas",
                         ddigen_quote(arg));
            return -1;
        }
        p += n;
        if (!*p)
            return 0;
    }
}

int skeleton_option(int code, const char *arg, struct vec *params, struct arena *a)
{
    switch (code) {
    case SKELETON_OPT_DDI_VERSION:
        if (check_version_option(arg) != 0)
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
    case SKELETON_OPT_CALLBACK_NAME:
        if (check_name_pattern(arg) != 0)
            return 2;
        vec_push(params, arena_printf(a, "callback-name=%s", arg));
        return 0;
    case SKELETON_OPT_THUNKS:
        if (strcmp(arg, "all") != 0 && strcmp(arg, "none") != 0) {
            ddigen_error(NULL, 0,
                         "--thunks '%s': expected all (a thunk per callback) or none (the driver's "
                         "functions in the table)",
                         ddigen_quote(arg));
            return 2;
        }
        vec_push(params, arena_printf(a, "thunks=%s", arg));
        return 0;
    case SKELETON_OPT_RECORDS:
        if (check_records_option(arg) != 0)
            return 2;
        vec_push(params, arena_printf(a, "records=%s", arg));
        return 0;
    case SKELETON_OPT_DDI_LIST: {
        char *records, *names = read_list(arg, a, &records);
        if (!names)
            return 1;
        vec_push(params, arena_printf(a, "ddi-list=%s", names));
        if (records) /* its records lines */
            vec_push(params, arena_printf(a, "list-records=%s", records));
        vec_push(params, arena_printf(a, "list-file=%s", arg)); /* where, for messages */
        return 0;
    }
    default: return 2;
    }
}

/* The last value given for NAME, or NULL. */
const char *skeleton_param(const char *const *params, const char *name)
{
    const char *value = NULL;
    size_t n = strlen(name);
    for (size_t i = 0; params && params[i]; i++)
        if (strncmp(params[i], name, n) == 0 && params[i][n] == '=')
            value = params[i] + n + 1;
    return value;
}

/* The line of the list file that names callback name (its first word), or
 * 0 (the file gone or changed since it was read: the message then names
 * the spec). */
static unsigned list_line_of(const char *path, const char *name)
{
    char *data = NULL;
    size_t len = 0, n = strlen(name);
    if (!path || ddigen_read_file(path, &data, &len) != 0)
        return 0;
    unsigned line = 1, found = 0;
    for (const char *p = data, *end = data + len; p < end && !found; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if ((size_t)(end - q) >= n && !strncmp(q, name, n) && (q + n == end || !is_ident_char(q[n])))
            found = line;
        p = eol ? eol + 1 : end;
    }
    free(data);
    return found;
}

/* Whether a list's name names callback m: by its name, its name without
 * DxgkDdi, or its role typedef (what list_entry accepts). */
static int names_callback(const char *name, const struct kit_callback *m)
{
    return !strcmp(name, m->member) || !strcmp(name, m->role) ||
           (!strncmp(m->member, "DxgkDdi", 7) && !strcmp(name, m->member + 7));
}

/* The spelling of a callback nearest to name, in the form closest to it
 * (member, role typedef or short name), when it is near enough to be a
 * slip of the keyboard (a quarter of its letters); NULL otherwise. */
static const char *close_match(const char *name, const struct vec *callbacks)
{
    const char *best = NULL;
    unsigned best_d = (unsigned)strlen(name) / 4 + 1;
    for (size_t i = 0; i < callbacks->len; i++) {
        const struct kit_callback *m = callbacks->items[i];
        const char *forms[] = {m->member, m->role, !strncmp(m->member, "DxgkDdi", 7) ? m->member + 7 : m->member};
        for (size_t f = 0; f < 3; f++) {
            unsigned d = similar_distance(name, forms[f]);
            if (d < best_d) {
                best = forms[f];
                best_d = d;
            }
        }
    }
    return best;
}

/* The callback members of the spec's record (every record of that name):
 * fields whose type is a function-type pointing to a function typedef. */
static void spec_callbacks(xmlNodePtr layout, const char *record, struct arena *a, struct vec *out)
{
    struct strmap roles = {0}; /* PDXGKDDI_X -> DXGKDDI_X */
    for (xmlNodePtr f = sx_child(layout, "function-type"); f; f = sx_next(f, "function-type"))
        if (sx_get(f, "name") && sx_get(f, "pointer-to"))
            strmap_put(&roles, sx_get(f, "name"), (void *)sx_get(f, "pointer-to"));
    for (xmlNodePtr rec = sx_child(layout, "record"); rec; rec = sx_next(rec, "record")) {
        if (!sx_get(rec, "name") || strcmp(sx_get(rec, "name"), record) != 0)
            continue;
        for (xmlNodePtr fld = sx_child(rec, "field"); fld; fld = sx_next(fld, "field")) {
            const char *role = sx_get(fld, "type") ? strmap_get(&roles, sx_get(fld, "type")) : NULL;
            if (role && sx_get(fld, "name")) {
                struct kit_callback *m = arena_alloc(a, sizeof *m);
                m->member = arena_strdup(a, sx_get(fld, "name"));
                m->role = arena_strdup(a, role);
                vec_push(out, m);
            }
        }
    }
    strmap_free(&roles);
}

/* Each listed name must name one of callbacks, the callback members of
 * record that source (a spec, or a kit's header) declares; one that does
 * not is blamed on its line of the list when the list file is known
 * (--ddi-list), else on source (a list stamped into a spec), with the
 * nearest callback's name when one is near. */
static int check_list(const struct vec *callbacks, const char *source, const char *record, const char *list,
                      const char *list_file)
{
    int rc = 0;
    char *copy = strdup(list);
    for (char *save = NULL, *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        name[strcspn(name, "=")] = '\0'; /* NAME=DRIVER: the driver's name was checked when read */
        int known = 0;
        for (size_t i = 0; i < callbacks->len && !known; i++)
            known = names_callback(name, callbacks->items[i]);
        if (known)
            continue;
        const char *near = close_match(name, callbacks);
        struct strbuf hint = {0};
        if (near)
            sb_printf(&hint, "; did you mean '%s'?", near);
        unsigned line = list_line_of(list_file, name);
        if (line)
            ddigen_error(list_file, line, "'%s' is not a callback member of %s (in %s)%s", ddigen_quote(name),
                         ddigen_quote(record), source, sb_str(&hint));
        else
            ddigen_error(source, 0, "--ddi-list: '%s' is not a callback member of %s%s", ddigen_quote(name),
                         ddigen_quote(record), sb_str(&hint));
        sb_free(&hint);
        rc = -1;
    }
    free(copy);
    return rc;
}

static int check_spec_list(xmlNodePtr layout, const char *spec_path, const char *record, const char *list,
                           const char *list_file)
{
    struct arena a = {0};
    struct vec callbacks = {0};
    spec_callbacks(layout, record, &a, &callbacks);
    int rc = check_list(&callbacks, spec_path, record, list, list_file);
    vec_free(&callbacks);
    arena_free(&a);
    return rc;
}

/* The list's names against the callback members the kit's headers declare
 * in any branch of their #if (header/kit_callbacks.h). */
static int check_kit_list(const char *wdk, const char *record, const char *list, const char *list_file)
{
    struct arena a = {0};
    struct vec callbacks = {0};
    const char *where;
    int rc = kit_callbacks_read(wdk, record, &a, &callbacks, &where);
    if (rc == 0)
        rc = check_list(&callbacks, where, record, list, list_file);
    vec_free(&callbacks);
    arena_free(&a);
    return rc;
}

/* The versions the driver supports, as indexes of the spec's versions:
 * lo..hi, and whether it is open above (a newer kit's version compiles
 * too). No --ddi-version is the newest version and up; V alone is V and
 * up; ..V2 starts where the kind's structure does. */
struct skeleton_range {
    int lo, hi, open_above;
};

/* Why a --ddi-version did not make a range: the name at fault, or
 * reversed. */
enum range_error { RANGE_OK, RANGE_UNKNOWN_LO, RANGE_UNKNOWN_HI, RANGE_REVERSED };

static enum range_error range_parse(const struct ddi_versions *vl, const char *text, ddi_vset record_set,
                                    struct skeleton_range *r)
{
    int newest = (int)vl->n - 1;
    *r = (struct skeleton_range){newest, newest, 1};
    if (!text)
        return RANGE_OK;
    const char *dots = strstr(text, "..");
    size_t lo_len = dots ? (size_t)(dots - text) : strlen(text);
    const char *hi = dots ? dots + 2 : "";
    if (dots && !lo_len)
        r->lo = record_set ? ddi_vset_first(record_set & ddi_vset_all(vl)) : 0;
    else
        r->lo = ddi_version_find(vl, text, lo_len);
    if (r->lo < 0)
        return RANGE_UNKNOWN_LO;
    if (*hi) {
        r->hi = ddi_version_find(vl, hi, strlen(hi));
        r->open_above = 0;
        if (r->hi < 0)
            return RANGE_UNKNOWN_HI;
    }
    return r->lo > r->hi ? RANGE_REVERSED : RANGE_OK;
}

/* The versions of a record (every one when it has no versions=). */
static ddi_vset record_versions(const struct ddi_versions *vl, xmlNodePtr rec)
{
    const char *set = rec ? sx_get(rec, "versions") : NULL;
    return set ? ddi_vset_of(vl, set) : ddi_vset_all(vl);
}

static xmlNodePtr layout_record(xmlNodePtr layout, const char *name)
{
    for (xmlNodePtr rec = sx_child(layout, "record"); rec; rec = sx_next(rec, "record"))
        if (sx_get(rec, "name") && !strcmp(sx_get(rec, "name"), name))
            return rec;
    return NULL;
}

/* Reports a --ddi-version that makes no range of the spec's versions, or
 * whose first version the kind's structure lacks. Command-line facts: the
 * messages name no file. */
static int check_range(const struct ddi_versions *vl, const char *text, const char *record, xmlNodePtr rec)
{
    struct skeleton_range r;
    enum range_error e = range_parse(vl, text, record_versions(vl, rec), &r);
    if (e == RANGE_UNKNOWN_LO || e == RANGE_UNKNOWN_HI) {
        const char *dots = text ? strstr(text, "..") : NULL;
        const char *bad = e == RANGE_UNKNOWN_HI ? dots + 2 : text;
        size_t n = e == RANGE_UNKNOWN_LO && dots ? (size_t)(dots - text) : strlen(bad);
        ddigen_error(NULL, 0, "--ddi-version '%s': '%s' is not a DDI version of the spec (it has %s..%s)",
                     ddigen_quote(text), ddigen_quoten(bad, n), vl->n ? vl->short_name[0] : "none",
                     vl->n ? vl->short_name[vl->n - 1] : "none");
        return -1;
    }
    if (e == RANGE_REVERSED) {
        ddigen_error(NULL, 0, "--ddi-version '%s': the range is reversed (%s is newer than %s)", ddigen_quote(text),
                     vl->short_name[r.lo], vl->short_name[r.hi]);
        return -1;
    }
    if (rec && !ddi_vset_has(record_versions(vl, rec), r.lo)) {
        struct strbuf sb = {0};
        ddi_vset_ranges(vl, record_versions(vl, rec), &sb);
        ddigen_error(NULL, 0, "--ddi-version '%s': %s does not exist at %s (only %s)",
                     ddigen_quote(text ? text : vl->short_name[r.lo]), record, vl->short_name[r.lo], sb_str(&sb));
        sb_free(&sb);
        return -1;
    }
    return 0;
}

/* The thunk of DxgkDdiX is DdiX: a driver named so by the pattern would be
 * called by (and defined as) its own thunk. */
static int check_pattern_vs_thunks(const char *const *params)
{
    const char *pattern = skeleton_param(params, "callback-name"), *thunks = skeleton_param(params, "thunks");
    if (!pattern || strcmp(pattern, "Ddi%s") != 0 || (thunks && !strcmp(thunks, "none")))
        return 0;
    ddigen_error(NULL, 0,
                 "--callback-name 'Ddi%%s': those are the thunks' names; choose another pattern, or "
                 "--thunks none to put the driver's functions in the table");
    return -1;
}

static const char *kind_record_name(const char *kind)
{
    return kind && strcmp(kind, "display-only") == 0 ? "KMDDOD_INITIALIZATION_DATA" : "DRIVER_INITIALIZATION_DATA";
}

const char *skeleton_kind_record(const char *const *params)
{
    return kind_record_name(skeleton_param(params, "driver-kind"));
}

/* skeleton_check_params, the list's names included when names is set. */
static int check_params(xmlDocPtr spec, const char *spec_path, const char *const *params, int names)
{
    const char *version = skeleton_param(params, "ddi-version");
    const char *kind = skeleton_param(params, "driver-kind");
    const char *list = skeleton_param(params, "ddi-list");
    if (!version && !kind && !list)
        return check_pattern_vs_thunks(params);
    int rc = 0;
    xmlNodePtr layout = sx_part(spec, "layout");
    struct ddi_versions vl;
    ddi_versions_read(&vl, layout);
    if (kind && strcmp(kind, "full") != 0 && strcmp(kind, "display-only") != 0) {
        ddigen_error(NULL, 0, "--driver-kind '%s': expected full or display-only", ddigen_quote(kind));
        rc = -1;
    }
    const char *record = kind_record_name(kind);
    xmlNodePtr rec = layout_record(layout, record);
    if (rc == 0 && (kind || (list && strcmp(list, "all") != 0)) && !rec) {
        ddigen_error(spec_path, 0, "the spec has no %s: no %s skeleton", record, kind ? kind : "full");
        rc = -1;
    }
    if (rc == 0 && (version || rec) && vl.n)
        rc = check_range(&vl, version, record, rec);
    if (rc == 0 && names && list && strcmp(list, "all") != 0)
        rc = check_spec_list(layout, spec_path, record, list, skeleton_param(params, "list-file"));
    rc = rc == 0 ? check_pattern_vs_thunks(params) : rc;
    return rc;
}

int skeleton_check_params(xmlDocPtr spec, const char *spec_path, const char *const *params)
{
    return check_params(spec, spec_path, params, 1);
}

int skeleton_check_before_parse(const char *wdk, xmlDocPtr previous, const char *previous_path,
                                const char *const *params)
{
    const char *list = skeleton_param(params, "ddi-list");
    int in_kit = wdk && list && strcmp(list, "all") != 0;
    int rc = 0;
    if (in_kit && check_kit_list(wdk, skeleton_kind_record(params), list, skeleton_param(params, "list-file")) != 0)
        rc = -1;
    if (previous && check_params(previous, previous_path, params, !in_kit) != 0)
        rc = -1;
    return rc;
}

/* The entry of the driver's list for a callback member, by its name, its
 * role typedef, or its name without DxgkDdi ("all" lists every one): 1 and
 * the driver's own name for it (*driver, *driver_len; 0 when the entry
 * gives none), or 0. */
static int list_entry(const char *list, const char *member, const char *role, const char **driver, size_t *driver_len)
{
    *driver = NULL;
    *driver_len = 0;
    if (!strcmp(list, "all"))
        return 1;
    const char *suffix = strncmp(member, "DxgkDdi", 7) == 0 ? member + 7 : NULL;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, " ");
        size_t name = strcspn(p, "= ");
        if (name && ((strlen(member) == name && !strncmp(p, member, name)) ||
                     (role && strlen(role) == name && !strncmp(p, role, name)) ||
                     (suffix && strlen(suffix) == name && !strncmp(p, suffix, name)))) {
            if (name < n) {
                *driver = p + name + 1;
                *driver_len = n - name - 1;
            }
            return 1;
        }
        p += n + (p[n] == ' ');
    }
    return 0;
}

int skeleton_member_listed(const char *const *params, const char *member, const char *role)
{
    const char *list = skeleton_param(params, "ddi-list"), *driver;
    size_t driver_len;
    return list_entry(list ? list : "all", member, role, &driver, &driver_len);
}

static void mark(xmlNodePtr n, xmlNsPtr ns, const char *name)
{
    xmlNewNsProp(n, ns, BAD_CAST name, BAD_CAST "yes");
}

/* The versions of the range. */
static ddi_vset range_set(const struct ddi_versions *vl, const struct skeleton_range *r)
{
    ddi_vset s = 0;
    for (int i = r->lo; i <= r->hi; i++)
        s |= (ddi_vset)1 << i;
    if (r->open_above)
        s |= ddi_vset_all(vl) & ~(((ddi_vset)1 << r->hi) - 1);
    return s;
}

/* The #if condition of a member that exists at only some versions of the
 * range (sb stays empty when it exists at all of them). Versions outside
 * the range stop the build, so they count as the nearer end: a member from
 * WDDM2_1 on is `>= WDDM2_1` whatever the newer ones do. */
static void member_condition(const struct ddi_versions *vl, ddi_vset member, const struct skeleton_range *r,
                             struct strbuf *sb)
{
    ddi_vset range = range_set(vl, r), in = member & range;
    if (in == range)
        return;
    ddi_vset below = ((ddi_vset)1 << r->lo) - 1, above = ddi_vset_all(vl) & ~below & ~range;
    if (member >> r->lo & 1)
        in |= below;
    if (member >> r->hi & 1)
        in |= above;
    ddi_vset_condition(vl, in, sb);
}

/* The IRQL a function type's SAL requires, as text ("PASSIVE_LEVEL",
 * "<= DISPATCH_LEVEL", ">= PASSIVE_LEVEL", ...) into sb; 1 when that is
 * PASSIVE_LEVEL only (pageable). */
static int sal_irql(const char *sal, struct strbuf *sb)
{
    struct ddi_irql irql;
    ddi_irql_from_sal(sal, &irql);
    const char *exact = irql.exact, *max = irql.max, *min = irql.min;
    if (*exact)
        sb_append(sb, exact);
    else if (*min && *max)
        sb_printf(sb, ">= %s, <= %s", min, max);
    else if (*max)
        sb_printf(sb, "<= %s", max);
    else if (*min)
        sb_printf(sb, ">= %s", min);
    return !strcmp(exact, "PASSIVE_LEVEL") || (!*exact && !strcmp(max, "PASSIVE_LEVEL"));
}

/* A reference page's req.irql is PASSIVE_LEVEL only. The pages spell it
 * several ways; anything else ("See Remarks" included) stays resident,
 * which is always safe. */
static int page_irql_passive(const char *irql)
{
    static const char *const passive[] = {"PASSIVE_LEVEL", "<=PASSIVE_LEVEL", "PASSIVE", "requires_(PASSIVE_LEVEL)",
                                          "requires_max_(PASSIVE_LEVEL)"};
    char k[64];
    size_t n = 0;
    for (const char *c = irql; *c && n + 1 < sizeof k; c++)
        if (!strchr(" \t\r\n", *c))
            k[n++] = *c;
    k[n] = '\0';
    for (size_t i = 0; i < sizeof passive / sizeof passive[0]; i++)
        if (!strcmp(k, passive[i]))
            return 1;
    return 0;
}

static const char *page_irql(xmlNodePtr docs, const char *role)
{
    for (xmlNodePtr page = sx_child(docs, "page"); docs && page; page = sx_next(page, "page"))
        if (sx_get(page, "irql") && sx_get(page, "name") && !strcmp(sx_get(page, "name"), role))
            return sx_get(page, "irql");
    return NULL;
}

/* dv:irql (the page's req.irql when the spec has the docs, else the
 * header's SAL) and dv:pageable on a callback's function type. */
static void mark_irql(xmlNodePtr fn, xmlNsPtr ns, xmlNodePtr docs, const char *role)
{
    if (xmlHasNsProp(fn, BAD_CAST "irql", ns->href))
        return; /* two members of one role */
    struct strbuf sb = {0};
    const char *page = docs ? page_irql(docs, role) : NULL;
    int pageable;
    if (page) {
        /* As XPath's normalize-space: the page's text, one space between words. */
        for (const char *c = page; *c; c++)
            if (!strchr(" \t\r\n", *c))
                sb_printf(&sb, "%s%c", sb.len && strchr(" \t\r\n", c[-1]) ? " " : "", *c);
        pageable = page_irql_passive(page);
    } else {
        pageable = sal_irql(sx_get(fn, "sal"), &sb);
    }
    xmlNewNsProp(fn, ns, BAD_CAST "irql", BAD_CAST sb_str(&sb));
    if (pageable)
        mark(fn, ns, "pageable");
    sb_free(&sb);
}

static xmlNodePtr function_type(xmlNodePtr layout, const char *name)
{
    for (xmlNodePtr fn = sx_child(layout, "function-type"); name && fn; fn = sx_next(fn, "function-type"))
        if (sx_get(fn, "name") && !strcmp(sx_get(fn, "name"), name))
            return fn;
    return NULL;
}

/* What the skeleton calls for a callback: the list's own name for it,
 * else --callback-name's pattern, else drv_<Callback>. */
static void driver_name(const char *driver, size_t driver_len, const char *pattern, const char *short_name,
                        struct strbuf *sb)
{
    const char *s = pattern ? strstr(pattern, "%s") : NULL;
    if (driver)
        sb_appendn(sb, driver, driver_len);
    else if (s)
        sb_printf(sb, "%.*s%s%s", (int)(s - pattern), pattern, short_name, s + 2);
    else
        sb_printf(sb, "drv_%s", short_name);
}

struct skeleton_view {
    xmlNodePtr layout, docs;
    xmlNsPtr ns;
    const struct ddi_versions *vl;
    struct skeleton_range range;
    const char *list, *pattern;
};

/* One callback member: exists in the range (and its #if when only at some
 * of it), listed, the driver's name for it. */
static void mark_member(const struct skeleton_view *v, xmlNodePtr f, xmlNodePtr fn, const char *role)
{
    ddi_vset set = sx_get(f, "versions") ? ddi_vset_of(v->vl, sx_get(f, "versions")) : ddi_vset_all(v->vl);
    if (set & range_set(v->vl, &v->range)) {
        struct strbuf cond = {0};
        mark(f, v->ns, "at-chosen");
        member_condition(v->vl, set, &v->range, &cond);
        if (cond.len)
            xmlNewNsProp(f, v->ns, BAD_CAST "member-if", BAD_CAST sb_str(&cond));
        sb_free(&cond);
    }
    const char *name = sx_get(f, "name") ? sx_get(f, "name") : "", *driver;
    size_t driver_len;
    if (!list_entry(v->list, name, role, &driver, &driver_len))
        return;
    mark(f, v->ns, "listed");
    struct strbuf sb = {0};
    driver_name(driver, driver_len, v->pattern, strncmp(name, "DxgkDdi", 7) == 0 ? name + 7 : name, &sb);
    xmlNewNsProp(f, v->ns, BAD_CAST "driver-name", BAD_CAST sb_str(&sb));
    if (strstr(sb_str(&sb), "::"))
        mark(f, v->ns, "driver-member");
    sb_free(&sb);
    mark_irql(fn, v->ns, v->docs, role);
}

/* The kind's record and its callback members. */
static void mark_members(const struct skeleton_view *v, xmlNodePtr rec)
{
    if (ddi_vset_has(record_versions(v->vl, rec), v->range.lo))
        mark(rec, v->ns, "at-chosen");
    for (xmlNodePtr f = sx_child(rec, "field"); f; f = sx_next(f, "field")) {
        xmlNodePtr ptr = function_type(v->layout, sx_get(f, "type"));
        const char *role = ptr ? sx_get(ptr, "pointer-to") : NULL;
        xmlNodePtr fn = function_type(v->layout, role);
        if (role && fn)
            mark_member(v, f, fn, role);
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
    const char *list = skeleton_param(params, "ddi-list");
    struct skeleton_view v = {.layout = layout,
                              .docs = sx_part(spec, "docs"),
                              .ns = ns,
                              .vl = &vl,
                              .list = list ? list : "all",
                              .pattern = skeleton_param(params, "callback-name")};
    xmlNodePtr rec = layout_record(layout, kind_record_name(skeleton_param(params, "driver-kind")));
    if (!vl.n || range_parse(&vl, skeleton_param(params, "ddi-version"), record_versions(&vl, rec), &v.range) != RANGE_OK)
        return; /* skeleton_check_params refused it; the templates say so again */
    int i = 0;
    for (xmlNodePtr ver = sx_child(layout, "version"); ver; ver = sx_next(ver, "version"), i++) {
        if (i == v.range.lo)
            mark(ver, ns, "chosen");
        if (i == v.range.hi && !v.range.open_above)
            mark(ver, ns, "range-last");
    }
    ddi_vset range = range_set(&vl, &v.range);
    for (xmlNodePtr fn = sx_child(layout, "function-type"); fn; fn = sx_next(fn, "function-type"))
        if (sx_get(fn, "versions") ? (ddi_vset_of(&vl, sx_get(fn, "versions")) & range) != 0 : 1)
            mark(fn, ns, "at-chosen");
    if (rec)
        mark_members(&v, rec);
}
