/* libFuzzer target for the docs md reader (syntax parsing off: libclang is
 * not what is fuzzed here). Replayed by docs_fuzz_replay in gcc builds. */
#include "docs.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct ddigen_docs_options opt = {false};
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr docs = xmlNewNode(NULL, (const xmlChar *)"docs");
    xmlDocSetRootElement(doc, docs);
    ddigen_docs_read_buffer("fuzz", (const char *)data, size, DDIGEN_DOCS_MARKDOWN, &opt, docs, NULL);
    xmlFreeDoc(doc);
    return 0;
}
