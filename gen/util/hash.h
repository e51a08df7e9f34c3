/* FNV-1a, the project's one string hash. The 32-bit form is also a
 * contract: the trace ID of a DDI function is fnv1a32 of its function
 * type's name, written by the generated marshallers (ddi_marshal.h, through
 * the XSLT function d:fnv1a) and read back by `ddigen trace`. */
#ifndef DDIGEN_HASH_H
#define DDIGEN_HASH_H

#include <stddef.h>
#include <stdint.h>

#define DDIGEN_FNV32_OFFSET 2166136261u
#define DDIGEN_FNV32_PRIME 16777619u
#define DDIGEN_FNV64_OFFSET 14695981039346656037ull
#define DDIGEN_FNV64_PRIME 1099511628211ull

/* One byte into a running 32-bit hash (for callers that hash while they
 * transform the bytes, e.g. lower-casing a word). */
static inline uint32_t fnv1a32_step(uint32_t h, unsigned char c)
{
    return (h ^ c) * DDIGEN_FNV32_PRIME;
}

static inline uint32_t fnv1a32n(const char *s, size_t n)
{
    uint32_t h = DDIGEN_FNV32_OFFSET;
    for (size_t i = 0; i < n; i++)
        h = fnv1a32_step(h, (unsigned char)s[i]);
    return h;
}

static inline uint32_t fnv1a32(const char *s)
{
    uint32_t h = DDIGEN_FNV32_OFFSET;
    for (; *s; s++)
        h = fnv1a32_step(h, (unsigned char)*s);
    return h;
}

static inline uint64_t fnv1a64(const char *s)
{
    uint64_t h = DDIGEN_FNV64_OFFSET;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * DDIGEN_FNV64_PRIME;
    return h;
}

/* The trace ID of a DDI function (DDI_TRACE_DDI_<NAME> in ddi_marshal.h). */
static inline uint32_t ddi_trace_id(const char *function_type)
{
    return fnv1a32(function_type);
}

#endif
