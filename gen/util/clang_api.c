/* Loads libclang when ddigen first needs it (see clang_api.h). */
#define DDIGEN_CLANG_API_IMPL
#include "clang_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef DDIGEN_LIBCLANG_SONAME
#error "DDIGEN_LIBCLANG_SONAME: the build names the libclang to load"
#endif

static struct ddigen_clang_api api;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *lib = dlopen(DDIGEN_LIBCLANG_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "ddigen: error: cannot load libclang (%s): %s\n", DDIGEN_LIBCLANG_SONAME, dlerror());
        exit(1);
    }
#define DDIGEN_CLANG_LOAD(name)                                                                               \
    if (!(*(void **)&api.name = dlsym(lib, #name))) {                                                         \
        fprintf(stderr, "ddigen: error: %s has no %s\n", DDIGEN_LIBCLANG_SONAME, #name);                       \
        exit(1);                                                                                              \
    }
    DDIGEN_CLANG_FUNCTIONS(DDIGEN_CLANG_LOAD)
#undef DDIGEN_CLANG_LOAD
}

const struct ddigen_clang_api *ddigen_clang(void)
{
    pthread_once(&api_once, load);
    return &api;
}
