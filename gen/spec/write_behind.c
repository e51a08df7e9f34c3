/* spec_write on a thread: the RELAX NG check of a generated document costs
 * more than building it (libxml2 compiles a pattern facet's regular
 * expression again for every value it checks), so `generate` lets it run
 * beside the stages that follow and refuses the output set if it fails. */
#include "write_behind.h"

#include "schema.h"

#include "../util/diag.h"
#include "../util/output.h"

#include <libxml/parser.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct spec_write_behind {
    xmlDocPtr doc; /* checked; made and freed here when make is set */
    xmlDocPtr (*make)(const void *arg);
    const void *arg;
    char *path;
    xmlChar *text; /* the serialization, written by _end */
    int len;
    int valid;          /* 0, or -1 (reported, held) */
    int serialize_here; /* the caller serializes (spec_write) */
    int check;          /* against the schema (a made document may be trusted) */
    struct ddigen_diag_held held;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int released; /* under lock: the thread no longer reads a caller's doc */
    pthread_t thread;
    int threaded;
};

static void mark_released(struct spec_write_behind *w)
{
    pthread_mutex_lock(&w->lock);
    w->released = 1;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

/* A caller's document (spec_write_behind_doc) is checked here and
 * serialized by the caller, each reading it while the other does; the
 * caller waits for the check (spec_write_behind_released) before it
 * changes the document (emit adds its view, libxslt numbers its nodes).
 * This thread used to serialize it and check the text, parsed back into a
 * tree of its own, so that emit could start as soon as the text was made:
 * 0.2 s more CPU on the 14393 kit with its pages (parse 0.13 s, free
 * 0.07 s beside a 0.18 s check), which a machine whose cores are all busy
 * pays in wall time too. A document made here (spec_write_behind_make) is
 * this thread's own, serialized and checked here. */
static void *check_document(void *arg)
{
    struct spec_write_behind *w = arg;
    ddigen_diag_hold(&w->held);
    if (w->make)
        w->doc = w->make(w->arg);
    if (w->doc && !w->serialize_here) {
        xmlDocDumpFormatMemoryEnc(w->doc, &w->text, &w->len, "UTF-8", 1);
        if (!w->text)
            ddigen_error(w->path, 0, "cannot serialize: out of memory");
    }
    int made = w->doc && (w->text || w->serialize_here);
    w->valid = made ? (w->check ? spec_validate_generated(w->doc, w->path) : 0) : -1;
    mark_released(w);
    if (w->make) {
        xmlFreeDoc(w->doc);
        w->doc = NULL;
    }
    ddigen_diag_hold(NULL);
    return NULL;
}

static struct spec_write_behind *start(xmlDocPtr doc, xmlDocPtr (*make)(const void *), const void *arg,
                                       const char *path, int serialize_here, int check)
{
    struct spec_write_behind *w = calloc(1, sizeof *w);
    char *copy = strdup(path);
    /* The schema compiles here: it registers libxml2's input callbacks,
     * which must not change while this thread opens files. */
    if (!w || !copy || spec_schema_init() != 0) {
        if (!w || !copy)
            ddigen_error(path, 0, "out of memory");
        else
            ddigen_error(NULL, 0, "internal error: the embedded schema does not compile");
        free(w);
        free(copy);
        return NULL;
    }
    w->doc = doc;
    w->make = make;
    w->arg = arg;
    w->path = copy;
    w->valid = -1;
    w->serialize_here = serialize_here;
    w->check = check;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->threaded = pthread_create(&w->thread, NULL, check_document, w) == 0;
    if (!w->threaded)
        check_document(w); /* no thread to be had: the same work, here */
    return w;
}

struct spec_write_behind *spec_write_behind_doc(xmlDocPtr doc, const char *path)
{
    return start(doc, NULL, NULL, path, 1, 1);
}

static void serialize_on_caller(struct spec_write_behind *w)
{
    if (w->text || !w->doc)
        return;
    xmlDocDumpFormatMemoryEnc(w->doc, &w->text, &w->len, "UTF-8", 1);
    if (!w->text)
        ddigen_error(w->path, 0, "cannot serialize: out of memory");
}

void spec_write_behind_serialize(struct spec_write_behind *w)
{
    if (w)
        serialize_on_caller(w);
}

struct spec_write_behind *spec_write_behind_make(xmlDocPtr (*make)(const void *arg), const void *arg, const char *path,
                                                 int check)
{
    return start(NULL, make, arg, path, 0, check);
}

void spec_write_behind_released(struct spec_write_behind *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    while (!w->released)
        pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

static int finish(struct spec_write_behind *w)
{
    if (w->serialize_here && !w->make)
        serialize_on_caller(w); /* not done yet: a run that stops before emit */
    if (w->threaded)
        pthread_join(w->thread, NULL);
    ddigen_diag_print_held(&w->held);
    int rc = w->valid == 0 && w->text && ddigen_write_file(w->path, w->text, (size_t)w->len) == 0 ? 0 : -1;
    xmlFree(w->text);
    free(w->path);
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    free(w);
    return rc;
}

int spec_write_behind_end(struct spec_write_behind *w)
{
    return w ? finish(w) : -1;
}

/* spec_write: the check on a thread while this one serializes (the check
 * reads no field that serializing sets), then written when valid. */
int spec_write(xmlDocPtr doc, const char *path)
{
    struct spec_write_behind *w = start(doc, NULL, NULL, path, 1, 1);
    if (!w)
        return -1;
    serialize_on_caller(w);
    return finish(w);
}
