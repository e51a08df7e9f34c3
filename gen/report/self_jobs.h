/* Processes of this executable run beside the caller, in the order given
 * and at most `slots` at once (history.c: each kit's `ddigen layout`, a
 * libclang parse that depends on no other kit, runs while the caller
 * chains the specs of the kits before it). A thread of its own starts
 * them and reaps them, so a slot is refilled as soon as a process ends,
 * whatever the caller is doing. */
#ifndef DDIGEN_REPORT_SELF_JOBS_H
#define DDIGEN_REPORT_SELF_JOBS_H

#include <stddef.h>

struct self_jobs;

/* Starts running argvs[0..n) (each NULL-terminated; argv[0] is ignored,
 * argv[1] the command); on[k] names what job k is about in messages.
 * The arrays must live until self_jobs_end. NULL: out of memory or no
 * thread (reported). */
struct self_jobs *self_jobs_start(char **const *argvs, const char *const *on, size_t n, int slots);
/* Waits for job k: 0 when it exited 0, else -1 after reporting which
 * command failed on what (its own messages are above). */
int self_jobs_wait(struct self_jobs *j, size_t k);
/* Starts no more jobs, stops the ones still running (SIGTERM, by their
 * process IDs), waits for them and frees j. NULL is allowed. */
void self_jobs_end(struct self_jobs *j);
/* The slots for n jobs on this machine: one per online processor, at
 * least 1, at most n. */
int self_jobs_slots(size_t n);

#endif
