/* A small pool of processes of this executable (see self_jobs.h). */
#include "self_jobs.h"

#include "../util/diag.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_OK, JOB_FAILED };

struct job {
    pid_t pid;
    enum job_state state;
};

struct self_jobs {
    char **const *argvs;
    const char *const *on;
    size_t n, next;
    int slots, running, stopping;
    struct job *jobs;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
};

/* Starts job next (under the lock); a spawn that fails is a failed job. */
static void start_next(struct self_jobs *j)
{
    extern char **environ;
    struct job *job = &j->jobs[j->next];
    char **argv = j->argvs[j->next++];
    if (posix_spawn(&job->pid, "/proc/self/exe", NULL, NULL, argv, environ) == 0) {
        job->state = JOB_RUNNING;
        j->running++;
    } else {
        job->state = JOB_FAILED;
    }
}

/* Marks the job of a process that ended (under the lock). */
static void finish(struct self_jobs *j, pid_t pid, int status)
{
    for (size_t k = 0; k < j->next; k++)
        if (j->jobs[k].state == JOB_RUNNING && j->jobs[k].pid == pid) {
            j->jobs[k].state = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? JOB_OK : JOB_FAILED;
            j->running--;
        }
}

/* Keeps the slots full and reaps. A process is learned of with WNOWAIT
 * and reaped under the lock, so self_jobs_end never signals a process ID
 * that was already released (and perhaps reused). */
static void *run_jobs(void *arg)
{
    struct self_jobs *j = arg;
    pthread_mutex_lock(&j->lock);
    for (;;) {
        while (!j->stopping && j->next < j->n && j->running < j->slots)
            start_next(j);
        pthread_cond_broadcast(&j->changed); /* spawn failures */
        if (j->running == 0 && (j->stopping || j->next == j->n))
            break;
        pthread_mutex_unlock(&j->lock);
        siginfo_t info = {0};
        int waited;
        while ((waited = waitid(P_ALL, 0, &info, WEXITED | WNOWAIT)) != 0 && errno == EINTR)
            continue;
        pthread_mutex_lock(&j->lock);
        int status = 0;
        if (waited == 0 && waitpid(info.si_pid, &status, 0) == info.si_pid)
            finish(j, info.si_pid, status);
        else if (waited != 0)
            break; /* no child left to wait for: nothing more will end */
        pthread_cond_broadcast(&j->changed);
    }
    /* Whatever was not started, or ended unseen, failed. */
    for (size_t k = 0; k < j->n; k++)
        if (j->jobs[k].state == JOB_WAITING || j->jobs[k].state == JOB_RUNNING)
            j->jobs[k].state = JOB_FAILED;
    pthread_cond_broadcast(&j->changed);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

struct self_jobs *self_jobs_start(char **const *argvs, const char *const *on, size_t n, int slots)
{
    struct self_jobs *j = calloc(1, sizeof *j);
    struct job *jobs = j ? calloc(n ? n : 1, sizeof *jobs) : NULL;
    if (!jobs) {
        free(j);
        ddigen_error(NULL, 0, "out of memory");
        return NULL;
    }
    *j = (struct self_jobs){.argvs = argvs, .on = on, .n = n, .slots = slots > 0 ? slots : 1, .jobs = jobs};
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->changed, NULL);
    if (pthread_create(&j->thread, NULL, run_jobs, j) != 0) {
        ddigen_error(NULL, 0, "history: cannot start a thread");
        pthread_mutex_destroy(&j->lock);
        pthread_cond_destroy(&j->changed);
        free(jobs);
        free(j);
        return NULL;
    }
    return j;
}

int self_jobs_wait(struct self_jobs *j, size_t k)
{
    pthread_mutex_lock(&j->lock);
    while (j->jobs[k].state == JOB_WAITING || j->jobs[k].state == JOB_RUNNING)
        pthread_cond_wait(&j->changed, &j->lock);
    int ok = j->jobs[k].state == JOB_OK;
    pthread_mutex_unlock(&j->lock);
    if (!ok)
        ddigen_error(j->on[k], 0, "history: ddigen %s failed (its messages are above)", j->argvs[k][1]);
    return ok ? 0 : -1;
}

void self_jobs_end(struct self_jobs *j)
{
    if (!j)
        return;
    pthread_mutex_lock(&j->lock);
    j->stopping = 1;
    for (size_t k = 0; k < j->next; k++)
        if (j->jobs[k].state == JOB_RUNNING)
            kill(j->jobs[k].pid, SIGTERM);
    pthread_mutex_unlock(&j->lock);
    pthread_join(j->thread, NULL);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->changed);
    free(j->jobs);
    free(j);
}

int self_jobs_slots(size_t n)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t slots = cpus > 0 ? (size_t)cpus : 1;
    if (slots > n)
        slots = n;
    return slots ? (int)slots : 1;
}
