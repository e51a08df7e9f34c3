/* `ddigen trace`: prints a trace of DDI calls (a CBOR sequence written by the
 * generated marshallers, runtime/include/ddi_trace.h) as text or JSON, naming
 * every field from the spec alone, and flags values that break a documented
 * rule through the rules hook (rules_hook.h). */
#ifndef DDIGEN_TRACE_H
#define DDIGEN_TRACE_H

int ddigen_cmd_trace(int argc, char **argv);

#endif
