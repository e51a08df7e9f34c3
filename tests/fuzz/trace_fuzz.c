/* libFuzzer target for `ddigen trace`, the whole command path after the
 * file is read: the input is a trace (a CBOR sequence of calls), read with
 * the spec of fixture 10.0.26100.0 (TRACE_FUZZ_SPEC, loaded once) into
 * text and into JSON. Every input ends in success or one stated error
 * (exit status 1 and a message); a success in one format is a success in
 * the other, and the JSON of a success is a well-formed document as far as
 * a bracket/string scan can tell (tests/marshal/trace_cli.sh parses it with
 * a real parser). */
#include "trace/trace.h"
#include "util/diag.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TRACE_FUZZ_SPEC
#error TRACE_FUZZ_SPEC: the spec the trace is read with
#endif

static struct trace_session *text_s, *json_s;

/* Strings closed, brackets balanced, no raw control byte inside a string. */
static int json_shape_ok(const char *s, size_t n)
{
    char stack[64];
    size_t depth = 0;
    int in_str = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            else if (c < 0x20)
                return 0;
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '[' || c == '{') {
            if (depth == sizeof stack)
                return 0;
            stack[depth++] = (char)c;
        } else if (c == ']' || c == '}') {
            if (!depth || stack[--depth] != (c == ']' ? '[' : '{'))
                return 0;
        }
    }
    return !in_str && depth == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!text_s) {
        ddigen_diag_global.quiet = 1;
        text_s = trace_session_open(TRACE_FUZZ_SPEC, NULL, "WDDM3_2", 0);
        json_s = trace_session_open(TRACE_FUZZ_SPEC, NULL, "WDDM3_2", 1);
        if (!text_s || !json_s)
            abort();
    }
    char *text = NULL, *json = NULL;
    size_t text_len = 0, json_len = 0;
    int a = trace_session_run(text_s, "fuzz.cbor", data, size, &text, &text_len);
    int b = trace_session_run(json_s, "fuzz \"\n.cbor", data, size, &json, &json_len);
    if (a != b)
        abort(); /* the format never changes what is accepted */
    if (b == 0 && !json_shape_ok(json, json_len))
        abort();
    free(text);
    free(json);
    return 0;
}
