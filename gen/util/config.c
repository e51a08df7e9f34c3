/* ddigen.yaml -> the options of the command line (config.h). The file is
 * untrusted input: its size is bounded, every node is checked for the
 * kind of value its key takes before anything is used, and nothing nests
 * deeper than a key's list or mapping of plain values. */
#include "config.h"

#include "diag.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

/* A config is a few dozen lines; a megabyte is a wrong file. */
#define CONFIG_MAX_BYTES (1u << 20)

enum value_kind {
    V_PATH,   /* a file or folder, relative to the config's folder */
    V_PATHS,  /* one path or a list of paths: the option once per path */
    V_NAMES,  /* one name or a list: the option once, comma-separated */
    V_TEXT,   /* one value as written */
    V_CHOICE, /* one of choices ("a|b") */
    V_BOOL,   /* true: the flag; false: nothing */
    V_PARAM,  /* one value: --param CHOICES=VALUE (choices holds the parameter's name) */
    V_PARAMS, /* a mapping NAME: VALUE: --param NAME=VALUE for each */
};

/* One key for one set of commands. A key's name is its option's long name
 * (except `param`, a mapping), so the file and the command line speak one
 * language. What a key sets is its group: the option's name, or for a
 * template parameter the parameter's; an option of the same group on the
 * command line drops the key (config_apply). */
struct config_key {
    const char *key;
    const char *commands; /* " generate emit " */
    const char *option;
    enum value_kind kind;
    const char *choices;
    const char *expected; /* what the value should be, for messages */
};

static const struct config_key keys[] = {
    /* emit --list-outputs checks a DDI list's names against the kit. */
    {"wdk", " generate emit ", "wdk", V_PATH, NULL, "the kit's Include/<version> folder"},
    {"docs", " generate ", "docs", V_PATHS, NULL, "a folder or file of reference pages, or a list of them"},
    {"overrides", " generate ", "overrides", V_PATH, NULL, "an overrides file"},
    {"reviewed", " generate ", "reviewed", V_PATH, NULL, "a reviewed-rules file"},
    {"previous", " generate ", "previous", V_PATH, NULL, "the committed spec (ddi.xml) whose stable IDs are kept"},
    {"templates", " generate emit ", "templates", V_PATH, NULL, "a templates folder"},
    {"outputs", " generate emit ", "outputs", V_NAMES, NULL, "a family or a list: asserts validate marshal dispatch skeleton"},
    {"arch", " generate ", "arch", V_NAMES, NULL, "an architecture or a list: x86 x64 arm64"},
    {"driver-kind", " generate emit diff ", "driver-kind", V_CHOICE, "full|display-only", "full or display-only"},
    {"ddi-list", " generate emit diff ", "ddi-list", V_PATH, NULL, "the driver's DDI list file"},
    /* generate's own --ddi-version picks the versions parsed; the skeleton's
     * range goes as the parameter emit's --ddi-version sets. */
    {"ddi-version", " emit ", "ddi-version", V_TEXT, NULL, "a DDI version or a range (V1..V2, V1.., ..V2)"},
    {"ddi-version", " generate ", "param", V_PARAM, "ddi-version", "a DDI version or a range (V1..V2, V1.., ..V2)"},
    {"callback-name", " generate emit ", "callback-name", V_TEXT, NULL, "a pattern with one %s, such as MyDdi%s"},
    {"thunks", " generate emit ", "thunks", V_CHOICE, "all|none", "all or none"},
    {"records", " generate emit diff ", "records", V_NAMES, NULL, "a record name or a list of them"},
    {"param", " generate emit ", "param", V_PARAMS, NULL, "a mapping of template parameters (NAME: VALUE)"},
    /* The lint level: error-level findings fail generate. */
    {"werror", " generate ", "werror", V_BOOL, NULL, "true or false"},
    /* What diff reports and which changes fail it (CI). */
    {"scope", " diff ", "scope", V_CHOICE, "ddi|all", "ddi or all"},
    {"fail-on", " diff ", "fail-on", V_CHOICE, "any|source|abi", "any, source or abi"},
    /* SARIF roots: prefixes of the URIs lint writes. */
    {"docs-root", " lint ", "docs-root", V_TEXT, NULL, "the pages' folder as the SARIF names it"},
    {"headers-root", " lint ", "headers-root", V_TEXT, NULL, "the kit's folder as the SARIF names it"},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The commands that read a config (and take --config / --no-config). */
static const char reading_commands[] = " generate emit lint diff ";

/* One option made from the file: "--option" and its value (NULL for a
 * flag), what it sets, and where it was written. */
struct config_item {
    const char *option, *value, *group, *origin;
};

struct parse {
    const char *name; /* the file, in messages */
    const char *dir;  /* its folder, for relative paths ("" when none) */
    const char *command;
    yaml_document_t *doc;
    struct vec *items;
    struct arena *a;
};

static int for_command(const struct config_key *k, const char *command)
{
    char word[64];
    snprintf(word, sizeof word, " %s ", command);
    return strstr(k->commands, word) != NULL;
}

/* An error at a node of the file: FILE:LINE:COL (libyaml counts from 0). */
#define report_at(p, mark, ...)                                                                                        \
    ddigen_report_foreign(DDIGEN_ERROR, "error", (p)->name, (unsigned)(mark).line + 1, (unsigned)(mark).column + 1,    \
                          __VA_ARGS__)

static const char *origin_of(const struct parse *p, const yaml_node_t *n)
{
    return arena_printf(p->a, "%s:%u:%u", p->name, (unsigned)n->start_mark.line + 1,
                        (unsigned)n->start_mark.column + 1);
}

/* A scalar's text: non-empty, no NUL byte; NULL after reporting. */
static const char *scalar_text(const struct parse *p, const yaml_node_t *n, const struct config_key *k)
{
    if (n->type != YAML_SCALAR_NODE) {
        report_at(p, n->start_mark, "'%s': expected %s", k->key, k->expected);
        return NULL;
    }
    const char *s = (const char *)n->data.scalar.value;
    size_t len = n->data.scalar.length;
    if (!len || strlen(s) != len) {
        report_at(p, n->start_mark, "'%s': %s; expected %s", k->key, len ? "a NUL byte in the value" : "an empty value",
                  k->expected);
        return NULL;
    }
    return s;
}

static void push(const struct parse *p, const yaml_node_t *n, const char *option, const char *value,
                 const char *group)
{
    struct config_item *it = arena_alloc(p->a, sizeof *it);
    it->option = arena_printf(p->a, "--%s", option);
    it->value = value ? arena_strdup(p->a, value) : NULL;
    it->group = group;
    it->origin = origin_of(p, n);
    vec_push(p->items, it);
}

static const char *resolved(const struct parse *p, const char *path)
{
    return path[0] == '/' || !p->dir[0] ? path : arena_printf(p->a, "%s/%s", p->dir, path);
}

/* A key's value: one scalar, or (V_PATHS, V_NAMES) a list of scalars. The
 * values are checked whether or not the key is for this command, so a
 * file is refused by every command alike. */
static int take_list(const struct parse *p, const yaml_node_t *v, const struct config_key *k, int use)
{
    struct vec vals = {0};
    const yaml_node_t *at = v;
    int ok = 1;
    if (v->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *i = v->data.sequence.items.start; ok && i < v->data.sequence.items.top; i++) {
            const yaml_node_t *item = yaml_document_get_node(p->doc, *i);
            const char *s = item ? scalar_text(p, item, k) : NULL;
            ok = s != NULL;
            if (ok)
                vec_push(&vals, (void *)s);
        }
        if (ok && !vals.len) {
            report_at(p, v->start_mark, "'%s': an empty list; expected %s", k->key, k->expected);
            ok = 0;
        }
    } else {
        const char *s = scalar_text(p, v, k);
        ok = s != NULL;
        if (ok)
            vec_push(&vals, (void *)s);
    }
    if (ok && use && k->kind == V_PATHS)
        for (size_t i = 0; i < vals.len; i++)
            push(p, at, k->option, resolved(p, vals.items[i]), k->option);
    if (ok && use && k->kind == V_NAMES) {
        char *joined = "";
        for (size_t i = 0; i < vals.len; i++)
            joined = arena_printf(p->a, "%s%s%s", joined, i ? "," : "", (const char *)vals.items[i]);
        push(p, at, k->option, joined, k->option);
    }
    vec_free(&vals);
    return ok ? 0 : -1;
}

/* param: a mapping of NAME: VALUE, each --param NAME=VALUE (checked as
 * such by the command, at this line). */
static int take_params(const struct parse *p, const yaml_node_t *v, const struct config_key *k, int use)
{
    if (v->type != YAML_MAPPING_NODE) {
        report_at(p, v->start_mark, "'%s': expected %s", k->key, k->expected);
        return -1;
    }
    for (yaml_node_pair_t *pair = v->data.mapping.pairs.start; pair < v->data.mapping.pairs.top; pair++) {
        const yaml_node_t *name = yaml_document_get_node(p->doc, pair->key);
        const yaml_node_t *value = yaml_document_get_node(p->doc, pair->value);
        const char *n = name ? scalar_text(p, name, k) : NULL;
        const char *s = n && value ? scalar_text(p, value, k) : NULL;
        if (!s)
            return -1;
        if (use)
            push(p, value, k->option, arena_printf(p->a, "%s=%s", n, s), arena_strdup(p->a, n));
    }
    return 0;
}

static int take_scalar(const struct parse *p, const yaml_node_t *v, const struct config_key *k, int use)
{
    const char *s = scalar_text(p, v, k);
    if (!s)
        return -1;
    if (k->kind == V_CHOICE || k->kind == V_BOOL) {
        const char *choices = k->kind == V_BOOL ? "true|false|yes|no|on|off" : k->choices;
        size_t n = strlen(s);
        const char *hit = strstr(choices, s);
        int found = n < 64 && hit && (hit == choices || hit[-1] == '|') && (hit[n] == '|' || !hit[n]);
        if (!found) {
            report_at(p, v->start_mark, "'%s': '%s'; expected %s", k->key, ddigen_quote(s), k->expected);
            return -1;
        }
        if (use && (k->kind == V_CHOICE || !strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")))
            push(p, v, k->option, k->kind == V_CHOICE ? s : NULL, k->option);
        return 0;
    }
    if (use && k->kind == V_PATH)
        push(p, v, k->option, resolved(p, s), k->option);
    else if (use && k->kind == V_PARAM)
        push(p, v, k->option, arena_printf(p->a, "%s=%s", k->choices, s), k->choices);
    else if (use)
        push(p, v, k->option, s, k->option);
    return 0;
}

/* The entry of key for the command (NULL when the key is for others
 * only); *known: whether any entry has that key. */
static const struct config_key *find_key(const char *key, const char *command, const struct config_key **known)
{
    *known = NULL;
    for (size_t i = 0; i < NKEYS; i++) {
        if (strcmp(keys[i].key, key) != 0)
            continue;
        if (!*known)
            *known = &keys[i];
        if (for_command(&keys[i], command))
            return &keys[i];
    }
    return NULL;
}

static const char *key_names(struct arena *a)
{
    char *names = "";
    for (size_t i = 0; i < NKEYS; i++)
        if (i == 0 || strcmp(keys[i].key, keys[i - 1].key) != 0)
            names = arena_printf(a, "%s%s%s", names, i ? ", " : "", keys[i].key);
    return names;
}

static int take_pair(const struct parse *p, const yaml_node_pair_t *pair)
{
    const yaml_node_t *kn = yaml_document_get_node(p->doc, pair->key);
    const yaml_node_t *v = yaml_document_get_node(p->doc, pair->value);
    if (!kn || !v || kn->type != YAML_SCALAR_NODE) {
        report_at(p, kn ? kn->start_mark : p->doc->start_mark, "expected a key (one of %s)", key_names(p->a));
        return -1;
    }
    const char *key = (const char *)kn->data.scalar.value;
    const struct config_key *known, *k = find_key(key, p->command, &known);
    if (!known || strlen(key) != kn->data.scalar.length) {
        report_at(p, kn->start_mark, "unknown key '%s'; expected one of %s", ddigen_quote(key), key_names(p->a));
        return -1;
    }
    const struct config_key *check = k ? k : known;
    int use = k != NULL;
    if (check->kind == V_PATHS || check->kind == V_NAMES)
        return take_list(p, v, check, use);
    if (check->kind == V_PARAMS)
        return take_params(p, v, check, use);
    return take_scalar(p, v, check, use);
}

/* Each key once: two would leave which one counts to the reader. */
static int check_duplicates(const struct parse *p, const yaml_node_t *root)
{
    for (yaml_node_pair_t *i = root->data.mapping.pairs.start; i < root->data.mapping.pairs.top; i++)
        for (yaml_node_pair_t *j = root->data.mapping.pairs.start; j < i; j++) {
            const yaml_node_t *a = yaml_document_get_node(p->doc, i->key);
            const yaml_node_t *b = yaml_document_get_node(p->doc, j->key);
            if (a && b && a->type == YAML_SCALAR_NODE && b->type == YAML_SCALAR_NODE &&
                a->data.scalar.length == b->data.scalar.length &&
                !memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length)) {
                report_at(p, a->start_mark, "'%s' given twice (first at line %u)",
                          ddigen_quote((const char *)a->data.scalar.value), (unsigned)b->start_mark.line + 1);
                return -1;
            }
        }
    return 0;
}

static int parse_items(const char *name, const char *dir, const char *text, size_t len, const char *command,
                       struct vec *items, struct arena *a)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    struct parse p = {.name = name, .dir = dir, .command = command, .doc = &doc, .items = items, .a = a};
    if (!yaml_parser_initialize(&parser)) {
        ddigen_error(name, 0, "out of memory");
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int rc = 0;
    if (!yaml_parser_load(&parser, &doc)) {
        ddigen_report_foreign(DDIGEN_ERROR, "error", name, (unsigned)parser.problem_mark.line + 1,
                              (unsigned)parser.problem_mark.column + 1, "not YAML: %s%s%s",
                              parser.problem ? parser.problem : "unreadable", parser.context ? " " : "",
                              parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && root->type != YAML_MAPPING_NODE) {
        report_at(&p, root->start_mark, "expected keys (%s) and their values", key_names(a));
        rc = -1;
    }
    if (rc == 0 && root && check_duplicates(&p, root) != 0)
        rc = -1;
    for (yaml_node_pair_t *pair = root && rc == 0 ? root->data.mapping.pairs.start : NULL;
         pair && pair < root->data.mapping.pairs.top && rc == 0; pair++)
        rc = take_pair(&p, pair);
    yaml_document_delete(&doc);
    /* One document: a second would be ignored without a word. */
    if (rc == 0 && root) {
        yaml_document_t next;
        if (yaml_parser_load(&parser, &next)) {
            yaml_node_t *more = yaml_document_get_root_node(&next);
            if (more) {
                report_at(&p, more->start_mark, "a second YAML document; expected one");
                rc = -1;
            }
            yaml_document_delete(&next);
        }
    }
    yaml_parser_delete(&parser);
    return rc;
}

int config_parse(const char *name, const char *text, size_t len, const char *command, struct vec *out,
                 struct arena *a)
{
    struct vec items = {0};
    int rc = parse_items(name, "", text, len, command, &items, a);
    for (size_t i = 0; rc == 0 && i < items.len; i++) {
        struct config_item *it = items.items[i];
        vec_push(out, (void *)it->option);
        if (it->value)
            vec_push(out, (void *)it->value);
    }
    vec_free(&items);
    return rc;
}

/* ---- the command line ------------------------------------------------- */

static struct vec origins; /* pairs: argv string, "FILE:LINE:COL" */

const char *config_origin(const char *arg)
{
    for (size_t i = 0; arg && i + 1 < origins.len; i += 2)
        if (origins.items[i] == arg)
            return origins.items[i + 1];
    return NULL;
}

void config_reset(void)
{
    vec_free(&origins);
}

/* What a command-line option sets (its group, see struct config_key):
 * --all sets the DDI list; --param NAME=V and the option naming the
 * template parameter NAME set the same thing. */
static const char *group_of(const char *arg, const char *next, struct arena *a)
{
    const char *name = arg + 2;
    size_t n = strcspn(name, "=");
    if (n == 5 && !strncmp(name, "param", 5)) {
        const char *v = name[n] == '=' ? name + n + 1 : next;
        return v ? arena_strndup(a, v, strcspn(v, "=")) : NULL;
    }
    if (n == 3 && !strncmp(name, "all", 3))
        return "ddi-list";
    return arena_strndup(a, name, n);
}

static int given_on_command_line(const char *group, int argc, char **argv, struct arena *a)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *g = !strncmp(argv[i], "--", 2) ? group_of(argv[i], i + 1 < argc ? argv[i + 1] : NULL, a) : NULL;
        if (g && !strcmp(g, group))
            return 1;
    }
    return 0;
}

/* Takes --config FILE, --config=FILE and --no-config out of argv. */
static int take_config_options(int *argc, char **argv, const char **file, int *none, int *help)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--")) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (!strcmp(s, "--help") || !strcmp(s, "-h"))
            *help = 1;
        if (!strcmp(s, "--no-config")) {
            *none = 1;
        } else if (!strncmp(s, "--config=", 9)) {
            *file = s + 9;
        } else if (!strcmp(s, "--config")) {
            if (i + 1 >= *argc) {
                ddigen_error(NULL, 0, "%s: option '--config' needs a value", argv[0]);
                return -1;
            }
            *file = argv[++i];
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

int config_apply(const char *command, int *argc, char ***argv, struct arena *a)
{
    char word[64];
    snprintf(word, sizeof word, " %s ", command);
    if (!strstr(reading_commands, word))
        return 0;
    const char *file = NULL;
    int none = 0, help = 0;
    if (take_config_options(argc, *argv, &file, &none, &help) != 0)
        return 2;
    if (file && none) {
        ddigen_error(NULL, 0, "%s: --config and --no-config together", command);
        return 2;
    }
    if (!file && !none && access(DDIGEN_CONFIG_NAME, F_OK) == 0)
        file = DDIGEN_CONFIG_NAME;
    if (!file || help)
        return 0;
    char *text = NULL;
    size_t len = 0;
    if (ddigen_read_file(file, &text, &len) != 0)
        return 2;
    struct vec items = {0};
    const char *slash = strrchr(file, '/');
    const char *dir = slash ? arena_strndup(a, file, (size_t)(slash - file) + (slash == file)) : "";
    int rc = 0;
    if (len > CONFIG_MAX_BYTES) {
        ddigen_error(file, 0, "%zu bytes; a config is expected to be at most %u", len, CONFIG_MAX_BYTES);
        rc = -1;
    }
    if (rc == 0)
        rc = parse_items(file, dir, text, len, command, &items, a);
    free(text);
    if (rc != 0) {
        vec_free(&items);
        return 2;
    }
    /* argv: the command, the config's options the command line does not
     * set itself, then the command line. */
    char **nargv = arena_alloc(a, (size_t)(*argc + 2 * (int)items.len + 1) * sizeof *nargv);
    int n = 0;
    nargv[n++] = (*argv)[0];
    for (size_t i = 0; i < items.len; i++) {
        struct config_item *it = items.items[i];
        if (given_on_command_line(it->group, *argc, *argv, a))
            continue;
        nargv[n] = arena_strdup(a, it->option);
        vec_push(&origins, nargv[n]);
        vec_push(&origins, (void *)it->origin);
        n++;
        if (it->value) {
            nargv[n] = (char *)it->value;
            vec_push(&origins, nargv[n]);
            vec_push(&origins, (void *)it->origin);
            n++;
        }
    }
    for (int i = 1; i < *argc; i++)
        nargv[n++] = (*argv)[i];
    nargv[n] = NULL;
    *argc = n;
    *argv = nargv;
    vec_free(&items);
    return 0;
}
