/* Atomic output files and whole-file reads shared by every stage. */
#include "output.h"

#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int ddigen_write_file(const char *path, const void *data, size_t len)
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
    size_t tmp_len = strlen(path) + 32;
    char *tmp = malloc(tmp_len);
    if (!tmp)
        return -1;
    snprintf(tmp, tmp_len, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        ddigen_error(path, 0, "cannot create output: %s", strerror(errno));
        free(tmp);
        return -1;
    }
    int rc = write_all(fd, data, len);
    if (close(fd) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        ddigen_error(path, 0, "cannot write output: %s", strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return rc;
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
