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
/* Writes "TARGET: DEP DEP ...\n" with the dependencies sorted, spaces, '#'
 * and '$' escaped; 0, or -1 after reporting. */
int ddigen_deps_write(const char *depfile, const char *target);
void ddigen_deps_reset(void);

#endif
