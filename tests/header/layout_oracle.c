/* Layout oracle: compares every size, alignment and field offset in a spec
 * with clang's own -fdump-record-layouts for the same translation unit,
 * for each architecture and DDI version of the spec. Independent of the
 * ingestion code: the numbers come from the clang driver, parsed here.
 *
 * usage: layout_oracle SPEC.xml CLANG WDK_DIR OVERLAY */
#define _GNU_SOURCE
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *spec_path, *clang_path, *wdk_dir, *overlay_path;
static xmlDocPtr spec;

struct entry {
    char *key; /* "struct _X" or "struct _X|path" */
    long long a, b;
};

struct dump {
    struct entry *items;
    size_t len, cap;
};

static void dump_add(struct dump *d, const char *key, long long a, long long b)
{
    if (d->len == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 1024;
        d->items = realloc(d->items, d->cap * sizeof *d->items);
    }
    d->items[d->len++] = (struct entry){strdup(key), a, b};
}

static const struct entry *dump_find(const struct dump *d, const char *key)
{
    for (size_t i = 0; i < d->len; i++)
        if (strcmp(d->items[i].key, key) == 0)
            return &d->items[i];
    return NULL;
}

static void dump_free(struct dump *d)
{
    for (size_t i = 0; i < d->len; i++)
        free(d->items[i].key);
    free(d->items);
}

/* "  UINT [64] Reserved" -> "Reserved"; anonymous members give "". */
static void member_name(const char *decl, char *name, size_t cap)
{
    size_t n = strlen(decl);
    while (n && (decl[n - 1] == ' ' || decl[n - 1] == '\n'))
        n--;
    size_t start = n;
    while (start && (decl[start - 1] == '_' || (decl[start - 1] >= '0' && decl[start - 1] <= '9') ||
                     (decl[start - 1] >= 'a' && decl[start - 1] <= 'z') ||
                     (decl[start - 1] >= 'A' && decl[start - 1] <= 'Z')))
        start--;
    /* "union _X::(anonymous at f.h:1:2)" ends in ')': no name. A lone type
     * word with no name cannot happen for a member line. */
    if (start == n || (start > 0 && decl[start - 1] == ':') || !strchr(decl, ' ')) {
        name[0] = '\0';
        return;
    }
    snprintf(name, cap, "%.*s", (int)(n - start), decl + start);
}

/* dst = parent.name (or parent when name is empty), cut to fit. */
static void join_path(char *dst, size_t cap, const char *parent, const char *name)
{
    size_t n = 0;
    for (const char *p = parent; *p && n + 1 < cap; p++)
        dst[n++] = *p;
    if (name[0] && n && n + 1 < cap)
        dst[n++] = '.';
    for (const char *p = name; *p && n + 1 < cap; p++)
        dst[n++] = *p;
    dst[n] = '\0';
}

/* Parses clang's dump: for each record block, its size/alignment and each
 * member's bit offset under the designator path built from indentation. */
static void parse_dump(FILE *f, struct dump *d)
{
    char line[4096], record[1024] = "", paths[64][1024];
    while (fgets(line, sizeof line, f)) {
        char *bar = strchr(line, '|');
        if (!bar)
            continue;
        char *decl = bar + 2;
        if (!strncmp(bar, "| [sizeof=", 10)) {
            long long size = 0, align = 0;
            const char *al = strstr(bar, "align=");
            size = atoll(bar + 10);
            align = al ? atoll(al + 6) : 0;
            if (record[0])
                dump_add(d, record, size, align);
            continue;
        }
        size_t indent = 0;
        while (decl[indent] == ' ')
            indent++;
        size_t depth = indent / 2;
        long long byte = atoll(line), bit = 0;
        char *colon = strchr(line, ':');
        if (colon && colon < bar)
            bit = atoll(colon + 1);
        if (depth == 0) {
            snprintf(record, sizeof record, "%.*s", (int)strcspn(decl, "\n"), decl);
            paths[0][0] = '\0';
            continue;
        }
        if (depth >= 64)
            continue;
        char name[256];
        member_name(decl + indent, name, sizeof name);
        join_path(paths[depth], sizeof paths[depth], paths[depth - 1], name);
        if (name[0]) {
            char key[2048];
            snprintf(key, sizeof key, "%s|%s", record, paths[depth]);
            if (!dump_find(d, key))
                dump_add(d, key, byte * 8 + bit, 0);
        }
    }
}

static const char *const triples[] = {"i686-pc-windows-msvc", "x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc"};
static const char *const arch_defs[] = {"-D_X86_", "-D_AMD64_", "-D_ARM64_"};
static const char *const arch_names[] = {"x86", "x64", "arm64"};

static xmlXPathObjectPtr query(xmlNodePtr at, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(spec);
    ctx->node = at;
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    xmlXPathFreeContext(ctx);
    return r;
}

static char *prop(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, BAD_CAST name);
}

/* Does a "WDDM2_0-WDDM3_1 WDDM3_2" set (NULL = all) contain version index v? */
static int holds(const char *versions, int v, char **shorts, int nshort)
{
    if (!versions)
        return 1;
    const char *p = versions;
    while (*p) {
        size_t len = strcspn(p, " ");
        char range[256];
        snprintf(range, sizeof range, "%.*s", (int)len, p);
        char *dash = strchr(range, '-');
        if (dash)
            *dash = '\0';
        int lo = -1, hi = -1;
        for (int i = 0; i < nshort; i++) {
            if (!strcmp(shorts[i], range))
                lo = i;
            if (!strcmp(shorts[i], dash ? dash + 1 : range))
                hi = i;
        }
        if (lo >= 0 && hi >= 0 && v >= lo && v <= hi)
            return 1;
        p += len;
        while (*p == ' ')
            p++;
    }
    return 0;
}

static char *record_key(xmlNodePtr rec)
{
    char *tag = prop(rec, "tag"), *name = prop(rec, "name"), *kind = prop(rec, "kind");
    char *key = malloc(512);
    snprintf(key, 512, "%s %s", kind, tag ? tag : name);
    xmlFree(tag);
    xmlFree(name);
    xmlFree(kind);
    return key;
}

static int check_config(int arch, int v, char **shorts, char **macros, int nshort, int *compared)
{
    char probe[] = "/tmp/ddigen-oracle-XXXXXX.c";
    int fd = mkstemps(probe, 2);
    FILE *p = fdopen(fd, "w");
    fputs("#include <ntddk.h>\n#include <dispmprt.h>\n", p);
    xmlXPathObjectPtr recs = query(xmlDocGetRootElement(spec), "/ddi-spec/layout/record");
    int n = recs->nodesetval ? recs->nodesetval->nodeNr : 0;
    for (int i = 0; i < n; i++) {
        xmlNodePtr r = recs->nodesetval->nodeTab[i];
        char *name = prop(r, "name"), *tag = prop(r, "tag"), *kind = prop(r, "kind");
        char expr[512];
        snprintf(expr, sizeof expr, "size[@arch='%s']", arch_names[arch]);
        xmlXPathObjectPtr sizes = query(r, expr);
        int present = 0;
        for (int s = 0; sizes->nodesetval && s < sizes->nodesetval->nodeNr; s++) {
            char *vs = prop(sizes->nodesetval->nodeTab[s], "versions");
            present |= holds(vs, v, shorts, nshort);
            xmlFree(vs);
        }
        if (present)
            fprintf(p, "char ddigen_probe_%d[sizeof(%s%s%s)];\n", i, tag && !strcmp(tag, name) ? kind : "",
                    tag && !strcmp(tag, name) ? " " : "", name);
        xmlXPathFreeObject(sizes);
        xmlFree(name);
        xmlFree(tag);
        xmlFree(kind);
    }
    fclose(p);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' -fsyntax-only -target %s -fms-extensions -fms-compatibility -fms-compatibility-version=19.38 "
             "-nostdlibinc %s -D_KERNEL_MODE %s%s -ivfsoverlay '%s' -I'%s/km' -I'%s/shared' -I'%s/um' "
             "-Xclang -fdump-record-layouts '%s' 2>/dev/null",
             clang_path, triples[arch], arch_defs[arch], macros[v][0] ? "-DDXGKDDI_INTERFACE_VERSION=" : "",
             macros[v], overlay_path, wdk_dir, wdk_dir, wdk_dir, probe);
    FILE *out = popen(cmd, "r");
    struct dump d = {0};
    parse_dump(out, &d);
    pclose(out);
    remove(probe);

    int failures = 0;
    for (int i = 0; i < n; i++) {
        xmlNodePtr r = recs->nodesetval->nodeTab[i];
        char *key = record_key(r);
        char expr[256];
        snprintf(expr, sizeof expr, "size[@arch='%s']", arch_names[arch]);
        xmlXPathObjectPtr sizes = query(r, expr);
        for (int s = 0; sizes->nodesetval && s < sizes->nodesetval->nodeNr; s++) {
            xmlNodePtr sz = sizes->nodesetval->nodeTab[s];
            char *vs = prop(sz, "versions"), *bytes = prop(sz, "bytes"), *align = prop(sz, "align");
            if (holds(vs, v, shorts, nshort)) {
                const struct entry *e = dump_find(&d, key);
                (*compared)++;
                if (!e || e->a != atoll(bytes) || e->b != atoll(align)) {
                    fprintf(stderr, "%s %s: %s: spec says size %s align %s, clang says %lld %lld\n",
                            arch_names[arch], shorts[v], key, bytes, align, e ? e->a : -1, e ? e->b : -1);
                    failures++;
                }
            }
            xmlFree(vs);
            xmlFree(bytes);
            xmlFree(align);
        }
        xmlXPathFreeObject(sizes);
        snprintf(expr, sizeof expr, ".//field[@name!='']/offset[@arch='%s']", arch_names[arch]);
        xmlXPathObjectPtr offs = query(r, expr);
        for (int o = 0; offs->nodesetval && o < offs->nodesetval->nodeNr; o++) {
            xmlNodePtr off = offs->nodesetval->nodeTab[o];
            char *vs = prop(off, "versions"), *bits = prop(off, "bits"), *path = prop(off->parent, "path");
            if (holds(vs, v, shorts, nshort)) {
                char fkey[2048];
                snprintf(fkey, sizeof fkey, "%s|%s", key, path);
                const struct entry *e = dump_find(&d, fkey);
                (*compared)++;
                if (!e || e->a != atoll(bits)) {
                    fprintf(stderr, "%s %s: %s.%s: spec says bit offset %s, clang says %lld\n", arch_names[arch],
                            shorts[v], key, path, bits, e ? e->a : -1);
                    failures++;
                }
            }
            xmlFree(vs);
            xmlFree(bits);
            xmlFree(path);
        }
        xmlXPathFreeObject(offs);
        free(key);
    }
    xmlXPathFreeObject(recs);
    dump_free(&d);
    return failures;
}

static void check_arch(int arch)
{
    xmlXPathObjectPtr vers = query(xmlDocGetRootElement(spec), "/ddi-spec/layout/version");
    int nv = vers->nodesetval ? vers->nodesetval->nodeNr : 0;
    char **shorts = calloc((size_t)nv, sizeof *shorts), **macros = calloc((size_t)nv, sizeof *macros);
    for (int i = 0; i < nv; i++) {
        shorts[i] = prop(vers->nodesetval->nodeTab[i], "short");
        macros[i] = prop(vers->nodesetval->nodeTab[i], "name");
        if (!strcmp(macros[i], "DEFAULT"))
            macros[i][0] = '\0';
    }
    int failures = 0, compared = 0;
    for (int v = 0; v < nv; v++)
        failures += check_config(arch, v, shorts, macros, nv, &compared);
    printf("%s: %d values compared with clang over %d DDI versions, %d differ\n", arch_names[arch], compared, nv,
           failures);
    for (int i = 0; i < nv; i++) {
        xmlFree(shorts[i]);
        xmlFree(macros[i]);
    }
    free(shorts);
    free(macros);
    xmlXPathFreeObject(vers);
    assert_true(compared > 0);
    assert_int_equal(failures, 0);
}

static void oracle_x86(void **state) { (void)state; check_arch(0); }
static void oracle_x64(void **state) { (void)state; check_arch(1); }
static void oracle_arm64(void **state) { (void)state; check_arch(2); }

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s SPEC.xml CLANG WDK_DIR OVERLAY\n", argv[0]);
        return 2;
    }
    spec_path = argv[1];
    clang_path = argv[2];
    wdk_dir = argv[3];
    overlay_path = argv[4];
    spec = xmlReadFile(spec_path, NULL, XML_PARSE_NONET);
    if (!spec) {
        fprintf(stderr, "%s: cannot read the spec\n", spec_path);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(oracle_x86),
        cmocka_unit_test(oracle_x64),
        cmocka_unit_test(oracle_arm64),
    };
    int rc = cmocka_run_group_tests_name(spec_path, tests, NULL, NULL);
    xmlFreeDoc(spec);
    return rc;
}
