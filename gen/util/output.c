/* Atomic output files, temporary names and whole-file reads shared by every
 * stage. */
#include "output.h"

#include "diag.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- leftovers of killed runs ------------------------------------------ */

/* The process that made a temporary name is gone (a kill -9, a crash):
 * only then is its file ours to remove. */
static int owner_is_gone(const char *digits)
{
    char *end;
    long pid = strtol(digits, &end, 10);
    if (end == digits || pid <= 0 || pid == (long)getpid())
        return 0;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void ddigen_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || st.st_uid != geteuid())
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Removes entries of dir named PREFIX<pid>SUFFIX... whose pid is dead. */
static void remove_stale(const char *dir, const char *prefix, char after_pid)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t n = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *digits = e->d_name + n;
        if (strncmp(e->d_name, prefix, n) != 0 || !isdigit((unsigned char)*digits))
            continue;
        const char *end = digits + strspn(digits, "0123456789");
        if (*end != after_pid || !owner_is_gone(digits))
            continue;
        char *path = NULL;
        if (asprintf(&path, "%s/%s", dir, e->d_name) >= 0) {
            ddigen_remove_tree(path);
            free(path);
        }
    }
    closedir(d);
}

static const char *temp_root(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

char *ddigen_temp_dir(struct arena *a, const char *kind)
{
    const char *root = temp_root();
    char *prefix = arena_printf(a, "ddigen-%s-", kind);
    remove_stale(root, prefix, '-');
    char *path = arena_printf(a, "%s/%s%ld-XXXXXX", root, prefix, (long)getpid());
    if (!mkdtemp(path)) {
        ddigen_error(path, 0, "cannot create a temporary folder: %s", strerror(errno));
        return NULL;
    }
    return path;
}

int ddigen_temp_file(struct arena *a, const char *kind, char **path)
{
    const char *root = temp_root();
    char *prefix = arena_printf(a, "ddigen-%s-", kind);
    remove_stale(root, prefix, '-');
    *path = arena_printf(a, "%s/%s%ld-XXXXXX", root, prefix, (long)getpid());
    int fd = mkstemp(*path);
    if (fd < 0)
        ddigen_error(*path, 0, "cannot create a temporary file: %s", strerror(errno));
    return fd;
}

/* --- output files ---------------------------------------------------------- */

static int write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The file a path names once its symlinks are followed (it may not exist
 * yet): replacing the link itself would cut it off from its target. */
static char *follow_symlinks(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char target[4096];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        target[n] = '\0';
        char *next = NULL;
        const char *slash = strrchr(cur, '/');
        if (target[0] == '/' || !slash)
            next = strdup(target);
        else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, target) < 0)
            next = NULL;
        free(cur);
        cur = next;
    }
    free(cur);
    errno = ELOOP;
    return NULL;
}

/* A device, FIFO or socket is written in place (-o /dev/null, a pipe):
 * renaming a file over it would destroy it. */
static int write_through(const char *path, const char *shown, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_NOCTTY);
    if (fd < 0) {
        ddigen_error(shown, 0, "cannot open output: %s", strerror(errno));
        return -1;
    }
    int rc = write_all(fd, data, len);
    if (close(fd) != 0)
        rc = -1;
    if (rc != 0)
        ddigen_error(shown, 0, "cannot write output: %s", strerror(errno));
    return rc;
}

/* Writes a temporary file beside target and renames it into place, with
 * the mode (and, where allowed, the owner) of the file it replaces. */
static int replace_file(const char *target, const char *shown, const struct stat *old, const void *data, size_t len)
{
    const char *slash = strrchr(target, '/');
    char *dir = slash ? strndup(target, (size_t)(slash - target + 1)) : strdup(".");
    char *prefix = NULL, *tmp = NULL;
    if (!dir || asprintf(&prefix, "%s.tmp.", slash ? slash + 1 : target) < 0 ||
        asprintf(&tmp, "%s.tmp.%ld", target, (long)getpid()) < 0) {
        free(dir);
        free(prefix);
        return -1;
    }
    remove_stale(dir, prefix, '\0');
    unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, old ? 0600 : 0666);
    if (fd < 0) {
        ddigen_error(shown, 0, "cannot create output: %s", strerror(errno));
        free(dir);
        free(prefix);
        free(tmp);
        return -1;
    }
    int rc = 0;
    if (old) {
        fchmod(fd, old->st_mode & 07777);
        /* The owner too where allowed (root); otherwise the file is ours. */
        if (fchown(fd, old->st_uid, old->st_gid) != 0)
            errno = 0;
    }
    if (rc == 0)
        rc = write_all(fd, data, len);
    /* On the disk before it replaces the old file: a crash after the
     * rename must not leave an empty file behind a good name. */
    if (rc == 0 && fsync(fd) != 0)
        rc = -1;
    if (close(fd) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, target) != 0)
        rc = -1;
    if (rc != 0) {
        ddigen_error(shown, 0, "cannot write output: %s", strerror(errno));
        unlink(tmp);
    }
    free(dir);
    free(prefix);
    free(tmp);
    return rc;
}

int ddigen_write_staged(const char *path, const void *data, size_t len)
{
    if (ddigen_diag_global.errors) {
        ddigen_note(path, 0, "not written: errors were reported above");
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
    int rc = fd < 0 ? -1 : write_all(fd, data, len);
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rc != 0)
        ddigen_error(path, 0, "cannot write output: %s", strerror(errno));
    return rc;
}

static int keep_unchanged; /* see ddigen_output_keep_unchanged */
static const char *keep_stamp = "";

void ddigen_output_keep_unchanged(const char *stamp)
{
    keep_unchanged = 1;
    keep_stamp = stamp ? stamp : "";
}

static int write_file(const char *path, const void *data, size_t len);

int ddigen_write_file(const char *path, const void *data, size_t len)
{
    if (keep_unchanged && !ddigen_diag_global.errors && strcmp(path, "-") != 0 && strcmp(path, keep_stamp) != 0 &&
        ddigen_file_has(path, data, len))
        return 0;
    return write_file(path, data, len);
}

static int write_file(const char *path, const void *data, size_t len)
{
    /* An error reported means the run failed: nothing it computed after
     * that may replace what the user had (every stage, one rule). */
    if (ddigen_diag_global.errors) {
        ddigen_note(path, 0, "not written: errors were reported above");
        return -1;
    }
    if (strcmp(path, "-") == 0) {
        if (write_all(STDOUT_FILENO, data, len) != 0) {
            ddigen_error("<stdout>", 0, "write failed: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    char *target = follow_symlinks(path);
    if (!target) {
        ddigen_error(path, 0, "cannot resolve output: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    int exists = stat(target, &st) == 0;
    int rc;
    if (exists && S_ISDIR(st.st_mode)) {
        ddigen_error(path, 0, "output is a folder");
        rc = -1;
    } else if (exists && !S_ISREG(st.st_mode)) {
        rc = write_through(target, path, data, len);
    } else {
        rc = replace_file(target, path, exists ? &st : NULL, data, len);
    }
    free(target);
    return rc;
}

int ddigen_file_has(const char *path, const void *data, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[1 << 16];
    const char *want = data;
    size_t at = 0, n;
    int same = 1;
    while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        same = at + n <= len && memcmp(buf, want + at, n) == 0;
        at += n;
    }
    same = same && !ferror(f) && at == len;
    fclose(f);
    return same;
}

int ddigen_write_file_if_changed(const char *path, const void *data, size_t len)
{
    if (!ddigen_diag_global.errors && strcmp(path, "-") != 0 && ddigen_file_has(path, data, len))
        return 0;
    return write_file(path, data, len);
}

int ddigen_read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ddigen_error(path, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        char *grown = realloc(buf, cap + 1);
        if (!grown) {
            free(buf);
            buf = NULL;
        } else {
            buf = grown;
        }
    }
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        ddigen_error(path, 0, "cannot read: %s", buf ? strerror(errno) : "out of memory");
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int ddigen_make_dirs(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        mkdir(p, 0755);
        *s = '/';
    }
    int rc = mkdir(p, 0755);
    if (rc != 0 && errno == EEXIST)
        rc = 0;
    if (rc != 0)
        ddigen_error(path, 0, "cannot create directory: %s", strerror(errno));
    free(p);
    return rc;
}
