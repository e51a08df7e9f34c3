/* Clang command lines and the case-insensitive VFS overlay. The flags
 * mirror what the WDK's MSVC build defines for a kernel-mode driver. */
#include "clang_args.h"

#include "../util/json.h"
#include "../util/diag.h"
#include "../util/output.h"
#include "../util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const arch_triple[DDI_ARCH_COUNT] = {
    "i686-pc-windows-msvc", "x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc"};
static const char *const arch_macro[DDI_ARCH_COUNT] = {"-D_X86_", "-D_AMD64_", "-D_ARM64_"};

static int name_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One overlay directory entry listing its files (and subfolders, bounded). */
static void overlay_dir(struct strbuf *sb, const char *dir, const char *name, int depth)
{
    sb_append(sb, "{\"type\":\"directory\",\"name\":");
    json_sb_str(sb, name);
    sb_append(sb, ",\"contents\":[");
    DIR *d = opendir(dir);
    struct vec names = {0};
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            vec_push(&names, strdup(e->d_name));
    if (d)
        closedir(d);
    if (names.len)
        qsort(names.items, names.len, sizeof(void *), name_order);
    int first = 1;
    for (size_t i = 0; i < names.len; i++) {
        char *path;
        if (asprintf(&path, "%s/%s", dir, (char *)names.items[i]) < 0)
            continue;
        struct stat st;
        if (stat(path, &st) == 0 && (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && depth < 4))) {
            if (!first)
                sb_append(sb, ",");
            first = 0;
            if (S_ISDIR(st.st_mode)) {
                overlay_dir(sb, path, names.items[i], depth + 1);
            } else {
                sb_append(sb, "{\"type\":\"file\",\"name\":");
                json_sb_str(sb, names.items[i]);
                sb_append(sb, ",\"external-contents\":");
                json_sb_str(sb, path);
                sb_append(sb, "}");
            }
        }
        free(path);
        free(names.items[i]);
    }
    vec_free(&names);
    sb_append(sb, "]}");
}

char *case_insensitive_overlay_json(const struct vec *dirs)
{
    struct strbuf sb = {0};
    sb_append(&sb, "{\"version\":0,\"case-sensitive\":\"false\",\"roots\":[");
    for (size_t i = 0; i < dirs->len; i++) {
        if (i)
            sb_append(&sb, ",");
        overlay_dir(&sb, dirs->items[i], dirs->items[i], 0);
    }
    sb_append(&sb, "]}\n");
    return sb.data;
}

const char *write_case_insensitive_overlay(struct arena *a, const struct vec *dirs)
{
    char *json = case_insensitive_overlay_json(dirs);
    size_t len = strlen(json);
    char *path;
    int fd = ddigen_temp_file(a, "overlay", &path); /* also removes those of killed runs */
    if (fd < 0 || write(fd, json, len) != (ssize_t)len) {
        ddigen_error(path, 0, "cannot write VFS overlay: %s", strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        free(json);
        return NULL;
    }
    close(fd);
    free(json);
    return path;
}

static void push(struct vec *args, struct arena *a, const char *s)
{
    vec_push(args, arena_strdup(a, s));
}

void build_clang_args(struct arena *a, const struct parse_setup *setup, enum ddi_arch arch,
                      const char *version_macro, const char *pch, int for_pch, struct vec *args)
{
    push(args, a, "-x");
    push(args, a, for_pch ? "c-header" : "c");
    push(args, a, "-std=c11");
    push(args, a, "-target");
    push(args, a, arch_triple[arch]);
    push(args, a, "-fms-extensions");
    push(args, a, "-fms-compatibility");
    push(args, a, "-fms-compatibility-version=19.38");
    push(args, a, "-nostdlibinc");
    push(args, a, "-ferror-limit=0");
    push(args, a, arch_macro[arch]);
    push(args, a, "-D_KERNEL_MODE");
    if (setup->resource_dir) {
        push(args, a, "-resource-dir");
        push(args, a, setup->resource_dir);
    }
    if (setup->overlay_path) {
        push(args, a, "-ivfsoverlay");
        push(args, a, setup->overlay_path);
    }
    for (size_t i = 0; i < setup->include_dirs.len; i++)
        vec_push(args, arena_printf(a, "-I%s", (char *)setup->include_dirs.items[i]));
    for (size_t i = 0; i < setup->defines.len; i++)
        vec_push(args, arena_printf(a, "-D%s", (char *)setup->defines.items[i]));
    if (version_macro)
        vec_push(args, arena_printf(a, "-DDXGKDDI_INTERFACE_VERSION=%s", version_macro));
    if (pch) {
        push(args, a, "-include-pch");
        push(args, a, pch);
    }
}
