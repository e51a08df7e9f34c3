/* Strict UTF-8 decoding (see utf8.h). The lead byte fixes the length and
 * the range of the second byte (RFC 3629, table 3-7 of Unicode), which
 * rules out overlong forms, surrogates and code points above U+10FFFF
 * without decoding them first. */
#include "utf8.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, *cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, *cp = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, *cp = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if (i > 1 && (s[i] & 0xC0) != 0x80)
            return 0;
        *cp = *cp << 6 | (s[i] & 0x3F);
    }
    return len;
}
