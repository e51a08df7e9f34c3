/* ddi_cbor: the CBOR (RFC 8949) writer and strict reader that the generated
 * marshallers (ddi_marshal.c) and `ddigen trace` are built on. Kernel code:
 * no CRT, no allocation, no floating point, no recursion.
 *
 * The subset is what DDI structures need: unsigned and negative integers,
 * byte strings, arrays, maps, false/true/null, all of definite length. The
 * writer never writes past its buffer and always counts the bytes the whole
 * item needs, so a caller learns the size from one call with a short (or
 * empty) buffer. The reader is strict: every length is checked against the
 * bytes left, integers must be in their shortest form, indefinite lengths,
 * floats, tags and simple values other than false/true/null are refused,
 * and nesting is bounded; the first error sticks, with its offset. */
#ifndef DDI_CBOR_H
#define DDI_CBOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Major types. */
enum ddi_cbor_major {
    DDI_CBOR_UINT = 0,
    DDI_CBOR_NEGINT = 1,
    DDI_CBOR_BYTES = 2,
    DDI_CBOR_TEXT = 3,
    DDI_CBOR_ARRAY = 4,
    DDI_CBOR_MAP = 5,
    DDI_CBOR_TAG = 6,
    DDI_CBOR_SIMPLE = 7
};

/* Deepest nesting of arrays and maps a reader accepts (a trace record is a
 * call, a structure, its nested records and their arrays: far less),
 * counted from the top item a decode starts at, skipped values included: a
 * container enclosed by k others is at level k + 1, and level 17 is refused. */
#define DDI_CBOR_MAX_DEPTH 16u
/* Most pairs a map may hold (ddigen's layout refuses records of more than
 * 1024 members). Bounds the cost of finding duplicate keys without memory:
 * each key of a map read by ddi_cbor_skip is compared with the keys before
 * it (their encoded bytes, which preferred serialization makes one per
 * value), so a map costs at most pairs^2 / 2 comparisons. */
#define DDI_CBOR_MAX_PAIRS 1024u

typedef enum ddi_cbor_status {
    DDI_CBOR_OK = 0,
    DDI_CBOR_TRUNCATED,      /* the input ends inside an item */
    DDI_CBOR_NOT_SHORTEST,   /* an integer or length not in its shortest form */
    DDI_CBOR_UNSUPPORTED,    /* indefinite length, float, tag, other simple value, reserved bits */
    DDI_CBOR_TYPE_MISMATCH,  /* another type than the one asked for */
    DDI_CBOR_TOO_LARGE,      /* a length beyond the bytes left, or a value beyond the target type */
    DDI_CBOR_TOO_DEEP,       /* nesting beyond DDI_CBOR_MAX_DEPTH */
    DDI_CBOR_DUPLICATE_KEY,  /* a map key given twice (reported by the marshallers) */
    DDI_CBOR_MISSING,        /* a required key is absent (reported by the marshallers) */
    DDI_CBOR_BAD_TEXT        /* a text string that is not valid UTF-8 */
} ddi_cbor_status;
#define DDI_CBOR_STATUS_LAST DDI_CBOR_BAD_TEXT

/* Writer: bytes go to [pos, end) while they fit; needed counts them all. */
typedef struct ddi_cbor_writer {
    uint8_t *start;
    uint8_t *pos;
    uint8_t *end;
    size_t needed;
} ddi_cbor_writer;

void ddi_cbor_writer_init(ddi_cbor_writer *w, void *buffer, size_t size);
/* Whether everything written so far fit in the buffer. */
int ddi_cbor_writer_fits(const ddi_cbor_writer *w);

void ddi_cbor_put_uint(ddi_cbor_writer *w, uint64_t value);
void ddi_cbor_put_int(ddi_cbor_writer *w, int64_t value);
void ddi_cbor_put_bytes(ddi_cbor_writer *w, const void *data, size_t size);
void ddi_cbor_put_array(ddi_cbor_writer *w, uint64_t count);
void ddi_cbor_put_map(ddi_cbor_writer *w, uint64_t count);
void ddi_cbor_put_bool(ddi_cbor_writer *w, int value);
void ddi_cbor_put_null(ddi_cbor_writer *w);

/* Reader over [pos, end). */
typedef struct ddi_cbor_reader {
    const uint8_t *start;
    const uint8_t *pos;
    const uint8_t *end;
    ddi_cbor_status status; /* the first error; then every call fails */
    size_t error_offset;    /* where it was found, from start */
} ddi_cbor_reader;

void ddi_cbor_reader_init(ddi_cbor_reader *r, const void *data, size_t size);
int ddi_cbor_at_end(const ddi_cbor_reader *r);
/* The major type of the next item, or -1 at the end or after an error. */
int ddi_cbor_peek(const ddi_cbor_reader *r);

/* Each returns 1 with the value, or 0 and sets r->status (once). */
int ddi_cbor_get_uint(ddi_cbor_reader *r, uint64_t *value);
/* Major type 0 or 1 within int64_t. */
int ddi_cbor_get_int(ddi_cbor_reader *r, int64_t *value);
/* A byte string: a pointer into the input and its size (checked). */
int ddi_cbor_get_bytes(ddi_cbor_reader *r, const uint8_t **data, size_t *size);
/* A text string, checked to be valid UTF-8 (RFC 3629: shortest forms, no
 * surrogates, nothing above U+10FFFF). */
int ddi_cbor_get_text(ddi_cbor_reader *r, const uint8_t **data, size_t *size);
/* Count of elements (array) or pairs (map), checked against the bytes left;
 * a map of more than DDI_CBOR_MAX_PAIRS pairs is DDI_CBOR_TOO_LARGE. Keys
 * and nesting are the caller's to check (it knows the depth and schema). */
int ddi_cbor_get_array(ddi_cbor_reader *r, uint64_t *count);
int ddi_cbor_get_map(ddi_cbor_reader *r, uint64_t *count);
int ddi_cbor_get_bool(ddi_cbor_reader *r, int *value);
/* 1 and consumes the item when the next item is null, else 0 (no error). */
int ddi_cbor_take_null(ddi_cbor_reader *r);
/* Skips one whole item, nested ones included (iterative, no recursion),
 * as strictly as it reads: every map's keys distinct, at most
 * DDI_CBOR_MAX_PAIRS pairs, text valid UTF-8, and nesting bounded counting
 * the `depth` containers already open around the item (ddi_cbor_skip: 0, the
 * item is the top). A duplicate key's error offset is the repeated key's. */
int ddi_cbor_skip_at(ddi_cbor_reader *r, unsigned depth);
int ddi_cbor_skip(ddi_cbor_reader *r);

/* Where an error is: the map keys and array indices from the top item at
 * data down to the innermost container whose item holds offset. Works on
 * the bytes alone (well formed up to the error), so every layer reports a
 * key path the same way; costs one walk of the input, on the error path
 * only. */
typedef struct ddi_cbor_path {
    unsigned len;                     /* entries in key[] */
    uint32_t index_mask;              /* bit i set: key[i] is an array index */
    uint32_t other_mask;              /* bit i set: a map key that is not an unsigned integer (key[i] 0) */
    uint64_t key[DDI_CBOR_MAX_DEPTH]; /* outermost first */
} ddi_cbor_path;
void ddi_cbor_path_to(const void *data, size_t size, size_t offset, ddi_cbor_path *path);
/* Records an error found by a caller (a duplicate key, a type mismatch at a
 * key) at the current position; the first error sticks. Returns 0. */
int ddi_cbor_fail(ddi_cbor_reader *r, ddi_cbor_status status);

const char *ddi_cbor_status_text(ddi_cbor_status status);

#ifdef __cplusplus
}
#endif

#endif
