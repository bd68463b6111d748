/* drawpipe's worker threads for the C side of the adapter (DRAWPIPE_MESA=shade): one task
 * arena per process, as many threads as llvmpipe gives its rasterizer (LP_NUM_THREADS, else
 * the cores), so the two pools never ask for more than the machine has between them when
 * one waits for the other. */
#ifndef DRAWPIPE_THREADS_H
#define DRAWPIPE_THREADS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Calls fn(ctx, i) for every i in [0, n) on the arena's threads (this one among them) and
 * returns when all have returned. fn must not throw (it is C). */
void dp_parallel_for(unsigned n, void (*fn)(void *ctx, unsigned i), void *ctx);

/* Work started on the arena's threads and waited for later, so that this thread can go on
 * meanwhile (finishing the previous window while drawpipe's threads shade the next). */
struct dp_tasks;
struct dp_tasks *dp_tasks_create(void);
void dp_tasks_destroy(struct dp_tasks *tasks); /* waits first */
/* Starts fn(ctx, i) for every i in [0, n) on the arena's threads; returns at once. */
void dp_tasks_run_for(struct dp_tasks *tasks, unsigned n, void (*fn)(void *ctx, unsigned i),
                      void *ctx);
/* Returns when everything started on `tasks` has returned; this thread helps. */
void dp_tasks_wait(struct dp_tasks *tasks);

/* Calls fn(ctx) on this thread inside the arena, so that the oneTBB work it starts runs on
 * the arena's threads (not on a default pool of every core). */
void dp_arena_run(void (*fn)(void *ctx), void *ctx);

/* The arena's thread count. */
unsigned dp_thread_count(void);

#ifdef __cplusplus
}
#endif

#endif
