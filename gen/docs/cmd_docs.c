/* `ddigen docs PATH... -o FILE [-v] [-q]`: reads reference pages and writes
 * the doc part of the spec, canonical and deterministic, atomically. */
#include "docs.h"

#include "../spec/schema.h"
#include "../util/diag.h"
#include "../util/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: ddigen docs PATH... -o FILE [-v] [-q] [--no-syntax]\n"
    "  PATH      reference pages: .md (docs repository), .html (saved page), .txt (copied\n"
    "            text); folders are read recursively; after \"--\" every argument is a PATH\n"
    "  -o FILE   output XML (\"-\" for stdout)\n"
    "  -v        also print notes and warnings about the pages\n"
    "  -q        no summary line\n"
    "  --no-syntax  do not parse syntax/prototype blocks with libclang\n";

/* A usage error: the reason on one line, the usage, exit 2. */
static int usage_error(const char **paths, const char *fmt, const char *arg)
{
    free(paths);
    if (fmt)
        ddigen_error(NULL, 0, fmt, ddigen_quote(arg));
    fputs(usage_text, stderr);
    return 2;
}

int ddigen_cmd_docs(int argc, char **argv)
{
    const char *out_path = NULL;
    struct ddigen_docs_options opt = {.parse_syntax = true};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    int options_done = 0;
    if (!paths)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || a[0] != '-' || !a[1])
            paths[npaths++] = a;
        else if (!strcmp(a, "--"))
            options_done = 1;
        else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (i + 1 == argc)
                return usage_error(paths, "docs: option '%s' needs a value", a);
            out_path = argv[++i];
        } else if (!strncmp(a, "-o", 2))
            out_path = a + 2;
        else if (!strncmp(a, "--output=", 9))
            out_path = a + 9;
        else if (!strcmp(a, "-v"))
            ddigen_diag_global.verbose = 1;
        else if (!strcmp(a, "-q"))
            ddigen_diag_global.quiet = 1;
        else if (!strcmp(a, "--no-syntax"))
            opt.parse_syntax = false;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            free(paths);
            fputs(usage_text, stdout);
            return 0;
        } else
            return usage_error(paths, "docs: unknown option '%s'", a);
    }
    if (!npaths)
        return usage_error(paths, "docs: no PATH given%s", "");
    if (!out_path)
        return usage_error(paths, "docs: missing -o FILE%s", "");
    struct ddigen_docs_stats st = {0};
    char *data = NULL;
    size_t len = 0;
    int rc = ddigen_docs_build_mem(paths, npaths, &opt, &data, &len, &st);
    free(paths);
    /* An error on any page (or no page read at all) leaves the previous
     * output in place: a partial doc model must not look like a whole one. */
    if (rc == 0 && st.pages == 0) {
        ddigen_error(NULL, 0, "no reference page was read; %s not written", out_path);
        rc = 1;
    }
    /* Pages already checked while they were written need no second
     * validation; otherwise (no checker thread, or a page failed) the whole
     * document is validated here, which reports the page at fault. */
    if (rc == 0 && (st.output_checked ? ddigen_write_file(out_path, data, len)
                                      : spec_write_text(out_path, data, len)) != 0)
        rc = 1;
    free(data);
    ddigen_docs_shutdown();
    ddigen_progress("docs: %u pages (%u skipped, %u unreadable), %u members, %u rules, "
                    "%u of %u modal sentences unextracted",
                    st.pages, st.skipped, st.failed, st.members, st.rules, st.unextracted,
                    st.modal_sentences);
    return rc ? 1 : 0;
}
