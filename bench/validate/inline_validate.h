/* See inline_validate.c. */
#ifndef BENCH_INLINE_VALIDATE_H
#define BENCH_INLINE_VALIDATE_H

/* ns the inlined DXGKARG_BUILDPAGINGBUFFER _in validator adds per call. */
double bench_inline_validator_ns(const DXGKARG_BUILDPAGINGBUFFER *a, int rounds, double seconds);

#endif
