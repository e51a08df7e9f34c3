/* The dependency set of one run: a set of absolute paths under a lock
 * (libclang's configurations are parsed on worker threads), written as a
 * Makefile rule in sorted order so the depfile is the same run to run. */
#include "deps.h"

#include "arena.h"
#include "diag.h"
#include "output.h"
#include "strbuf.h"
#include "strmap.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct {
    pthread_mutex_t lock;
    int enabled;
    struct strmap seen;
    struct vec paths;
    struct arena arena;
    int sorted;
} deps = {.lock = PTHREAD_MUTEX_INITIALIZER};

void ddigen_deps_enable(void)
{
    pthread_mutex_lock(&deps.lock);
    deps.enabled = 1;
    pthread_mutex_unlock(&deps.lock);
}

void ddigen_deps_add(const char *path)
{
    if (!deps.enabled || !path)
        return;
    /* Absolute and resolved: libclang reports "km/../shared/x.h" and the
     * same file again by another spelling; one file is one dependency. */
    char resolved[PATH_MAX];
    struct stat st;
    if (!realpath(path, resolved) || stat(resolved, &st) != 0)
        return;
    pthread_mutex_lock(&deps.lock);
    if (!strmap_get(&deps.seen, resolved)) {
        char *key = arena_strdup(&deps.arena, resolved);
        strmap_put(&deps.seen, key, key);
        vec_push(&deps.paths, key);
        deps.sorted = 0;
    }
    pthread_mutex_unlock(&deps.lock);
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The recorded paths, sorted so the depfile is the same run to run. */
static const char *const *sorted_paths(unsigned long *count)
{
    if (!deps.sorted && deps.paths.len > 1)
        qsort(deps.paths.items, deps.paths.len, sizeof(void *), by_path);
    deps.sorted = 1;
    *count = (unsigned long)deps.paths.len;
    return (const char *const *)deps.paths.items;
}

/* Make's escapes, which Ninja's depfile parser also reads: a space or a
 * '#' takes a backslash, a '$' is doubled. */
static void put_escaped(struct strbuf *sb, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '#')
            sb_append(sb, "\\");
        else if (*p == '$')
            sb_append(sb, "$");
        sb_appendn(sb, p, 1);
    }
}

int ddigen_deps_write(const char *depfile, const char *target)
{
    unsigned long n;
    const char *const *list = sorted_paths(&n);
    struct strbuf sb = {0};
    put_escaped(&sb, target);
    sb_append(&sb, ":");
    for (unsigned long i = 0; i < n; i++) {
        struct stat st;
        if (stat(list[i], &st) != 0)
            continue; /* a temporary file of the run (libclang's PCH): gone now */
        sb_append(&sb, " \\\n  ");
        put_escaped(&sb, list[i]);
    }
    sb_append(&sb, "\n");
    int rc = ddigen_write_file(depfile, sb.data, sb.len);
    sb_free(&sb);
    return rc;
}

void ddigen_deps_reset(void)
{
    pthread_mutex_lock(&deps.lock);
    strmap_free(&deps.seen);
    vec_free(&deps.paths);
    arena_free(&deps.arena);
    memset(&deps.seen, 0, sizeof deps.seen);
    memset(&deps.paths, 0, sizeof deps.paths);
    deps.enabled = 0;
    deps.sorted = 0;
    pthread_mutex_unlock(&deps.lock);
}
