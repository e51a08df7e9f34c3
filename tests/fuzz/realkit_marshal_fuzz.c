/* libFuzzer target for the generated decoders of a real WDK release's
 * records (ddigen generate --outputs marshal on ../shared/wdk/KIT), the
 * kit code compiled for x64 Windows and entered through
 * realkit_marshal_win.c (see realkit_win_objects.sh). The first two bytes
 * pick the record (its stable ID, little endian, the same in every release;
 * an ID not generated picks by index), the rest is its CBOR, decoded
 * strictly. Every input ends in success or a stated error without reading
 * past the input, or writing past the record or the arena (ASan, exact-size
 * heap blocks); what decodes re-encodes, that encoding decodes again, and
 * the second encoding is the first byte for byte (nothing decoded is
 * half-kept). Pointers re-encode as addresses, never followed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RKM_API __attribute__((sysv_abi))
RKM_API size_t rkm_count(void);
RKM_API uint32_t rkm_id(size_t i);
RKM_API size_t rkm_size(size_t i);
RKM_API int rkm_decode(size_t i, void *out, const uint8_t *data, size_t size, uint8_t *arena_mem, size_t arena_size);
RKM_API size_t rkm_encode(size_t i, const void *obj, uint8_t *buf, size_t size);

#define ARENA 4096

static size_t pick(const uint8_t *data)
{
    size_t n = rkm_count(), id = (size_t)data[0] | (size_t)data[1] << 8;
    for (size_t i = 0; i < n; i++)
        if (rkm_id(i) == id)
            return i;
    return id % n;
}

/* 1 decoded; 0 refused with a reason; aborts on a refusal without one. */
static int decode(size_t t, void *out, const uint8_t *data, size_t size, uint8_t *arena)
{
    int r = rkm_decode(t, out, data, size, arena, ARENA);
    if (r < 0)
        abort(); /* a failure must say why */
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t t = pick(data), rsize = rkm_size(t);
    /* Exact-size copies: ASan sees a read one past the input. */
    uint8_t *in = malloc(size - 2 ? size - 2 : 1);
    memcpy(in, data + 2, size - 2);
    void *a = malloc(rsize), *b = malloc(rsize);
    uint8_t *arena = malloc(ARENA), *arena2 = malloc(ARENA);
    if (decode(t, a, in, size - 2, arena)) {
        size_t n = rkm_encode(t, a, NULL, 0);
        uint8_t *e1 = malloc(n ? n : 1), *e2 = malloc(n ? n : 1);
        if (rkm_encode(t, a, e1, n) != n || !decode(t, b, e1, n, arena2) || rkm_encode(t, b, e2, n) != n ||
            memcmp(e1, e2, n) != 0)
            abort();
        free(e1);
        free(e2);
    }
    free(in);
    free(a);
    free(b);
    free(arena);
    free(arena2);
    return 0;
}
