/* `ddigen trace`: prints a trace of DDI calls (a CBOR sequence written by the
 * generated marshallers, runtime/include/ddi_trace.h) as text or JSON, naming
 * every field from the spec alone, and flags values that break a documented
 * rule through the rules hook (rules_hook.h). */
#ifndef DDIGEN_TRACE_H
#define DDIGEN_TRACE_H

#include <stddef.h>
#include <stdint.h>

int ddigen_cmd_trace(int argc, char **argv);

/* The command without its files, for the fuzz target: a spec loaded once
 * (NULL after reporting why), then any number of traces read from memory
 * into a text (malloc'ed, NUL-terminated, also on failure: what was printed
 * before the error). trace_session_run returns 0, or 1 after reporting a
 * malformed trace. */
struct trace_session;
struct trace_session *trace_session_open(const char *spec_path, const char *arch, const char *version, int json);
int trace_session_run(struct trace_session *s, const char *name, const uint8_t *data, size_t size, char **text,
                      size_t *text_len);
void trace_session_close(struct trace_session *s);

#endif
