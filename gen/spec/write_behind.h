/* A generated document serialized and checked against the schema on a
 * thread of its own while the stages after it run, then written (or
 * refused) on the caller's thread: spec_write, off the critical path. */
#ifndef DDIGEN_WRITE_BEHIND_H
#define DDIGEN_WRITE_BEHIND_H

#include <libxml/tree.h>

struct spec_write_behind;

/* Starts checking doc, which the thread only reads, until
 * spec_write_behind_released returns: the caller may change doc after
 * that wait, and free it after spec_write_behind_end. The caller
 * serializes it (spec_write_behind_serialize, or _end when it was not
 * called). NULL: out of memory (reported). */
struct spec_write_behind *spec_write_behind_doc(xmlDocPtr doc, const char *path);
/* Serializes the document given to spec_write_behind_doc, on the calling
 * thread, beside the check: before the caller changes it. */
void spec_write_behind_serialize(struct spec_write_behind *w);
/* Starts on a document the thread makes itself (make(arg), which must
 * only read what arg points to), checks it against the schema when check
 * is set, and frees it. */
struct spec_write_behind *spec_write_behind_make(xmlDocPtr (*make)(const void *arg), const void *arg, const char *path,
                                                 int check);
/* Returns once the check is done: from then on the thread no longer
 * reads a document given to spec_write_behind_doc. */
void spec_write_behind_released(struct spec_write_behind *w);
/* Waits for the check, prints its messages (held until now, so they come
 * at this point whatever the timing) and writes the text to path when the
 * document is valid. 0, or -1 after reporting (nothing written). Frees w;
 * NULL gives -1. */
int spec_write_behind_end(struct spec_write_behind *w);

#endif
