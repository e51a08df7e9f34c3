/* IRQL from SAL (irql.h): one table of the kit headers' spellings. */
#include "irql.h"

#include <stdio.h>
#include <string.h>

enum irql_bound { IRQL_EXACT, IRQL_MAX, IRQL_MIN };

/* dispmprt.h wraps _IRQL_requires_ in its own _IRQL_requires_DXGK_ (empty
 * outside code analysis); the cue and its length are one thing. */
static const struct {
    const char *cue;
    size_t len;
    enum irql_bound bound;
} irql_cues[] = {
#define IRQL_CUE(s, b) {s, sizeof s - 1, b}
    IRQL_CUE("_IRQL_requires_(", IRQL_EXACT),     IRQL_CUE("_IRQL_requires_DXGK_(", IRQL_EXACT),
    IRQL_CUE("_IRQL_requires_max_(", IRQL_MAX),   IRQL_CUE("_IRQL_requires_max_DXGK_(", IRQL_MAX),
    IRQL_CUE("_IRQL_requires_min_(", IRQL_MIN),   IRQL_CUE("_IRQL_requires_min_DXGK_(", IRQL_MIN),
#undef IRQL_CUE
};

void ddi_irql_from_sal(const char *sal, struct ddi_irql *out)
{
    char *level[] = {out->exact, out->max, out->min};
    out->exact[0] = out->max[0] = out->min[0] = '\0';
    for (size_t i = 0; sal && i < sizeof irql_cues / sizeof irql_cues[0]; i++) {
        const char *at = strstr(sal, irql_cues[i].cue);
        if (!at)
            continue;
        at += irql_cues[i].len;
        size_t n = strcspn(at, ")");
        if (at[n] == '\0')
            continue; /* no closing parenthesis: not an annotation */
        while (n && at[n - 1] == ' ')
            n--;
        while (n && *at == ' ')
            at++, n--;
        if (n < sizeof out->exact)
            snprintf(level[irql_cues[i].bound], sizeof out->exact, "%.*s", (int)n, at);
    }
}
