/* One strict UTF-8 decoder for every reader and writer of text in ddigen
 * (messages, JSON, pages): the same bytes are valid everywhere. */
#ifndef DDIGEN_UTF8_H
#define DDIGEN_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the UTF-8 sequence at s (n > 0 bytes left) with its code
 * point in *cp, or 0 when the bytes there are not UTF-8 (a stray
 * continuation byte, overlong, a surrogate, above U+10FFFF, cut short). */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
