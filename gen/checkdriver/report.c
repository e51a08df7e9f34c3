/* Writing check-driver's findings; see report.h. */
#include "report.h"

#include "../util/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cd_write_text(const struct cd_findings *f, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return -1;
    static const char *const levels[] = {"note", "warning", "error"};
    for (size_t i = 0; i < f->items.len; i++) {
        const struct cd_finding *x = f->items.items[i];
        fprintf(out, "%s:%u:%u: %s: %s [%s]\n", x->at.file, x->at.line, x->at.column, levels[cd_rules[x->kind].level],
                x->message, cd_rules[x->kind].id);
        if (x->ddi_at.file && *x->ddi_at.file)
            fprintf(out, "%s:%u:%u: note: the DDI's typedef\n", x->ddi_at.file, x->ddi_at.line, x->ddi_at.column);
    }
    fclose(out);
    int rc = ddigen_write_file(path, text, len);
    free(text);
    return rc;
}

int cd_write_sarif(const struct cd_findings *f, const char *path, const char *tool_version)
{
    struct sarif_result *results = calloc(f->items.len + 1, sizeof *results);
    if (!results)
        return -1;
    for (size_t i = 0; i < f->items.len; i++) {
        const struct cd_finding *x = f->items.items[i];
        results[i] = (struct sarif_result){
            .rule = x->kind,
            .level = cd_rules[x->kind].level,
            .message = x->message,
            .primary = {.file = x->at.file, .line = x->at.line, .column = x->at.column},
            .fingerprint = x->fingerprint,
        };
        if (x->ddi_at.file && *x->ddi_at.file)
            results[i].related = (struct sarif_location){.file = x->ddi_at.file,
                                                         .line = x->ddi_at.line,
                                                         .column = x->ddi_at.column,
                                                         .message = "the DDI's typedef"};
    }
    char *json = sarif_document(tool_version, cd_rules, CD_KIND_COUNT, NULL, 0, results, f->items.len);
    free(results);
    int rc = json ? ddigen_write_file(path, json, strlen(json)) : -1;
    free(json);
    return rc;
}
