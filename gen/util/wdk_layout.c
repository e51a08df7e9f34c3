/* The WDK's include folders (wdk_layout.h). */
#include "wdk_layout.h"

#include <sys/stat.h>

const char *const wdk_include_parts[] = {"km", "km/crt", "shared", "um", "ucrt"};
const size_t wdk_include_nparts = sizeof wdk_include_parts / sizeof wdk_include_parts[0];

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

const char *wdk_locate(struct arena *a, const char *root, const char *name)
{
    if (!root || !name || !*name)
        return NULL;
    for (size_t i = 0; i < wdk_include_nparts; i++)
        if (is_file(arena_printf(a, "%s/%s/%s", root, wdk_include_parts[i], name)))
            return arena_printf(a, "%s/%s", wdk_include_parts[i], name);
    return is_file(arena_printf(a, "%s/%s", root, name)) ? name : NULL;
}
