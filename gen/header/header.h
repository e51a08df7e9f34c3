/* Header ingestion stage: parses the WDK headers with libclang once per
 * architecture x DDI interface version and merges what it finds into one
 * layout model. */
#ifndef DDIGEN_HEADER_H
#define DDIGEN_HEADER_H

#include "../spec/layout.h"

struct header_input {
    const char *wdk_root;         /* --wdk: Include/<version> with km/ shared/ um/ */
    const char *header;           /* --header FILE instead of the WDK translation unit */
    struct vec include_dirs;      /* -I (char*) */
    struct vec defines;           /* -D (char*) */
    struct vec pre_includes;      /* --include (char*) */
    struct vec scope_files;       /* --scope basename (char*); default: the DDI headers */
    struct vec versions;          /* --ddi-version names (char*); empty: every one defined */
    struct vec required;          /* --record names that must be present */
    struct vec known_errors;      /* --allow-header-error FILE:LINE or FILE:~TEXT (char*) */
    struct vec known_error_lists; /* --allow-header-errors FILE: one entry a line */
    unsigned arch_mask;           /* bit per enum ddi_arch */
    int jobs;                     /* worker threads; 0 = number of cores */
    int no_pch;                   /* parse every configuration from scratch */
};

/* Fills out (arch_mask, versions, records...). Returns 0, or -1 after
 * reporting errors (missing input, unparsable headers, missing records). */
int header_ingest(const struct header_input *in, struct ddi_layout *out);

int ddigen_cmd_layout(int argc, char **argv);
int ddigen_cmd_overlay(int argc, char **argv);

/* The layout options, shared by `ddigen layout` and `ddigen generate`:
 * their getopt codes (ids 256..299 are the header stage's) and long forms. */
enum {
    HEADER_OPT_WDK = 256,
    HEADER_OPT_HEADER,
    HEADER_OPT_INCLUDE,
    HEADER_OPT_SCOPE,
    HEADER_OPT_ARCH,
    HEADER_OPT_VERSION,
    HEADER_OPT_RECORD,
    HEADER_OPT_NO_PCH,
    HEADER_OPT_ALLOW_ERROR,
    HEADER_OPT_ALLOW_ERRORS
};

#define HEADER_LONG_OPTIONS                                                                                            \
    {"wdk", required_argument, NULL, HEADER_OPT_WDK}, {"header", required_argument, NULL, HEADER_OPT_HEADER},          \
        {"include", required_argument, NULL, HEADER_OPT_INCLUDE},                                                      \
        {"scope", required_argument, NULL, HEADER_OPT_SCOPE}, {"arch", required_argument, NULL, HEADER_OPT_ARCH},      \
        {"ddi-version", required_argument, NULL, HEADER_OPT_VERSION},                                                  \
        {"record", required_argument, NULL, HEADER_OPT_RECORD}, {"no-pch", no_argument, NULL, HEADER_OPT_NO_PCH},      \
        {"allow-header-error", required_argument, NULL, HEADER_OPT_ALLOW_ERROR},                                       \
    {                                                                                                                  \
        "allow-header-errors", required_argument, NULL, HEADER_OPT_ALLOW_ERRORS                                        \
    }

/* Handles one of the options above (or -I -D -j -v -q). */
int header_parse_option(int opt, const char *arg, struct header_input *in, struct arena *a);
void header_input_free(struct header_input *in);

#endif
