/* `ddigen docs PATH... -o FILE [-v] [-q]`: reads reference pages and writes
 * the doc part of the spec, canonical and deterministic, atomically. */
#include "docs.h"

#include "../spec/schema.h"
#include "../util/diag.h"
#include "../util/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE *out)
{
    fputs("usage: ddigen docs PATH... -o FILE [-v] [-q] [--no-syntax]\n"
          "  PATH      reference pages: .md (docs repository), .html (saved page), .txt (copied\n"
          "            text); folders are read recursively\n"
          "  -o FILE   output XML (\"-\" for stdout)\n"
          "  -v        also print notes and warnings about the pages\n"
          "  -q        no summary line\n"
          "  --no-syntax  do not parse syntax/prototype blocks with libclang\n",
          out);
    return 1;
}

int ddigen_cmd_docs(int argc, char **argv)
{
    const char *out_path = NULL;
    struct ddigen_docs_options opt = {true};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    if (!paths)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strncmp(a, "-o", 2) && a[2])
            out_path = a + 2;
        else if (!strcmp(a, "-v"))
            ddigen_diag_global.verbose = 1;
        else if (!strcmp(a, "-q"))
            ddigen_diag_global.quiet = 1;
        else if (!strcmp(a, "--no-syntax"))
            opt.parse_syntax = false;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            free(paths);
            usage(stdout);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ddigen docs: unknown option '%s'\n", a);
            free(paths);
            return usage(stderr);
        } else
            paths[npaths++] = a;
    }
    if (!npaths || !out_path) {
        free(paths);
        return usage(stderr);
    }
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
