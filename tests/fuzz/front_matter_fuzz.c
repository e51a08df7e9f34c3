/* libFuzzer target for the front-matter readers (gen/docs/front_matter.c):
 * a differential test. Whenever the plain reader takes an input, libyaml
 * must take it too and give the same values; an input the plain reader
 * declines is only read by libyaml. Replayed by front_matter_fuzz_replay. */
#include "front_matter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct arena a = {0};
    struct fm_values plain = {0}, yaml = {0};
    char err[256];
    unsigned line = 0;
    const char *fm = (const char *)data;
    int took = fm_read_plain(fm, size, &a, &plain);
    int rc = fm_read_yaml(fm, size, &a, &yaml, &line, err, sizeof err);
    if (took && (rc != 0 || !same(plain.uid, yaml.uid) || !same(plain.title, yaml.title) ||
                 !same(plain.description, yaml.description) || !same(plain.header, yaml.header) ||
                 !same(plain.typenames, yaml.typenames) || !same(plain.client, yaml.client) ||
                 !same(plain.server, yaml.server) || !same(plain.api_last, yaml.api_last) ||
                 !same(plain.irql, yaml.irql) || plain.description_line != yaml.description_line ||
                 plain.avail_line != yaml.avail_line))
        abort();
    arena_free(&a);
    return 0;
}
