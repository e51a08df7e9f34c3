/* Finds the data folders from /proc/self/exe: the installed layout is
 * PREFIX/bin/ddigen + PREFIX/share/ddigen/, and the build tree has
 * build/gen/ddigen + build/share/ddigen/templates -> source templates. */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *ddigen_data_dir(const char *what)
{
    static char path[PATH_MAX + 64];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? memrchr(exe, '/', (size_t)n) : NULL;
    /* ../ from the executable's folder, resolved by the kernel: a bin/
     * reached through a symlinked prefix still finds its own share/. */
    if (slash && snprintf(path, sizeof path, "%.*s/../share/ddigen/%s", (int)(slash - exe), exe, what) <
                     (int)sizeof path)
        return path;
    snprintf(path, sizeof path, "share/ddigen/%s", what);
    return path;
}
