/* Standalone driver: replays fuzz corpus files through the fuzz target
 * linked in (docs readers, spec files), so gcc builds and ctest run them.
 * An argument that is a folder stands for every file in it (a corpus of
 * thousands of files, too many for one command line). */
#define _POSIX_C_SOURCE 200809L
#include "util/diag.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Replays one file; -1 when it cannot be read. */
static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        return -1;
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    ddigen_diag_global.quiet = 1;
    int count = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
                char *path = malloc(len);
                snprintf(path, len, "%s/%s", argv[i], e->d_name);
                if (replay(path) < 0)
                    return 1;
                free(path);
                count++;
            }
            closedir(d);
            continue;
        }
        if (replay(argv[i]) < 0)
            return 1;
        count++;
    }
    printf("replayed %d inputs\n", count);
    return 0;
}
