/* ddigen check-driver: options, each source's compile command (flags after
 * "--", or its compile_commands.json entry, on top of the kit's MSVC-mode
 * command line from the header stage), then compare and report. */
#include "checkdriver.h"

#include "compare.h"
#include "report.h"

#include "../header/clang_args.h"
#include "../util/clang_api.h"
#include "../util/cli.h"
#include "../util/diag.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef DDIGEN_CLANG_RESOURCE_DIR
#define DDIGEN_CLANG_RESOURCE_DIR ""
#endif
#ifndef DDIGEN_VERSION
#define DDIGEN_VERSION "0"
#endif

static const char usage[] =
    "usage: ddigen check-driver SRC... --spec SPEC.xml [--wdk KIT] [--arch x86|x64|arm64]\n"
    "                           [-p compile_commands.json|DIR | -- FLAGS...] [--sarif FILE] [-o FILE]\n"
    "  parses the driver's sources with libclang and reports each DDI callback whose definition\n"
    "  differs from the DDI: calling convention, parameter count and types, result type (errors),\n"
    "  SAL of a parameter (warning), a PAGE callback without PAGED_CODE() (warning) or one the DDI\n"
    "  calls at DISPATCH_LEVEL or above (error). Callbacks are the functions assigned to\n"
    "  DRIVER_INITIALIZATION_DATA / KMDDOD_INITIALIZATION_DATA members or declared through a\n"
    "  DDI role typedef (DXGKDDI_PATCH HwPatch;).\n"
    "  --wdk KIT     the kit's include folders and the MSVC kernel-mode command line for --arch\n"
    "                (default x64), before the source's own flags\n"
    "  -p DB         each source's flags from its compile_commands.json entry\n"
    "  -- FLAGS      the sources' flags (-I, -D, -target ...)\n"
    "  -o FILE       the findings, gcc-style (default: stdout); --sarif FILE: SARIF 2.1.0\n"
    "  exit: 0 no error-level finding, 1 an error-level finding, 2 usage, unreadable input or a\n"
    "  source that does not compile (clang's errors are printed)\n";

struct options {
    const char *spec, *wdk, *db, *sarif, *out;
    enum ddi_arch arch;
    struct vec sources;
    const char *const *flags;
    int nflags;
};

enum { OPT_SPEC = 256, OPT_WDK, OPT_ARCH, OPT_SARIF };

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"spec", required_argument, NULL, OPT_SPEC},
        {"wdk", required_argument, NULL, OPT_WDK},
        {"arch", required_argument, NULL, OPT_ARCH},
        {"sarif", required_argument, NULL, OPT_SARIF},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    /* What follows "--" is the compiler's, not ours. */
    int ours = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            ours = i;
            o->flags = (const char *const *)argv + i + 1;
            o->nflags = argc - i - 1;
            break;
        }
    o->arch = DDI_ARCH_X64;
    optind = 1;
    int c;
    while ((c = cli_getopt(ours, argv, "p:o:h", longopts)) != -1) {
        switch (c) {
        case OPT_SPEC: o->spec = optarg; break;
        case OPT_WDK: o->wdk = optarg; break;
        case OPT_SARIF: o->sarif = optarg; break;
        case 'p': o->db = optarg; break;
        case 'o': o->out = optarg; break;
        case OPT_ARCH:
            if (ddi_arch_parse(optarg, &o->arch) != 0) {
                ddigen_error(NULL, 0, "check-driver: --arch '%s': expected x86, x64 or arm64", ddigen_quote(optarg));
                return 2;
            }
            break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    for (int i = optind; i < ours; i++)
        vec_push(&o->sources, argv[i]);
    const char *missing = !o->sources.len      ? "no source given"
                          : !o->spec           ? "--spec SPEC.xml is required"
                          : o->db && o->nflags ? "give -p or -- FLAGS, not both"
                                               : NULL;
    if (missing) {
        ddigen_error(NULL, 0, "check-driver: %s", missing);
        fputs(usage, stderr);
        return 2;
    }
    return -1; /* go on */
}

/* ---------- command lines ---------- */

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

struct commands {
    struct arena arena;
    struct parse_setup setup;
    int have_kit;
    const char *kit_root; /* realpath */
    CXCompilationDatabase db;
};

static int setup_kit(struct commands *k, const char *wdk)
{
    char buf[PATH_MAX];
    if (!realpath(wdk, buf) || !is_dir(buf)) {
        ddigen_error(wdk, 0, "WDK include folder does not exist");
        return -1;
    }
    k->kit_root = arena_strdup(&k->arena, buf);
    static const char *const parts[] = {"km", "km/crt", "shared", "um", "ucrt"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char *d = arena_printf(&k->arena, "%s/%s", k->kit_root, parts[i]);
        if (is_dir(d))
            vec_push(&k->setup.include_dirs, d);
    }
    if (!k->setup.include_dirs.len) {
        ddigen_error(wdk, 0, "not a WDK Include/<version> folder: no km/ inside");
        return -1;
    }
    k->setup.overlay_path = write_case_insensitive_overlay(&k->arena, &k->setup.include_dirs);
    const char *res = getenv("DDIGEN_CLANG_RESOURCE_DIR");
    if (!res || !*res)
        res = DDIGEN_CLANG_RESOURCE_DIR;
    k->setup.resource_dir = *res ? res : NULL;
    k->have_kit = 1;
    return k->setup.overlay_path ? 0 : -1;
}

static int open_database(struct commands *k, const char *db)
{
    /* -p names the folder of compile_commands.json, or the file itself. */
    char *dir = arena_strdup(&k->arena, db);
    size_t n = strlen(dir);
    if (n > 5 && !strcmp(dir + n - 5, ".json")) {
        char *slash = strrchr(dir, '/');
        dir = slash ? (slash == dir ? "/" : (*slash = '\0', dir)) : ".";
    }
    /* libclang prints its own complaint about a missing database: say ours instead. */
    char *file = arena_printf(&k->arena, "%s/compile_commands.json", dir);
    if (access(file, R_OK) != 0) {
        ddigen_error(file, 0, "cannot read: %s", strerror(errno));
        return -1;
    }
    CXCompilationDatabase_Error err;
    k->db = clang_CompilationDatabase_fromDirectory(dir, &err);
    if (err != CXCompilationDatabase_NoError || !k->db) {
        ddigen_error(db, 0, "cannot read compile_commands.json there");
        return -1;
    }
    return 0;
}

static int is_cxx(const char *source)
{
    const char *dot = strrchr(source, '.');
    return dot && (!strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".cxx") || !strcmp(dot, ".C"));
}

static int same_file(const char *dir, const char *arg, const char *abs_source)
{
    char buf[PATH_MAX];
    const char *p = arg[0] == '/' ? arg : NULL;
    char *joined = NULL;
    if (!p && asprintf(&joined, "%s/%s", dir, arg) >= 0)
        p = joined;
    int same = p && realpath(p, buf) && !strcmp(buf, abs_source);
    free(joined);
    return same;
}

/* The entry's arguments without the compiler, -c, -o FILE and the source. */
static int database_args(struct commands *k, const char *source, const char *abs_source, struct vec *args)
{
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(k->db, abs_source);
    if (!cmds || !clang_CompileCommands_getSize(cmds)) {
        if (cmds)
            clang_CompileCommands_dispose(cmds);
        ddigen_error(source, 0, "no entry for this source in the compile_commands.json given with -p");
        return -1;
    }
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    CXString dir_s = clang_CompileCommand_getDirectory(cmd);
    const char *dir = arena_strdup(&k->arena, clang_getCString(dir_s));
    clang_disposeString(dir_s);
    vec_push(args, "-working-directory");
    vec_push(args, (void *)dir);
    for (unsigned i = 1, n = clang_CompileCommand_getNumArgs(cmd); i < n; i++) {
        CXString s = clang_CompileCommand_getArg(cmd, i);
        const char *arg = arena_strdup(&k->arena, clang_getCString(s));
        clang_disposeString(s);
        if (!strcmp(arg, "-o") && i + 1 < n) {
            i++;
            continue;
        }
        if (!strcmp(arg, "-c") || same_file(dir, arg, abs_source))
            continue;
        vec_push(args, (void *)arg);
    }
    clang_CompileCommands_dispose(cmds);
    return 0;
}

static int command_for(struct commands *k, const struct options *o, const char *source, struct vec *args)
{
    char abs_source[PATH_MAX];
    if (!realpath(source, abs_source)) {
        ddigen_error(source, 0, "cannot read this source");
        return -1;
    }
    if (k->have_kit)
        build_clang_args(&k->arena, &k->setup, o->arch, NULL, NULL, 0, args);
    if (is_cxx(source)) {
        static const char *const cxx[] = {"-x", "c++", "-std=c++17", "-fno-exceptions", "-fno-rtti"};
        for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++)
            vec_push(args, (void *)cxx[i]);
    }
    if (k->db && database_args(k, source, abs_source, args) != 0)
        return -1;
    for (int i = 0; i < o->nflags; i++)
        vec_push(args, (void *)o->flags[i]);
    vec_push(args, arena_strdup(&k->arena, k->db ? abs_source : source));
    return 0;
}

/* ---------- the run ---------- */

static int scan_sources(struct commands *k, const struct options *o, struct ddi_side *ddi, struct cd_unit *units)
{
    int failed = 0;
    for (size_t i = 0; i < o->sources.len; i++) {
        const char *source = o->sources.items[i];
        struct vec args = {0};
        if (command_for(k, o, source, &args) != 0)
            failed = 1;
        else if (cd_unit_scan(&units[i], ddi, source, k->kit_root, (const char *const *)args.items, (int)args.len))
            failed = 1;
        vec_free(&args);
    }
    return failed;
}

static int report(const struct options *o, const struct cd_findings *f)
{
    if (cd_write_text(f, o->out ? o->out : "-") != 0)
        return 2;
    if (o->sarif && cd_write_sarif(f, o->sarif, DDIGEN_VERSION) != 0)
        return 2;
    return f->errors ? 1 : 0;
}

int ddigen_cmd_check_driver(int argc, char **argv)
{
    struct options o = {0};
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0) {
        vec_free(&o.sources);
        return rc;
    }
    struct commands k = {0};
    struct ddi_side ddi;
    struct cd_unit *units = calloc(o.sources.len, sizeof *units);
    rc = 2;
    if (units && ddi_side_load(&ddi, o.spec) == 0) {
        if ((!o.wdk || setup_kit(&k, o.wdk) == 0) && (!o.db || open_database(&k, o.db) == 0) &&
            !scan_sources(&k, &o, &ddi, units)) {
            struct cd_findings f;
            cd_compare(&ddi, units, o.sources.len, &f);
            rc = report(&o, &f);
            cd_findings_free(&f);
        }
        ddi_side_free(&ddi);
    }
    for (size_t i = 0; units && i < o.sources.len; i++)
        cd_unit_free(&units[i]);
    free(units);
    if (k.db)
        clang_CompilationDatabase_dispose(k.db);
    if (k.setup.overlay_path)
        unlink(k.setup.overlay_path);
    vec_free(&k.setup.include_dirs);
    arena_free(&k.arena);
    vec_free(&o.sources);
    return rc;
}
