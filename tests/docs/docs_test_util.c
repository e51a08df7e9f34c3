/* Shared test plumbing for tests/docs. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs_test_util.h"

#include <ctype.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dt_build(const char *const *paths, size_t n, char **xml, size_t *len, struct ddigen_docs_stats *st)
{
    /* the streamed bytes `ddigen docs` writes, checked against the tree
     * serializer's for the same document */
    int rc = ddigen_docs_build_mem(paths, n, NULL, xml, len, st);
    xmlDocPtr doc = xmlReadMemory(*xml, (int)*len, "docs.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_HUGE);
    char *again = NULL;
    size_t again_len = 0;
    if (!doc || ddigen_docs_serialize(doc, &again, &again_len) != 0 || again_len != *len ||
        memcmp(again, *xml, *len) != 0) {
        fprintf(stderr, "dt_build: streamed XML differs from the serializer's bytes\n");
        rc = -1;
    }
    free(again);
    xmlFreeDoc(doc);
    return rc;
}

int dt_validate(xmlDocPtr doc, const char *rng_path)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlNodePtr docs = root ? root->children : NULL;
    while (docs && (docs->type != XML_ELEMENT_NODE || strcmp((const char *)docs->name, "docs")))
        docs = docs->next;
    if (!docs)
        return -1;
    xmlDocPtr only = xmlNewDoc((const xmlChar *)"1.0");
    xmlDocSetRootElement(only, xmlDocCopyNode(docs, only, 1));
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(rng_path);
    xmlRelaxNGPtr schema = pc ? xmlRelaxNGParse(pc) : NULL;
    int rc = -1;
    if (schema) {
        xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(schema);
        rc = xmlRelaxNGValidateDoc(vc, only);
        xmlRelaxNGFreeValidCtxt(vc);
        xmlRelaxNGFree(schema);
    }
    if (pc)
        xmlRelaxNGFreeParserCtxt(pc);
    xmlFreeDoc(only);
    return rc;
}

int dt_validate_text(const char *xml, size_t len, const char *rng_path)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int)len, "out.xml", NULL, XML_PARSE_NONET);
    if (!doc)
        return -1;
    int rc = dt_validate(doc, rng_path);
    xmlFreeDoc(doc);
    return rc;
}

char *dt_capture_stderr(void (*fn)(void *), void *arg)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long n = ftell(tmp);
    if (n < 0)
        n = 0;
    char *out = calloc(1, (size_t)n + 1);
    rewind(tmp);
    if (out && fread(out, 1, (size_t)n, tmp) != (size_t)n)
        out[0] = '\0';
    fclose(tmp);
    return out;
}

char *dt_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *d = malloc((size_t)n + 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    if (d)
        d[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return d;
}

int dt_shared_present(const char *path, const char *what)
{
    struct stat sb;
    if (stat(path, &sb) == 0)
        return 1;
    printf("SKIPPED: %s not found at %s (the ../shared folder beside the checkout is absent)\n", what, path);
    return 0;
}

void dt_canon(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in && n + 1 < cap; in++)
        if (*in != ' ' && *in != '(' && *in != ')')
            out[n++] = (char)tolower((unsigned char)*in);
    out[n] = '\0';
}
