/* The kit side of realkit_marshal_fuzz: compiled with the generated
 * ddi_marshal.c of a real WDK release for x86_64-pc-windows-msvc (ELF
 * object, see realkit_win_objects.sh), so the records have their x64
 * layout and LLP64 widths. The host harness calls only these functions
 * (System V convention, integer and pointer arguments of the same width on
 * both sides); ddi_marshal_type itself is not shared, its `unsigned long`
 * is 32 bits here and 64 on the host. */
#include "ddi_wdk.h"

#include "ddi_marshal.h"

#define RKM_API __attribute__((sysv_abi))

RKM_API size_t rkm_count(void);
RKM_API size_t rkm_count(void)
{
    size_t n = 0;
    while (ddi_marshal_types[n].name)
        n++;
    return n;
}

RKM_API uint32_t rkm_id(size_t i);
RKM_API uint32_t rkm_id(size_t i)
{
    return (uint32_t)ddi_marshal_types[i].id;
}

RKM_API size_t rkm_size(size_t i);
RKM_API size_t rkm_size(size_t i)
{
    return ddi_marshal_types[i].size;
}

RKM_API const char *rkm_name(size_t i);
RKM_API const char *rkm_name(size_t i)
{
    return ddi_marshal_types[i].name;
}

/* Decodes record i strictly from [data, data + size) into out (zeroed
 * first), pointees into the arena. 1: decoded, to the end of the input;
 * 0: refused, with a status; -1: refused without saying why. */
RKM_API int rkm_decode(size_t i, void *out, const uint8_t *data, size_t size, uint8_t *arena_mem, size_t arena_size);
RKM_API int rkm_decode(size_t i, void *out, const uint8_t *data, size_t size, uint8_t *arena_mem, size_t arena_size)
{
    const ddi_marshal_type *t = &ddi_marshal_types[i];
    ddi_marshal_arena arena = {arena_mem, arena_size, 0};
    ddi_marshal_ctx c;
    ddi_marshal_result res;
    RtlZeroMemory(out, t->size);
    ddi_mrt_ctx_init(&c, data, size, &arena, &res);
    if (!t->get(&c, out))
        return res.status == DDI_CBOR_OK ? -1 : 0;
    return ddi_mrt_ctx_finish(&c);
}

/* Encodes record i (pointers as addresses, not followed) into buf; the
 * size it needs. */
RKM_API size_t rkm_encode(size_t i, const void *obj, uint8_t *buf, size_t size);
RKM_API size_t rkm_encode(size_t i, const void *obj, uint8_t *buf, size_t size)
{
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buf, size);
    ddi_marshal_types[i].put(&w, obj, DDI_MARSHAL_NO_FOLLOW);
    return w.needed;
}
