/* All-or-nothing output folders (outset.h). Why an exchange of folders and
 * not a symlink switched atomically: users and build systems name OUT as a
 * folder (include paths, globs, `rm -rf OUT`), and a symlink OUT would
 * change what they see; renameat2(RENAME_EXCHANGE) keeps OUT a folder and
 * is still one atomic step. */
#include "outset.h"

#include "diag.h"
#include "output.h"

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

#define STAGING_TAG ".ddigen-new."
#define ASIDE_TAG ".ddigen-old."
#define MAX_DEPTH 64 /* folders below OUT: generated sets have two levels */

/* --- the copy of OUT made of hard links ------------------------------- */

static const char *copy_src_root, *copy_dst_root;
static int copy_failed;

static int copy_file_bytes(const char *from, const char *to, mode_t mode)
{
    int in = open(from, O_RDONLY), out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL, mode & 07777);
    char buf[1 << 16];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            n = -1, errno = errno ? errno : EIO;
    int rc = in >= 0 && out >= 0 && n == 0 ? 0 : -1;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0)
        rc = -1;
    return rc;
}

static int copy_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    if (ftw->level > MAX_DEPTH) {
        errno = ELOOP;
        copy_failed = 1;
        return 1;
    }
    char *to = NULL;
    if (asprintf(&to, "%s%s", copy_dst_root, path + strlen(copy_src_root)) < 0)
        return copy_failed = 1;
    int rc = 0;
    if (flag == FTW_D) {
        rc = ftw->level == 0 ? 0 : mkdir(to, st->st_mode & 07777);
    } else if (flag == FTW_SL) {
        char target[4096];
        ssize_t n = readlink(path, target, sizeof target - 1);
        rc = n < 0 ? -1 : (target[n] = '\0', symlink(target, to));
    } else if (flag == FTW_F) {
        /* A hard link keeps the inode: an unchanged file keeps its mtime.
         * Where links are refused (another mount below OUT), a copy. */
        rc = link(path, to) == 0 ? 0 : copy_file_bytes(path, to, st->st_mode);
    } else {
        errno = EACCES; /* a folder that cannot be read */
        rc = -1;
    }
    if (rc != 0) {
        ddigen_error(path, 0, "cannot copy into the staging folder: %s", strerror(errno));
        copy_failed = 1;
    }
    free(to);
    return rc != 0;
}

static int copy_tree(const char *from, const char *to)
{
    copy_src_root = from;
    copy_dst_root = to;
    copy_failed = 0;
    if (nftw(from, copy_entry, 16, FTW_PHYS) != 0 && !copy_failed) {
        ddigen_error(from, 0, "cannot read the output folder: %s", strerror(errno));
        copy_failed = 1;
    }
    return copy_failed ? -1 : 0;
}

/* --- debris of killed runs ---------------------------------------------- */

static int pid_is_gone(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* dir/.NAME<tag><pid> entries whose process is gone: staging folders are
 * removed; a set put aside by a switch that was killed half-way comes back
 * as OUT when OUT is missing (else it is the older set, removed). */
static void clean_debris(const char *dir, const char *name, const char *target)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t n = strlen(name);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *p = e->d_name;
        if (p[0] != '.' || strncmp(p + 1, name, n) != 0)
            continue;
        p += 1 + n;
        int staging = strncmp(p, STAGING_TAG, strlen(STAGING_TAG)) == 0;
        int aside = strncmp(p, ASIDE_TAG, strlen(ASIDE_TAG)) == 0;
        if (!staging && !aside)
            continue;
        p += strlen(staging ? STAGING_TAG : ASIDE_TAG);
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p || *end || !isdigit((unsigned char)*p) || !pid_is_gone(pid))
            continue;
        char *path = NULL;
        if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
            continue;
        struct stat st;
        if (aside && lstat(target, &st) != 0 && errno == ENOENT)
            rename(path, target);
        else
            ddigen_remove_tree(path);
        free(path);
    }
    closedir(d);
}

/* --- the set -------------------------------------------------------------- */

static char *resolve_target(const char *out_dir)
{
    /* OUT may be a symlink to the folder: the folder is what is replaced. */
    char *real = realpath(out_dir, NULL);
    if (real)
        return real;
    return errno == ENOENT ? strdup(out_dir) : NULL;
}

static void split_path(const char *path, char **dir, char **name)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    const char *end = path + len, *slash = end;
    while (slash > path && slash[-1] != '/')
        slash--;
    *name = strndup(slash, (size_t)(end - slash));
    *dir = slash == path ? strdup(".") : strndup(path, slash > path + 1 ? (size_t)(slash - path - 1) : 1);
}

static int begin(struct output_set *s, const char *out_dir, int copy)
{
    memset(s, 0, sizeof *s);
    s->target = resolve_target(out_dir);
    if (!s->target) {
        ddigen_error(out_dir, 0, "cannot resolve the output folder: %s", strerror(errno));
        return -1;
    }
    char *dir, *name;
    split_path(s->target, &dir, &name);
    int rc = -1;
    struct stat st;
    if (!dir || !name || !*name || !strcmp(name, ".") || !strcmp(name, "..")) {
        ddigen_error(out_dir, 0, "the output folder needs a name (not '.', '..' or '/')");
        goto out;
    }
    if (ddigen_make_dirs(dir) != 0)
        goto out;
    clean_debris(dir, name, s->target);
    s->had_target = stat(s->target, &st) == 0;
    if (s->had_target && !S_ISDIR(st.st_mode)) {
        ddigen_error(out_dir, 0, "the output exists and is not a folder");
        goto out;
    }
    if (asprintf(&s->staging, "%s/.%s" STAGING_TAG "%ld", dir, name, (long)getpid()) < 0) {
        s->staging = NULL;
        goto out;
    }
    ddigen_remove_tree(s->staging);
    if (mkdir(s->staging, s->had_target ? (st.st_mode & 07777) : 0755) != 0) {
        ddigen_error(s->staging, 0, "cannot create the staging folder beside the output: %s", strerror(errno));
        free(s->staging);
        s->staging = NULL;
        goto out;
    }
    rc = s->had_target && copy ? copy_tree(s->target, s->staging) : 0;
    if (rc != 0)
        output_set_abort(s);
out:
    free(dir);
    free(name);
    return rc;
}

int output_set_begin(struct output_set *s, const char *out_dir)
{
    return begin(s, out_dir, 1);
}

int output_set_begin_empty(struct output_set *s, const char *out_dir)
{
    return begin(s, out_dir, 0);
}

/* Without RENAME_EXCHANGE (some file systems): OUT goes aside, the staging
 * folder becomes OUT. A kill between the two renames leaves OUT missing and
 * the old set aside; the next run's output_set_begin puts it back. */
static int switch_by_two_renames(struct output_set *s, char **old)
{
    char *dir, *name;
    split_path(s->target, &dir, &name);
    int rc = dir && name && asprintf(old, "%s/.%s" ASIDE_TAG "%ld", dir, name, (long)getpid()) >= 0 ? 0 : -1;
    free(dir);
    free(name);
    if (rc != 0) {
        *old = NULL;
        return -1;
    }
    if (rename(s->target, *old) != 0)
        return -1;
    if (rename(s->staging, s->target) != 0) {
        int saved = errno;
        rename(*old, s->target);
        errno = saved;
        return -1;
    }
    return 0;
}

int output_set_sync(struct output_set *s)
{
    int fd = s->staging ? open(s->staging, O_RDONLY | O_DIRECTORY) : -1;
    int rc = fd < 0 || syncfs(fd) != 0 ? -1 : 0;
    if (rc != 0)
        ddigen_error(s->staging, 0, "cannot sync the new output set: %s", strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc;
}

int output_set_commit(struct output_set *s)
{
    if (!s->staging)
        return -1;
    if (ddigen_diag_global.errors) {
        ddigen_note(s->target, 0, "not replaced: errors were reported above");
        output_set_abort(s);
        return -1;
    }
    char *old = NULL;
    int rc;
    if (!s->had_target) {
        rc = rename(s->staging, s->target);
    } else {
        rc = renameat2(AT_FDCWD, s->staging, AT_FDCWD, s->target, RENAME_EXCHANGE);
        if (rc == 0)
            old = strdup(s->staging); /* the exchange left the old set there */
        else if (errno == EINVAL || errno == ENOSYS)
            rc = switch_by_two_renames(s, &old);
    }
    if (rc != 0) {
        ddigen_error(s->target, 0, "cannot switch the new output set in: %s", strerror(errno));
        free(old);
        output_set_abort(s);
        return -1;
    }
    if (old)
        ddigen_remove_tree(old);
    free(old);
    free(s->staging);
    s->staging = NULL;
    free(s->target);
    s->target = NULL;
    return 0;
}

void output_set_abort(struct output_set *s)
{
    if (s->staging)
        ddigen_remove_tree(s->staging);
    free(s->staging);
    s->staging = NULL;
    free(s->target);
    s->target = NULL;
}
