/* Output files are written to a temporary name beside the target and renamed
 * into place, so a failed run never leaves a half-written file behind. */
#ifndef DDIGEN_OUTPUT_H
#define DDIGEN_OUTPUT_H

#include "arena.h"

#include <stddef.h>

/* Writes len bytes to path atomically ("-" means stdout). A symlink is
 * followed and its target replaced; a device, FIFO or socket is written in
 * place; a replaced file keeps its mode. Temporary files a killed run left
 * beside the target (PATH.tmp.PID, PID dead) are removed. Returns 0, or -1
 * after reporting the error with the path. */
int ddigen_write_file(const char *path, const void *data, size_t len);

/* A new file in an empty staging folder (output_set_begin_empty), which
 * nobody reads until the set is switched in: the bytes are written
 * without the temporary, the scan for stale temporaries and the fsync of
 * ddigen_write_file; output_set_sync puts them all on the disk at once
 * (a site of a thousand pages took 10 s of fsyncs). A file already there
 * is an error (O_EXCL), never written through: in a staging folder made
 * by output_set_begin it would be a hard link to the file the set
 * replaces. 0, or -1 (reported). */
int ddigen_write_staged(const char *path, const void *data, size_t len);

/* Whether path is a regular file holding exactly these bytes (no error is
 * reported when it is not, or cannot be read). */
int ddigen_file_has(const char *path, const void *data, size_t len);

/* ddigen_write_file, except that a file that already holds these bytes is
 * left alone: it keeps its mtime, so a build does not recompile what
 * includes it. */
int ddigen_write_file_if_changed(const char *path, const void *data, size_t len);

/* From now on in this process, ddigen_write_file leaves a file that
 * already holds the bytes alone, as ddigen_write_file_if_changed does,
 * except stamp (which must outlive the run), which is always written: `generate`
 * writes its set this way, so a regeneration keeps the inode and mtime of
 * every unchanged file, and OUT/spec/ddi.xml, the output a build system
 * compares with the inputs (the depfile's target), says the run happened
 * (Make has no restat: an old stamp would rerun ddigen on every build). */
void ddigen_output_keep_unchanged(const char *stamp);

/* Reads a whole file into a NUL-terminated malloc'd buffer; -1 on error
 * (reported). */
int ddigen_read_file(const char *path, char **data, size_t *len);

/* A new temporary folder or file $TMPDIR/ddigen-KIND-PID-XXXXXX (name in
 * a), after removing those of the same kind whose process is dead. NULL or
 * -1 after reporting the error. */
char *ddigen_temp_dir(struct arena *a, const char *kind);
int ddigen_temp_file(struct arena *a, const char *kind, char **path);

/* Removes a file, or a folder and everything below it: only what this user
 * owns, never through a symlink (/tmp is shared, and a planted link must not
 * make a root run delete what it points to). */
void ddigen_remove_tree(const char *path);

/* Creates a directory and its parents; 0 or -1 (reported). */
int ddigen_make_dirs(const char *path);

#endif
