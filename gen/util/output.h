/* Output files are written to a temporary name beside the target and renamed
 * into place, so a failed run never leaves a half-written file behind. */
#ifndef DDIGEN_OUTPUT_H
#define DDIGEN_OUTPUT_H

#include <stddef.h>

/* Writes len bytes to path atomically ("-" means stdout). Returns 0, or -1
 * after reporting the error with the path. */
int ddigen_write_file(const char *path, const void *data, size_t len);

/* Reads a whole file into a NUL-terminated malloc'd buffer; -1 on error
 * (reported). */
int ddigen_read_file(const char *path, char **data, size_t *len);

/* Creates a directory and its parents; 0 or -1 (reported). */
int ddigen_make_dirs(const char *path);

#endif
