/* libFuzzer target for one docs reader, chosen at build time with
 * -DDOCS_FUZZ_FORMAT=DDIGEN_DOCS_MARKDOWN|HTML|TEXT (syntax parsing off:
 * libclang is not what is fuzzed here). Replayed by fuzz_replay.c. */
#include "docs.h"

#include <stddef.h>
#include <stdint.h>

#ifndef DOCS_FUZZ_FORMAT
#error "build with -DDOCS_FUZZ_FORMAT=DDIGEN_DOCS_MARKDOWN, DDIGEN_DOCS_HTML or DDIGEN_DOCS_TEXT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct ddigen_docs_options opt = {.parse_syntax = false};
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr docs = xmlNewNode(NULL, (const xmlChar *)"docs");
    xmlDocSetRootElement(doc, docs);
    ddigen_docs_read_buffer("fuzz", (const char *)data, size, DOCS_FUZZ_FORMAT, &opt, docs, NULL);
    xmlFreeDoc(doc);
    return 0;
}
