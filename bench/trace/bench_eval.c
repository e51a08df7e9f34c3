/* Cost per call of the host rule evaluator (rules_eval, what `ddigen trace`
 * runs on each call's rebuilt bytes) on one record, best of several rounds.
 * Not a test.   bench_eval SPEC [RECORD] [VERSION] */
#define _POSIX_C_SOURCE 200809L
#include "rules/rules.h"

#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define ROUNDS 7
#define ROUND_SECONDS 0.05

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: bench_eval SPEC [RECORD] [VERSION]\n", stderr);
        return 2;
    }
    const char *record = argc > 2 ? argv[2] : "DXGKARG_BUILDPAGINGBUFFER";
    const char *version = argc > 3 ? argv[3] : "WDDM3_1";
    xmlDocPtr doc = xmlReadFile(argv[1], NULL, XML_PARSE_NONET);
    double t0 = now();
    struct rules_plan *plan = doc ? rules_lower(doc) : NULL;
    double lowering = now() - t0;
    const struct rules_record *rec = plan ? rules_find(plan, record) : NULL;
    if (!rec) {
        fprintf(stderr, "bench_eval: no rules for %s in %s\n", record, argv[1]);
        return 1;
    }
    static unsigned char bytes[4096]; /* zero: every check runs, none stops the walk */
    volatile unsigned long sink = 0;
    double best = 1e9;
    for (int r = 0; r < ROUNDS; r++) {
        unsigned long calls = 0;
        double start = now(), t;
        do {
            for (int i = 0; i < 64; i++) {
                ddi_violation v;
                sink += rules_eval(plan, rec, "x64", version, RULES_DIR_IN, bytes, sizeof bytes, &v, 0);
            }
            calls += 64;
            t = now() - start;
        } while (t < ROUND_SECONDS);
        if (t / (double)calls < best)
            best = t / (double)calls;
    }
    printf("rules_lower: %.1f ms; rules_eval %s (%zu checks, x64, %s, in): %.2f us per call\n", lowering * 1e3, record,
           rec->nchecks, version, best * 1e6);
    rules_plan_free(plan);
    xmlFreeDoc(doc);
    return 0;
}
