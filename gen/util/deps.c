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

/* Why GNU make (4.3) or Ninja (1.11) would read path back as something
 * else, whatever the escaping, or NULL when it can be written. What each
 * reads was found by running both on depfiles (tests/cli/depfile.sh keeps
 * every case); GCC's -MD writes most of these raw and gets them misread.
 *  - Ninja ends a name at any byte outside [A-Za-z0-9+,/_:.~(){}%=@[]!-],
 *    bytes >= 0x80, and the escapes below, and has no escape for the rest:
 *    a tab, a newline, any control byte, " ' * ? ; | < > & ` ^.
 *  - Make reads "a=b" as a target-specific variable, "a(m)" at the end of a
 *    name as an archive member, "[...]" as a wildcard that matches other
 *    files, and a '%' in the target as a pattern rule; none has an escape
 *    Ninja shares.
 *  - A backslash before '#', '$' or ':', or at the end of a name, or a ':'
 *    at the end: each reads one way in Make and another in Ninja. */
static const char *inexpressible(const char *path, int is_target)
{
    static const char ninja_plain[] = "+,/_:.~(){}%=@[]!-";
    size_t len = strlen(path);
    for (const char *p = path; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n' || c == '\r')
            return "a line break ends the rule in Make and Ninja alike";
        if (c < 0x20 || c == 0x7F)
            return "Ninja has no escape for a control byte (tab included)";
        if (c == '\\' && (p[1] == '#' || p[1] == '$' || p[1] == ':' || !p[1]))
            return "a backslash before '#', '$', ':' or at the end reads differently in Make and Ninja";
        if (c == '=')
            return "Make reads 'NAME=VALUE' in a rule as a variable assignment";
        if (c == '%' && is_target)
            return "Make reads a '%' in the target as a pattern rule";
        if (c == '[' && strchr(p, ']'))
            return "Make expands '[...]' as a wildcard that can match other files";
        if (c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
            strchr(ninja_plain, c) || c == ' ' || c == '#' || c == '$' || c == '\\')
            continue;
        return "Ninja ends a name at this character and has no escape for it";
    }
    if (len && path[len - 1] == ':')
        return "a ':' at the end reads differently in Make and Ninja";
    const char *open = strrchr(path, '(');
    if (len && path[len - 1] == ')' && open && open != path)
        return "Make reads 'NAME(MEMBER)' as a member of an archive";
    return NULL;
}

/* The escapes GCC's -MD writes for Make, which Ninja reads the same way:
 * a space takes a backslash and doubles the backslashes before it (2N+1
 * backslashes and a space are N backslashes and a space), '#' and ':' take
 * a backslash, '$' is doubled. Other backslashes stay as they are. */
static void put_escaped(struct strbuf *sb, const char *path)
{
    size_t backslashes = 0;
    for (const char *p = path; *p; p++) {
        if (*p == ' ') {
            for (size_t i = 0; i < backslashes; i++)
                sb_append(sb, "\\");
            sb_append(sb, "\\");
        } else if (*p == '#' || *p == ':') {
            sb_append(sb, "\\");
        } else if (*p == '$') {
            sb_append(sb, "$");
        }
        sb_appendn(sb, p, 1);
        backslashes = *p == '\\' ? backslashes + 1 : 0;
    }
}

int ddigen_deps_check(const char *path, int is_target)
{
    const char *why = inexpressible(path, is_target);
    if (!why)
        return 0;
    ddigen_error(NULL, 0, "--depfile: cannot write %s '%s': %s", is_target ? "the target" : "the input",
                 ddigen_quote(path), why);
    return -1;
}

int ddigen_deps_write(const char *depfile, const char *target)
{
    unsigned long n;
    const char *const *list = sorted_paths(&n);
    struct strbuf sb = {0};
    /* Every path is checked before anything is written: a depfile either
     * says what the run read or is not written at all. */
    int bad = ddigen_deps_check(target, 1);
    put_escaped(&sb, target);
    sb_append(&sb, ":");
    for (unsigned long i = 0; i < n; i++) {
        struct stat st;
        if (stat(list[i], &st) != 0)
            continue; /* a temporary file of the run (libclang's PCH): gone now */
        if (ddigen_deps_check(list[i], 0) != 0)
            bad = -1;
        sb_append(&sb, " \\\n  ");
        put_escaped(&sb, list[i]);
    }
    sb_append(&sb, "\n");
    int rc = bad ? -1 : ddigen_write_file(depfile, sb.data, sb.len);
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
