/* SARIF 2.1.0 text: every string through util/json.c, paths as URI
 * references, one result per finding with its rule's index. */
#include "sarif.h"

#include "json.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A path as an RFC 3986 URI reference: every byte but the unreserved
 * characters and '/' percent-encoded (spaces, '%', '#', '?', ':' that would
 * read as a scheme, non-ASCII bytes as their UTF-8 octets), as SARIF's
 * artifactLocation.uri must be. */
static void uri_encode(struct strbuf *u, const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; p && *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '.' || *p == '_' || *p == '~' || *p == '/')
            sb_appendn(u, (const char *)p, 1);
        else
            sb_printf(u, "%%%02X", *p);
    }
}

static void uri_str(struct strbuf *sb, const char *path)
{
    struct strbuf u = {0};
    uri_encode(&u, path);
    json_sb_str(sb, sb_str(&u));
    sb_free(&u);
}

/* A folder as an absolute file: URI ending in '/', as originalUriBaseIds
 * wants: resolved when it exists, else made absolute from the current
 * folder as given. */
static void folder_uri(struct strbuf *sb, const char *folder)
{
    struct strbuf u = {0};
    char *real = realpath(folder, NULL), cwd[4096];
    sb_append(&u, "file://");
    if (!real && folder[0] != '/' && getcwd(cwd, sizeof cwd)) {
        uri_encode(&u, cwd);
        sb_append(&u, "/");
    }
    uri_encode(&u, real ? real : folder);
    if (!u.len || u.data[u.len - 1] != '/')
        sb_append(&u, "/");
    json_sb_str(sb, sb_str(&u));
    sb_free(&u);
    free(real);
}

static void write_bases(struct strbuf *sb, const struct sarif_base *bases, unsigned nbases)
{
    unsigned written = 0;
    for (unsigned i = 0; i < nbases; i++) {
        if (!bases[i].folder)
            continue;
        sb_append(sb, written++ ? ",\n        " : "      \"originalUriBaseIds\": {\n        ");
        json_sb_str(sb, bases[i].id);
        sb_append(sb, ": {\"uri\": ");
        folder_uri(sb, bases[i].folder);
        sb_append(sb, ", \"description\": {\"text\": ");
        json_sb_str(sb, bases[i].description);
        sb_append(sb, "}}");
    }
    if (written)
        sb_append(sb, "\n      },\n");
}

static void physical_location(struct strbuf *sb, const struct sarif_location *l)
{
    sb_append(sb, "\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    uri_str(sb, l->file);
    if (l->base) {
        sb_append(sb, ", \"uriBaseId\": ");
        json_sb_str(sb, l->base);
    }
    sb_append(sb, "}");
    if (l->line && l->column)
        sb_printf(sb, ", \"region\": {\"startLine\": %u, \"startColumn\": %u}", l->line, l->column);
    else if (l->line)
        sb_printf(sb, ", \"region\": {\"startLine\": %u}", l->line);
    sb_append(sb, "}");
}

static const char *const level_names[] = {"note", "warning", "error"};

static void write_rules(struct strbuf *sb, const struct sarif_rule *rules, unsigned nrules)
{
    for (unsigned i = 0; i < nrules; i++) {
        sb_append(sb, "            {\"id\": ");
        json_sb_str(sb, rules[i].id);
        sb_append(sb, ", \"name\": ");
        json_sb_str(sb, rules[i].name);
        sb_append(sb, ", \"shortDescription\": {\"text\": ");
        json_sb_str(sb, rules[i].description);
        sb_printf(sb, "}, \"defaultConfiguration\": {\"level\": \"%s\"}}%s\n", level_names[rules[i].level],
                  i + 1 < nrules ? "," : "");
    }
}

static void write_result(struct strbuf *sb, const struct sarif_rule *rule, const struct sarif_result *r)
{
    sb_append(sb, "\"ruleId\": ");
    json_sb_str(sb, rule->id);
    sb_printf(sb, ", \"ruleIndex\": %u, \"level\": \"%s\", \"message\": {\"text\": ", r->rule, level_names[r->level]);
    json_sb_str(sb, r->message);
    sb_append(sb, "},\n         \"locations\": [");
    if (r->primary.file) {
        sb_append(sb, "{");
        physical_location(sb, &r->primary);
        sb_append(sb, "}");
    }
    sb_append(sb, "]");
    if (r->related.file) {
        /* relatedLocations carry an id and a message */
        sb_append(sb, ",\n         \"relatedLocations\": [{\"id\": 1, \"message\": {\"text\": ");
        json_sb_str(sb, r->related.message ? r->related.message : "");
        sb_append(sb, "}, ");
        physical_location(sb, &r->related);
        sb_append(sb, "}]");
    }
    sb_append(sb, ",\n         \"partialFingerprints\": {\"ddigenFinding/v1\": ");
    json_sb_str(sb, r->fingerprint);
    sb_append(sb, "}}");
}

char *sarif_document(const char *tool_version, const struct sarif_rule *rules, unsigned nrules,
                     const struct sarif_base *bases, unsigned nbases, const struct sarif_result *results,
                     size_t nresults)
{
    struct strbuf sb = {0};
    sb_append(&sb, "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
                   "  \"runs\": [\n    {\n      \"tool\": {\n        \"driver\": {\n          \"name\": \"ddigen\",\n"
                   "          \"version\": ");
    json_sb_str(&sb, tool_version ? tool_version : "0");
    sb_append(&sb, ",\n          \"rules\": [\n");
    write_rules(&sb, rules, nrules);
    sb_append(&sb, "          ]\n        }\n      },\n");
    write_bases(&sb, bases, nbases);
    sb_append(&sb, "      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [");
    size_t written = 0;
    for (size_t i = 0; i < nresults; i++) {
        if (results[i].rule >= nrules)
            continue; /* a result names one of the rules the log lists, or is a caller's bug */
        sb_append(&sb, written++ ? ",\n        {" : "\n        {");
        write_result(&sb, &rules[results[i].rule], &results[i]);
    }
    sb_append(&sb, written ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n");
    char *out = strdup(sb_str(&sb));
    sb_free(&sb);
    return out;
}
