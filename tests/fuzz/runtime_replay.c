/* Standalone driver for runtime_fuzz.c: replays corpus files or directories
 * (built with any compiler), and writes a fresh seed corpus with --generate. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(n > 0 ? (size_t)n : 1u);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

static int replay(const char *path, unsigned *count)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    if (stat(path, &st))
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    d = opendir(path);
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        char child[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        if (replay(child, count)) {
            closedir(d);
            return -1;
        }
    }
    closedir(d);
    return 0;
}

/* Deterministic seed inputs: each file is random bytes from a fixed PRNG. */
static int generate(const char *dir, unsigned files)
{
    uint64_t s = 0x5EED5EEDull;
    unsigned i, k;
    for (i = 0; i < files; i++) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof path, "%s/seed-%03u", dir, i);
        f = fopen(path, "wb");
        if (!f)
            return -1;
        for (k = 0; k < 96u + 32u * (i % 8u); k++) {
            uint64_t z = (s += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            fputc((int)((z ^ (z >> 31)) & 0xFF), f);
        }
        fclose(f);
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    int i;
    if (argc == 4 && strcmp(argv[1], "--generate") == 0)
        return generate(argv[2], (unsigned)strtoul(argv[3], NULL, 10)) ? 1 : 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_FILE_OR_DIR... | --generate DIR COUNT\n", argv[0]);
        return 2;
    }
    for (i = 1; i < argc; i++)
        if (replay(argv[i], &count)) {
            fprintf(stderr, "runtime_replay: cannot read %s\n", argv[i]);
            return 1;
        }
    printf("runtime_replay: %u inputs replayed\n", count);
    return count ? 0 : 1;
}
