/* Input files a run depended on, for `generate --depfile`: each stage
 * records what it opened (headers libclang read, doc pages, templates),
 * and the command writes them as one Makefile rule for Ninja and Make. */
#ifndef DDIGEN_DEPS_H
#define DDIGEN_DEPS_H

/* Recording is off until enabled, so the stages pay nothing otherwise. */
void ddigen_deps_enable(void);
/* Records path (made absolute; files that do not exist are ignored).
 * Safe to call from the header stage's worker threads. */
void ddigen_deps_add(const char *path);
/* Writes "TARGET: DEP DEP ...\n" with the dependencies sorted and escaped
 * as GCC's -MD does (space, '#', ':', '$'); 0, or -1 after reporting. A
 * path Make or Ninja would read back as another (a newline, a tab, '*',
 * quotes, '=', ...) is an error and nothing is written. */
int ddigen_deps_write(const char *depfile, const char *target);
/* 0 when path can be written in a depfile (as its target: is_target),
 * else -1 after reporting why; generate checks its target before any work. */
int ddigen_deps_check(const char *path, int is_target);
void ddigen_deps_reset(void);

#endif
