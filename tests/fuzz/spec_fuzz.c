/* libFuzzer target for spec files, which users hand to ddigen (diff, emit,
 * spec --previous): the schema check, then the code that walks a document
 * the schema accepted (stable-ID bookkeeping and the diff). Replayed by
 * spec_fuzz_replay in gcc builds. */
#include "diff/diff.h"
#include "spec/ids.h"
#include "spec/schema.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xmlDocPtr doc = spec_parse_and_validate("fuzz.xml", (const char *)data, size);
    if (!doc)
        return 0;
    spec_check_ids(doc, "fuzz.xml");
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        diff_specs(doc, "fuzz.xml", doc, "fuzz.xml", &(struct diff_options){.format = DIFF_JSON}, sink);
        fclose(sink);
    }
    xmlFreeDoc(doc);
    return 0;
}
