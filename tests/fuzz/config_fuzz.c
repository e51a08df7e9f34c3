/* libFuzzer target for ddigen.yaml (gen/util/config.c), untrusted input
 * read by every entry point: for each command that reads a config, the
 * file either gives options (each "--name" with a non-empty value when it
 * takes one, no NUL inside) or is refused with at least one error; never
 * a crash, a leak or a read past the input. Replayed by config_fuzz_replay. */
#include "util/config.h"
#include "util/diag.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_options(const struct vec *out)
{
    for (size_t i = 0; i < out->len; i++) {
        const char *s = out->items[i];
        if (!s || !*s)
            abort();
        /* An option, or the value right after one that takes it. */
        if (strncmp(s, "--", 2) != 0 && (i == 0 || strncmp(out->items[i - 1], "--", 2) != 0))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const commands[] = {"generate", "emit", "lint", "diff"};
    struct ddigen_diag_held quiet = {0};
    ddigen_diag_hold(&quiet);
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        struct arena a = {0};
        struct vec out = {0};
        unsigned errors = ddigen_diag_global.errors;
        int rc = config_parse("fuzz.yaml", (const char *)data, size, commands[c], &out, &a);
        if (rc != 0 && ddigen_diag_global.errors == errors)
            abort(); /* refused without saying why */
        if (rc == 0)
            check_options(&out);
        vec_free(&out);
        arena_free(&a);
    }
    ddigen_diag_hold(NULL);
    if (quiet.stream)
        fclose(quiet.stream);
    free(quiet.text);
    return 0;
}
