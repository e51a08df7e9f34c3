/* The page-by-page output checker (see outcheck.h). */
#include "outcheck.h"

#include "model.h"

#include "../spec/schema.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The thread is woken for a batch of pages, not for each: a wake per page
 * was a futex call and two context switches per page (3,000 futex calls in
 * a run over 825 pages). A batch is still small beside the run, so the
 * pages left to check once the last one is read are few. */
#define OUTCHECK_BATCH 8

struct page_text {
    char *xml; /* the page wrapped in the document's envelope */
    size_t len;
};

struct docs_outcheck {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct page_text *queue;
    size_t queued, cap, done;
    bool stop;
    bool idle; /* the thread waits for pages */
    bool all_valid; /* written by the thread only, read after the join */
};

static void *check_main(void *arg)
{
    struct docs_outcheck *c = arg;
    struct spec_text_checker *checker = spec_text_checker_new();
    if (!checker)
        c->all_valid = false; /* unchecked is not valid */
    pthread_mutex_lock(&c->mu);
    for (;;) {
        /* idle: sleep until a batch is there (or the last pages) */
        while (c->done == c->queued && !c->stop) {
            c->idle = true;
            pthread_cond_wait(&c->cv, &c->mu);
        }
        c->idle = false;
        if (c->done == c->queued)
            break;
        struct page_text page = c->queue[c->done];
        c->queue[c->done].xml = NULL;
        pthread_mutex_unlock(&c->mu);
        if (c->all_valid && spec_text_check(checker, page.xml, page.len) != 0)
            c->all_valid = false;
        free(page.xml);
        pthread_mutex_lock(&c->mu);
        c->done++;
    }
    pthread_mutex_unlock(&c->mu);
    spec_text_checker_free(checker);
    return NULL;
}

struct docs_outcheck *docs_outcheck_start(void)
{
    struct docs_outcheck *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->all_valid = true;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    if (spec_text_is_valid_init() != 0 || pthread_create(&c->thread, NULL, check_main, c) != 0) {
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    return c;
}

static const char envelope_open[] = "<ddi-spec version=\"1\"><docs>";
static const char envelope_close[] = "</docs></ddi-spec>";

void docs_outcheck_push(struct docs_outcheck *c, const char *page_xml, size_t len)
{
    if (!c || !len)
        return;
    size_t open = sizeof envelope_open - 1, close = sizeof envelope_close - 1;
    struct page_text page = {docs_xrealloc(NULL, open + len + close + 1), open + len + close};
    memcpy(page.xml, envelope_open, open);
    memcpy(page.xml + open, page_xml, len);
    memcpy(page.xml + open + len, envelope_close, close + 1);
    pthread_mutex_lock(&c->mu);
    if (c->queued == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->queue = docs_xrealloc(c->queue, c->cap * sizeof *c->queue);
    }
    c->queue[c->queued++] = page;
    if (c->idle && c->queued - c->done >= OUTCHECK_BATCH)
        pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

bool docs_outcheck_finish(struct docs_outcheck *c)
{
    if (!c)
        return false;
    pthread_mutex_lock(&c->mu);
    c->stop = true;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    bool valid = c->all_valid;
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c->queue);
    free(c);
    return valid;
}
