/*
 * drawpipe as the draw module's front end (DRAWPIPE_MESA=front): it takes vsplit's place
 * between draw_pt_arrays() and the middle end. drawpipe cuts each draw (restart runs
 * included) into segments no larger than the middle end's prepare() announced, and the
 * middle end gets them through run() and run_linear() with DRAW_SPLIT_BEFORE/AFTER and
 * DRAW_LINE_LOOP_AS_STRIP, as vsplit hands them.
 *
 * A draw drawpipe refuses (an index read past the index buffer, which Mesa reads as 0; a
 * base vertex taking an index outside [0, 2^32); restart with patches, which llvmpipe
 * honours and drawpipe does not) is drawn by vsplit, restart runs split as draw_pt.c splits
 * them, and counted: DRAWPIPE_MESA_STATS=1 prints the counts at exit.
 * Segments fetch at most 1,024 vertices where the middle end may run Mesa's pipeline (see
 * drawpipe_prepare), else the middle end's limit. DRAWPIPE_MESA_MAX_VERTICES=N sets that
 * limit instead, never above the middle end's (a measuring knob; docs/mesa.md).
 *
 * DRAWPIPE_MESA=shade also runs the vertex shader of a draw's segments on drawpipe's
 * threads when the llvm middle end can be split in two for the state (shade_draw below).
 * DRAWPIPE_MESA=whole also converts, there, the vertices of each segment that needs no
 * pipeline stage into the render's layout, so that this thread only copies them into
 * llvmpipe's vbuf; under rasterizer discard nothing reaches the vbuf at all (whole_plan).
 * A segment with a vertex to clip is clipped and culled there by drawpipe's own stages
 * (drawpipe_stages.h) where the state maps onto them (whole_stages). Stream output and the
 * primitives-generated count are drawpipe's too (drawpipe_so.h, whole_stream_output), in draw
 * order on this thread, into Mesa's targets.
 */

#include "draw/draw_pt_drawpipe.h"

#include "draw/draw_context.h"
#include "draw/draw_private.h"
#include "draw/draw_pt.h"
#include "draw/draw_vbuf.h"
#include "draw/draw_vertex.h"
#include "draw/draw_prim_assembler.h"
#include "draw/draw_vs.h"
#include "drawpipe_so.h"
#include "drawpipe_split.h"
#include "drawpipe_stages.h"
#include "drawpipe_threads.h"
#include "util/bitscan.h"
#include "util/u_debug.h"
#include "util/u_memory.h"

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vsplit's SEGMENT_SIZE: the most vertices a segment fetches when it may meet the pipeline. */
#define DRAWPIPE_PIPELINE_SEGMENT 1024

/* DRAWPIPE_MESA=shade: windows in flight (shade_draw). */
#define SHADE_WINDOWS 3
/* Windows of chunks in flight (chunk_draw): one shaded while this thread finishes the other;
 * capturing, a third kept ahead of them (chunk_draw_captured). */
#define CHUNK_WINDOWS 3

enum fallback_reason {
   FALLBACK_PATCH_RESTART,
   FALLBACK_REFUSED,
   FALLBACK_COUNT
};

static const char *const fallback_names[FALLBACK_COUNT] = {
   "restart with patches (llvmpipe restarts them, drawpipe does not)",
   "refused by drawpipe's checks",
};

/* DRAWPIPE_MESA=shade: where a taken draw's vertex shader ran. */
enum shade_place {
   SHADE_CHUNKS,      /* on drawpipe's threads, split there too, chunk by chunk */
   SHADE_APART,       /* on drawpipe's threads */
   SHADE_ONE_SEGMENT, /* here: a draw of one segment, not worth the hand-over */
   SHADE_SMALL,       /* here, as in front: no more indices than a segment's vertices */
   SHADE_ONE_THREAD,  /* here, as in front: drawpipe has one thread (LP_NUM_THREADS) */
   SHADE_PLACE_COUNT
};

static const char *const shade_place_names[SHADE_PLACE_COUNT] = {
   "split and shaded on drawpipe's threads, chunk by chunk",
   "shaded on drawpipe's threads",
   "shaded on the draw's own thread: one segment",
   "shaded on the draw's own thread: a small draw (as in front)",
   "shaded on the draw's own thread: one thread (LP_NUM_THREADS)",
};

/* DRAWPIPE_MESA=whole: how the finishing half ended a segment shaded apart. */
enum whole_end {
   WHOLE_DISCARDED, /* rasterizer discard: after stream output and statistics, nothing */
   WHOLE_CONVERTED, /* its vertices converted on drawpipe's threads, copied into the vbuf */
   WHOLE_STAGED,    /* drawpipe's stages on drawpipe's threads, copied into the vbuf */
   WHOLE_CLIPPED,   /* Mesa's pipeline stages on the draw's thread: a vertex needs clipping */
   WHOLE_HERE,      /* finished as Mesa does on the draw's thread: the state's stages, or a
                     * layout the adapter does not convert */
   WHOLE_END_COUNT
};

static const char *const whole_end_names[WHOLE_END_COUNT] = {
   "rasterizer discard: nothing handed to the vbuf",
   "converted on drawpipe's threads, copied into the vbuf",
   "drawpipe's stages (a vertex to clip, or the state's stages) on drawpipe's threads, copied "
   "into the vbuf",
   "a vertex needs clipping: Mesa's pipeline stages on the draw's thread",
   "finished on the draw's thread (the state's pipeline stages, or a layout not converted)",
};

/* DRAWPIPE_MESA=whole: why a draw shaded apart, whose segments may need clipping or whose
 * state has pipeline stages, leaves them to Mesa's pipeline (whole_stages). */
enum stages_refusal {
   STAGES_TAKEN,          /* segments with a vertex to clip */
   STAGES_TAKEN_PIPELINE, /* every segment: the state's stages (unfilled, two-sided colour) */
   STAGES_TAKEN_IN_ORDER, /* every segment, in draw order on the draw's thread: line stipple
                           * running on along strips, loops, polygon and quad edges */
   STAGES_LAYOUT,     /* the render's layout is not converted */
   STAGES_OFFSET,     /* polygon offset not the same for both faces' polygon modes */
   STAGES_MESA_ONLY,  /* polygon stipple, smooth points or lines, wide ones */
   STAGES_FACE,       /* extra outputs other than the unfilled stage's one front face */
   STAGES_USER_CLIP,  /* user clip planes past the clip distances written */
   STAGES_CULL_DIST,  /* cull distances */
   STAGES_WINDOW,     /* a window-space position: no x and y clipping */
   STAGES_GUARD_BAND, /* points under llvmpipe's guard band */
   STAGES_ASSEMBLER,  /* the primitive assembler runs (primitive ids, adjacency) */
   STAGES_LINEAR,     /* an output interpolated without perspective */
   STAGES_OUTPUTS,    /* a layout drawpipe refuses (too many outputs, say) */
   STAGES_OFF,        /* DRAWPIPE_MESA_STAGES=0 */
   STAGES_REFUSAL_COUNT
};

static const char *const stages_refusal_names[STAGES_REFUSAL_COUNT] = {
   "drawpipe's stages (the segments with a vertex to clip)",
   "drawpipe's stages (every segment: polygon mode line or point, two-sided colour)",
   "drawpipe's stages in draw order on the draw's thread (line stipple running on along "
   "strips, loops, polygon and quad edges)",
   "Mesa's pipeline: the render's layout is not converted",
   "Mesa's pipeline: polygon offset decided by Mesa's first triangle (modes that differ)",
   "Mesa's pipeline: polygon stipple, smooth points or lines, or wide ones",
   "Mesa's pipeline: extra outputs besides the unfilled stage's front face",
   "Mesa's pipeline: user clip planes past the clip distances written",
   "Mesa's pipeline: cull distances",
   "Mesa's pipeline: a window-space position",
   "Mesa's pipeline: points under llvmpipe's guard band",
   "Mesa's pipeline: the primitive assembler runs (primitive ids, adjacency)",
   "Mesa's pipeline: an output interpolated without perspective",
   "Mesa's pipeline: outputs drawpipe refuses (too many, or an unexpected layout)",
   "Mesa's pipeline: DRAWPIPE_MESA_STAGES=0",
};

/* DRAWPIPE_MESA=whole: who writes a draw's stream output and counts its primitives. */
enum so_path {
   SO_CAPTURED,  /* drawpipe's stream output into Mesa's targets */
   SO_COUNTED,   /* nothing to capture into: drawpipe counts the primitives generated */
   SO_REFUSED,   /* Mesa's so_emit: drawpipe refuses the declaration (the last reason kept) */
   SO_ASSEMBLER, /* Mesa's so_emit: the primitive assembler runs (primitive ids, adjacency) */
   SO_PATH_COUNT
};

static const char *const so_path_names[SO_PATH_COUNT] = {
   "drawpipe's stream output into Mesa's targets",
   "primitives generated counted by drawpipe (nothing to capture into)",
   "Mesa's stream output: drawpipe refuses the declaration",
   "Mesa's stream output: the primitive assembler runs (primitive ids, adjacency)",
};

/* DRAWPIPE_MESA=whole: where drawpipe wrote a captured segment. */
enum so_place {
   SO_APART, /* on drawpipe's threads, where it was shaded */
   SO_HERE,  /* on the draw's thread, in draw order (small draws, one thread) */
   SO_MESA,  /* Mesa's so_emit at the reserved place (memory ran out) */
   SO_PLACE_COUNT
};

static const char *const so_place_names[SO_PLACE_COUNT] = {
   "on drawpipe's threads, where they were shaded",
   "on the draw's own thread, in draw order",
   "by Mesa's so_emit at their reserved place (memory ran out)",
};

/* Indexed by enum draw_llvm_shade_refusal (mesa-22.3.patch): why a draw's state keeps its
 * vertex shader on the draw's own thread. */
static const char *const shade_refusal_names[DRAW_LLVM_REFUSE_COUNT] = {
   "",
   "not the llvm middle end, or it does not shade (softpipe, or no vertex shading)",
   "a geometry shader",
   "a tessellation shader",
   "the vertex shader writes memory (stores or atomics)",
   "the vertex shader writes the viewport index",
};

/* Process-wide: DRAWPIPE_MESA_STATS reports every context's draws together. Counted only
 * when asked: an atomic add per draw is a small draw's whole budget for splitting. */
static bool stat_enabled;
static atomic_ulong stat_taken, stat_segments, stat_fallback[FALLBACK_COUNT];
static atomic_ulong stat_shade_place[SHADE_PLACE_COUNT], stat_shade_refused[DRAW_LLVM_REFUSE_COUNT];
static atomic_ulong stat_whole_end[WHOLE_END_COUNT];
static atomic_ulong stat_stages[STAGES_REFUSAL_COUNT];
static atomic_ulong stat_so[SO_PATH_COUNT], stat_so_place[SO_PLACE_COUNT];
static atomic_ulong stat_chunks_lost;
static atomic_ulong stat_small_culled, stat_small_cull_draws;
static char stat_last_refusal[256], stat_so_refusal[256];

/* One chunk of a draw split and shaded on one of drawpipe's threads (chunk_draw). */
struct chunk_part {
   struct shade_window *w; /* its segments, their vertices shaded; w->split is its own */
   const struct dp_split *draw;
   unsigned chunk;
   bool begun; /* dp_split_begin_chunk succeeded there */
};

struct chunk_window {
   struct chunk_part *parts; /* fe->parts_per_window, created with the first chunked draw */
   unsigned count;
};

struct drawpipe_front {
   struct draw_pt_front_end base;
   struct draw_context *draw;
   struct draw_pt_middle_end *middle;
   enum pipe_prim_type prim;
   unsigned opt;
   unsigned max_vertices;
   /* DRAWPIPE_MESA_MAX_VERTICES: another segment limit, to measure (0: the default). */
   unsigned max_vertices_cap;
   struct dp_split *split;
   /* DRAWPIPE_MESA=whole: the finishing half's plan for the draw being run. */
   struct draw_llvm_whole_plan whole_plan;
   /* DRAWPIPE_MESA=shade: three windows of segments, their lists copied (one filled from the
    * split, one shaded, one finished: shade_draw), each with its own task group. */
   struct shade_window *window[SHADE_WINDOWS];
   struct dp_tasks *tasks[SHADE_WINDOWS];
   struct dp_tasks *fill_tasks;
   unsigned threads; /* drawpipe's (dp_thread_count) */
   /* whole's segments shaded on this thread: their vertex memory, kept (vertex_memory). */
   struct vertex_header *vert_mem;
   size_t vert_mem_size;
   /* DRAWPIPE_MESA_CONVERT=0: whole converts on the finishing side, as shade (a measuring
    * knob: docs/mesa.md). */
   bool convert_apart;
   /* DRAWPIPE_MESA_STAGES=0: whole leaves every segment that needs pipeline stages to Mesa's
    * pipeline (a measuring knob). */
   bool stages_apart;
   /* DRAWPIPE_MESA_SO=0: whole leaves stream output and primitive counts to Mesa's so_emit
    * (a measuring knob). */
   bool so_apart;
   /* whole: drawpipe's stages for the draw being shaded apart, or NULL (whole_stages); for
    * every segment when the state has pipeline stages, else for those with a vertex to clip. */
   struct dp_stages *stages;
   bool stage_every, stages_in_order;
   /* whole: drawpipe's stream output, and whether the draw being run captures through it
    * (a session begun at the draw's start; else, with whole_plan.stream_output set, it only
    * counts primitives generated). so_slot: the place of the segment being finished when it
    * was reserved ahead (shade_fill), and whether its bytes are written already. */
   struct dp_so *so;
   bool so_capture, so_begun;
   const struct dp_so_slot *so_slot;
   bool so_slot_written;
   /* chunk_draw, capturing: places are no longer reserved ahead (chunk_reserve). */
   bool so_in_order;
   /* vsplit, for the draws drawpipe refuses; prepared only when one comes. */
   struct draw_pt_front_end *vsplit;
   bool vsplit_prepared;
   /* A draw of several chunks (chunk_draw): its windows of parts, each shaded with the task
    * group of the same index, and the knobs. */
   struct chunk_window chunks[CHUNK_WINDOWS];
   unsigned parts_per_window;
   /* DRAWPIPE_MESA_CHUNKS=0: a large draw's split stays on this thread (shade_draw), not
    * chunk by chunk on drawpipe's threads (a measuring knob). */
   bool chunks_apart;
   /* DRAWPIPE_MESA_CHUNK_SPLIT: the chunks a medium draw is cut into (dp_split_draw). */
   unsigned chunk_split;
   /* DRAWPIPE_MESA_CHUNK_WINDOW: chunks per window (chunk_parts), else twice the threads. */
   unsigned chunk_window;
   /* DRAWPIPE_MESA_SO_CHUNK_THREADS: the threads from which captured draws take the chunks. */
   unsigned so_chunk_threads;
   /* DRAWPIPE_MESA_PREFETCH: how many vertices ahead of the shader a listed fetch's memory is
    * requested (0: not at all). */
   unsigned prefetch_ahead;
   /* whole: the draw being run drops its triangles that cover no pixel centre (small_cull),
    * unless DRAWPIPE_MESA_SMALL_CULL=0 (a measuring knob); DRAWPIPE_MESA_SMALL_CULL_PROBE: how
    * many of a segment's first 32 triangles must miss every centre for the rest to be tested
    * (0: always tested). */
   bool small_cull, small_cull_apart;
   unsigned small_cull_probe;
};

enum drawpipe_mesa_mode
draw_pt_drawpipe_mode(void)
{
   static int mode = -1;
   if (mode < 0) {
      const char *v = getenv("DRAWPIPE_MESA");
      mode = DRAWPIPE_MESA_OFF;
      if (v && !strcmp(v, "front")) {
         mode = DRAWPIPE_MESA_FRONT;
      } else if (v && !strcmp(v, "shade")) {
         mode = DRAWPIPE_MESA_SHADE;
      } else if (v && !strcmp(v, "whole")) {
         mode = DRAWPIPE_MESA_WHOLE;
      } else if (v && *v && strcmp(v, "off")) {
         fprintf(stderr, "drawpipe: DRAWPIPE_MESA=%s is not off, front, shade or whole; "
                 "using off\n", v);
      }
   }
   return (enum drawpipe_mesa_mode)mode;
}

static void
print_stats(void)
{
   fprintf(stderr, "drawpipe: front end: %lu draws taken (%lu segments)\n",
           (unsigned long)stat_taken, (unsigned long)stat_segments);
   for (unsigned r = 0; r < FALLBACK_COUNT; r++)
      fprintf(stderr, "drawpipe: front end: %lu draws fell back to vsplit: %s\n",
              (unsigned long)stat_fallback[r], fallback_names[r]);
   if (draw_pt_drawpipe_mode() >= DRAWPIPE_MESA_SHADE) {
      fprintf(stderr, "drawpipe: shade: %u threads\n", dp_thread_count());
      for (unsigned p = 0; p < SHADE_PLACE_COUNT; p++)
         fprintf(stderr, "drawpipe: shade: %lu draws %s\n",
                 (unsigned long)stat_shade_place[p], shade_place_names[p]);
      for (unsigned r = 1; r < DRAW_LLVM_REFUSE_COUNT; r++)
         fprintf(stderr, "drawpipe: shade: %lu draws shaded on the draw's own thread: %s\n",
                 (unsigned long)stat_shade_refused[r], shade_refusal_names[r]);
   }
   if (draw_pt_drawpipe_mode() == DRAWPIPE_MESA_WHOLE) {
      for (unsigned e = 0; e < WHOLE_END_COUNT; e++)
         fprintf(stderr, "drawpipe: whole: %lu segments shaded apart: %s\n",
                 (unsigned long)stat_whole_end[e], whole_end_names[e]);
      for (unsigned r = 0; r < STAGES_REFUSAL_COUNT; r++)
         fprintf(stderr, "drawpipe: whole: %lu draws shaded apart that may clip or have "
                 "stages: %s\n",
                 (unsigned long)stat_stages[r], stages_refusal_names[r]);
      for (unsigned p = 0; p < SO_PATH_COUNT; p++)
         fprintf(stderr, "drawpipe: whole: %lu draws with stream output or a primitives-"
                 "generated query: %s\n", (unsigned long)stat_so[p], so_path_names[p]);
      for (unsigned p = 0; p < SO_PLACE_COUNT; p++)
         fprintf(stderr, "drawpipe: whole: %lu captured segments written %s\n",
                 (unsigned long)stat_so_place[p], so_place_names[p]);
      if (stat_so[SO_REFUSED])
         fprintf(stderr, "drawpipe: whole: last stream output refused: %s\n", stat_so_refusal);
      fprintf(stderr, "drawpipe: whole: %lu draws shaded apart drop triangles that cover no "
              "pixel centre: %lu triangles dropped\n", (unsigned long)stat_small_cull_draws,
              (unsigned long)stat_small_culled);
   }
   if (stat_chunks_lost)
      fprintf(stderr, "drawpipe: shade: %lu chunks not drawn: no memory to split them\n",
              (unsigned long)stat_chunks_lost);
   if (stat_fallback[FALLBACK_REFUSED])
      fprintf(stderr, "drawpipe: last refusal: %s\n", stat_last_refusal);
}

static void
drawpipe_prepare(struct draw_pt_front_end *frontend, enum pipe_prim_type prim,
                 struct draw_pt_middle_end *middle, unsigned opt)
{
   struct drawpipe_front *fe = (struct drawpipe_front *)frontend;
   fe->prim = prim;
   fe->opt = opt;
   fe->middle = middle;
   fe->vsplit_prepared = false;
   middle->prepare(middle, prim, opt, &fe->max_vertices);
   /* Where the middle end may run Mesa's pipeline (clipped segments, or stages), its vbuf
    * stage resets the id of every vertex of the segment at each flush (draw_reset_vertex_ids),
    * so a segment costs its size times its flushes there: cut at vsplit's segment size. */
   unsigned limit = (opt & (PT_PIPELINE | PT_CLIPTEST)) ? DRAWPIPE_PIPELINE_SEGMENT : ~0u;
   if (fe->max_vertices_cap)
      limit = fe->max_vertices_cap;
   if (limit < fe->max_vertices)
      fe->max_vertices = limit;
}

/* vsplit draws [start, start + count), restart runs split as draw_pt_arrays_restart does. */
static void
fallback_run(struct drawpipe_front *fe, unsigned start, unsigned count, bool restart,
             unsigned restart_index)
{
   struct draw_context *draw = fe->draw;
   if (!fe->vsplit_prepared) {
      fe->vsplit->prepare(fe->vsplit, fe->prim, fe->middle, fe->opt);
      fe->vsplit_prepared = true;
   }
   if (!restart) {
      fe->vsplit->run(fe->vsplit, start, count);
      return;
   }
   const unsigned size = draw->pt.user.eltSize, elt_max = draw->pt.user.eltMax;
   unsigned run_start = start, run_count = 0;
   for (unsigned j = 0; j < count; j++) {
      const unsigned i = start + j;
      bool is_restart = false;
      if (i >= start && i < elt_max) {
         const void *elts = draw->pt.user.elts;
         unsigned v = size == 1 ? ((const uint8_t *)elts)[i]
                    : size == 2 ? ((const uint16_t *)elts)[i]
                                : ((const uint32_t *)elts)[i];
         is_restart = v == restart_index;
      }
      if (is_restart) {
         if (run_count) {
            draw->start_index = run_start;
            fe->vsplit->run(fe->vsplit, run_start, run_count);
         }
         run_start = i + 1;
         run_count = 0;
      } else {
         run_count++;
      }
   }
   if (run_count) {
      draw->start_index = run_start;
      fe->vsplit->run(fe->vsplit, run_start, run_count);
   }
}

/* DRAWPIPE_MESA=shade. A draw's segments are gathered into windows of up to SHADE_WINDOW;
 * the vertex shaders of a window's segments run on drawpipe's threads, each into vertices of
 * its own (draw_llvm_middle_end_shade reads the draw's state and writes nothing shared), and
 * this thread finishes them one by one in draw order (stream output, statistics, the
 * pipeline or emit into llvmpipe's vbuf), as the middle end's run would have. */
#define SHADE_WINDOW 32

struct shade_job {
   bool listed_fetch, listed_draw; /* else a range from fetch_start, drawn in order */
   unsigned *fetch_elts;           /* grown as needed, kept from draw to draw */
   unsigned fetch_start, fetch_count, fetch_cap;
   ushort *draw_elts;
   unsigned draw_count, draw_cap;
   unsigned flags;
   struct vertex_header *verts;
   boolean clipped;
   /* The job's own vertex memory, kept from segment to segment (verts is it, unless growing
    * it failed and the middle end allocated). */
   struct vertex_header *vert_mem;
   size_t vert_mem_size;
   /* DRAWPIPE_MESA=whole: verts in the render's layout, when converted. */
   bool converted;
   float *hw;
   unsigned hw_cap;
   /* whole, small_cull: the triangles kept, a list over hw, when some were dropped
    * (small_culled; cull_count elements). */
   bool small_culled;
   ushort *cull_elts;
   unsigned cull_cap, cull_count;
   /* whole: a clipped segment through drawpipe's stages (staged_ok: `out` describes it, the
    * first of its pieces, chained through `next`; more_out holds the others). */
   struct dp_staged *staged;
   bool staged_ok;
   struct draw_pt_staged out;
   struct draw_pt_staged *more_out;
   unsigned more_out_cap;
   /* whole, capturing: the segment's place in the draw's stream output, taken in draw order
    * (shade_fill), and whether shade_one wrote its bytes there. */
   bool so_reserved, so_written;
   struct dp_so_slot so_slot;
};

struct shade_window {
   struct draw_pt_middle_end *middle;
   const struct draw_llvm_whole_plan *whole; /* DRAWPIPE_MESA=whole, else NULL */
   struct dp_stages *stages;                 /* whole: clipped segments, else NULL */
   bool stage_every;                         /* stages: every segment, clipped or not */
   bool stages_in_order; /* stages: on the finishing side, in order (a stipple running on) */
   /* whole: converted segments' triangles that cover no pixel centre are dropped (small_cull);
    * flatshade_first: the rasterizer state's, which orders a strip's or fan's vertices. */
   bool small_cull, flatshade_first;
   struct dp_so *so; /* whole, capturing: each segment's place reserved as it is filled */
   struct drawpipe_front *fe;
   enum pipe_prim_type prim;
   struct dp_split *split;
   unsigned count;
   bool last;    /* the split has no segment after this window's */
   bool pending; /* pending_seg could not be kept (out of memory): the split's current one */
   unsigned pending_flags;
   struct dp_segment pending_seg;
   struct shade_job *jobs; /* job_cap of them: SHADE_WINDOW, or grown for a chunk's segments */
   unsigned job_cap;
};

/* The primitive the llvm middle end hands stream output for a segment (its prim_type). */
static unsigned
so_prim(enum pipe_prim_type prim, unsigned flags)
{
   return (flags & DRAW_LINE_LOOP_AS_STRIP) ? PIPE_PRIM_LINE_STRIP : prim;
}

/* Each bound target's fill in bytes. */
static void
so_fills(const struct draw_context *draw, unsigned fill[4])
{
   for (unsigned b = 0; b < 4; b++) {
      fill[b] = b < draw->so.num_targets && draw->so.targets[b]
                   ? (unsigned)draw->so.targets[b]->internal_offset
                   : 0;
   }
}

/* The targets filled up to the end of a segment's place, in draw order. */
static void
so_settle(struct draw_context *draw, const struct dp_so_slot *slot)
{
   for (unsigned b = 0; b < 4 && b < draw->so.num_targets; b++) {
      if (draw->so.targets[b])
         draw->so.targets[b]->internal_offset = (int)slot->end[b];
   }
}

/* Whether Mesa's primitive assembler runs for the draw's primitive (primitive ids, adjacency):
 * it makes vertices of its own, which neither drawpipe's stages nor its stream output take. */
static bool
assembler_runs(struct drawpipe_front *fe)
{
   const struct draw_prim_info prim = {.prim = fe->prim};
   const struct draw_vertex_info none = {0};
   return draw_prim_assembler_is_required(fe->draw, &prim, &none);
}

static void
run_segment(struct draw_pt_middle_end *middle, const struct dp_segment *seg, unsigned flags)
{
   if (!seg->fetch_elts)
      middle->run_linear(middle, seg->fetch_start, seg->fetch_count, flags);
   else
      middle->run(middle, seg->fetch_elts, seg->fetch_count, seg->draw_elts, seg->draw_count,
                  flags);
}

/* Memory for a segment's shaded vertices, kept from segment to segment (a malloc and a
 * free per segment, on different threads, cost more than the list copies); NULL when it
 * cannot grow: the middle end then allocates. */
static struct vertex_header *
vertex_memory(struct draw_pt_middle_end *middle, struct vertex_header **mem, size_t *size,
              unsigned fetch_count)
{
   const size_t need = draw_llvm_middle_end_shade_bytes(middle, fetch_count);
   if (*size < need) {
      void *m = realloc(*mem, need);
      if (!m)
         return NULL;
      *mem = m;
      *size = need;
   }
   return *mem;
}

static bool
grow(void **p, unsigned *cap, unsigned count, size_t size)
{
   if (*cap >= count)
      return true;
   void *q = realloc(*p, count * size);
   if (!q)
      return false;
   *p = q;
   *cap = count;
   return true;
}

/* A segment's vertices through drawpipe's stages (in draw order on this thread when
 * `in_order`), the result's pieces chained from j->out; staged_ok when it worked (else Mesa's
 * pipeline runs the segment on the finishing side). */
static void
stage_job(struct shade_window *w, struct shade_job *j, bool in_order)
{
   if (!j->staged)
      j->staged = dp_staged_create();
   const uint16_t *elts = j->listed_draw ? j->draw_elts : NULL;
   if (!j->staged ||
       !(in_order ? dp_stages_run_in_order(w->stages, j->verts, j->fetch_count, w->prim,
                                           j->flags, elts, j->draw_count, j->staged)
                  : dp_stages_run(w->stages, j->verts, j->fetch_count, w->prim, j->flags, elts,
                                  j->draw_count, j->staged)))
      return;
   const unsigned pieces = dp_staged_pieces(j->staged);
   if (pieces > 1 && !grow((void **)&j->more_out, &j->more_out_cap, pieces - 1,
                           sizeof(struct draw_pt_staged)))
      return;
   for (unsigned k = 0; k < pieces; k++) {
      struct draw_pt_staged *o = k ? &j->more_out[k - 1] : &j->out;
      o->nr_ranges = dp_staged_piece(j->staged, k, &o->hw_verts, &o->vertex_count, &o->elts,
                                     &o->first, &o->count, &o->prim);
      o->next = k + 1 < pieces ? &j->more_out[k] : NULL;
   }
   j->staged_ok = true;
}

/* whole: a converted segment's triangles as llvmpipe's setup takes them (lp_setup_vbuf.c,
 * draw_elements, or draw_arrays for a segment in order: the same vertex order, so the same
 * setup), less those whose box holds no pixel centre: they draw nothing, and at a small window
 * a dense mesh is mostly such triangles, each a setup and a binning on the draw's thread. The
 * finish hands the list as the segment's staged piece. False when no triangle was
 * dropped, or when llvmpipe may draw the segment another way (draw_arrays makes rectangles of
 * some 9- and 27-vertex lists and 4-vertex fans): the segment then goes over as it is. */
static bool
small_cull_job(struct shade_window *w, struct shade_job *j)
{
   const unsigned n = j->draw_count;
   const ushort *e = j->listed_draw ? j->draw_elts : NULL;
   const enum pipe_prim_type prim = w->prim;
   if (n < 3 || (!e && prim == PIPE_PRIM_TRIANGLES && (n == 9 || n == 27)) ||
       (!e && prim == PIPE_PRIM_TRIANGLE_FAN && n == 4))
      return false;
   if (!grow((void **)&j->cull_elts, &j->cull_cap, prim == PIPE_PRIM_TRIANGLES ? n : 3 * n,
             sizeof(ushort)))
      return false;
   unsigned tris;
   const unsigned kept = dp_cull_small_triangles(j->hw, w->whole->vinfo->size, prim,
                                                 w->flatshade_first, e, n,
                                                 w->fe->small_cull_probe, j->cull_elts, &tris);
   if (stat_enabled)
      atomic_fetch_add(&stat_small_culled, tris - kept);
   j->cull_count = 3 * kept;
   return kept < tris;
}

/* Shades a job from its fetch list `fetch` (the job's copy, or the split's own while it is
 * valid), and prepares what the finish takes ready-made. */
static void
shade_job(struct shade_window *w, struct shade_job *j, const unsigned *fetch)
{
   j->verts = draw_llvm_middle_end_shade(
      w->middle, j->listed_fetch ? fetch : NULL, j->fetch_start, j->fetch_count,
      w->fe->prefetch_ahead, &j->clipped,
      vertex_memory(w->middle, &j->vert_mem, &j->vert_mem_size, j->fetch_count));
   /* whole, capturing: the segment's primitives into their reserved place, here. */
   j->so_written = false;
   if (j->verts && j->so_reserved)
      j->so_written = dp_so_write_slot(w->so, &j->so_slot, j->verts, j->fetch_count,
                                       so_prim(w->prim, j->flags),
                                       j->listed_draw ? j->draw_elts : NULL, j->draw_count);
   /* whole: the emit's conversion here too, for a segment that will not meet the pipeline
    * (one that fails to get memory is converted on the finishing side, as in shade). */
   const struct draw_llvm_whole_plan *plan = w->whole;
   j->converted = false;
   if (j->verts && plan && plan->vinfo && !plan->pipeline && !j->clipped &&
       grow((void **)&j->hw, &j->hw_cap, j->fetch_count * plan->vinfo->size, sizeof(float))) {
      draw_pt_emit_convert(plan->vinfo, j->verts, plan->vertex_size, j->fetch_count, j->hw);
      j->converted = true;
   }
   /* whole: a segment with a vertex to clip, or any under a state with pipeline stages,
    * through drawpipe's stages (one they cannot take, or memory running out, goes through
    * Mesa's pipeline on the finishing side). */
   j->staged_ok = false;
   if (j->verts && w->stages && !w->stages_in_order && (j->clipped || w->stage_every))
      stage_job(w, j, false);
   j->small_culled = j->converted && w->small_cull && !j->staged_ok && small_cull_job(w, j);
}

static void
shade_one(void *ctx, unsigned i)
{
   struct shade_window *w = ctx;
   shade_job(w, &w->jobs[i], w->jobs[i].fetch_elts);
}

static bool
keep_fetch(struct shade_job *j, const struct dp_segment *seg)
{
   if (!grow((void **)&j->fetch_elts, &j->fetch_cap, seg->fetch_count, sizeof(unsigned)))
      return false;
   memcpy(j->fetch_elts, seg->fetch_elts, seg->fetch_count * sizeof(unsigned));
   return true;
}

/* Copies a segment's lists (drawpipe's are valid until the next segment) into a job: the
 * fetch list only with `fetch` (a job shaded before the split moves on needs it no more). */
static bool
shade_keep(struct shade_job *j, const struct dp_segment *seg, unsigned flags, bool fetch)
{
   j->flags = flags;
   j->listed_fetch = seg->fetch_elts != NULL;
   j->listed_draw = seg->fetch_elts != NULL; /* a listed fetch always comes with its elements */
   j->fetch_start = seg->fetch_start;
   j->fetch_count = seg->fetch_count;
   j->draw_count = j->listed_draw ? seg->draw_count : seg->fetch_count;
   if (!j->listed_fetch)
      return true;
   if ((fetch && !keep_fetch(j, seg)) ||
       !grow((void **)&j->draw_elts, &j->draw_cap, seg->draw_count, sizeof(ushort)))
      return false;
   memcpy(j->draw_elts, seg->draw_elts, seg->draw_count * sizeof(ushort));
   return true;
}

/* Finishes a shaded window here, in order. */
static void
shade_finish(struct shade_window *w)
{
   for (unsigned i = 0; i < w->count; i++) {
      struct shade_job *j = &w->jobs[i];
      if (!j->verts) { /* out of memory on a thread: the middle end's own run, here */
         const struct dp_segment seg = {
            .flags = 0, .fetch_start = j->fetch_start, .fetch_count = j->fetch_count,
            .fetch_elts = j->listed_fetch ? j->fetch_elts : NULL,
            .draw_elts = j->draw_elts, .draw_count = j->draw_count,
         };
         run_segment(w->middle, &seg, j->flags);
         /* Mesa's so_emit wrote it from the fill so far: the reserved place's start. */
         if (j->so_reserved) {
            so_settle(w->fe->draw, &j->so_slot);
            if (stat_enabled)
               atomic_fetch_add(&stat_so_place[SO_MESA], 1);
         }
         continue;
      }
      if (w->stages_in_order && (j->clipped || w->stage_every))
         stage_job(w, j, true);
      w->fe->so_slot = j->so_reserved ? &j->so_slot : NULL;
      w->fe->so_slot_written = j->so_written;
      /* (Made here: a chunk's jobs move when its window grows.) */
      const unsigned first = 0, prim = PIPE_PRIM_TRIANGLES;
      const struct draw_pt_staged culled = {
         .hw_verts = j->hw, .vertex_count = j->fetch_count, .nr_ranges = j->cull_count ? 1 : 0,
         .elts = j->cull_elts, .first = &first, .count = &j->cull_count, .prim = &prim,
      };
      draw_llvm_middle_end_finish(w->middle, j->verts, j->clipped, j->fetch_count,
                                  j->listed_draw ? j->draw_elts : NULL, j->draw_count,
                                  j->flags, w->whole, j->converted ? j->hw : NULL,
                                  j->verts == j->vert_mem,
                                  j->staged_ok ? &j->out : j->small_culled ? &culled : NULL);
      w->fe->so_slot = NULL;
      if (stat_enabled && w->whole) {
         const enum whole_end e = w->whole->discard ? WHOLE_DISCARDED
                                : j->converted      ? WHOLE_CONVERTED
                                : j->staged_ok      ? WHOLE_STAGED
                                : j->clipped        ? WHOLE_CLIPPED
                                                    : WHOLE_HERE;
         atomic_fetch_add(&stat_whole_end[e], 1);
      }
      j->verts = NULL;
   }
   w->count = 0;
}

/* A full window to drawpipe's threads; returns at once. */
static void
shade_start(struct dp_tasks *tasks, struct shade_window *w)
{
   dp_tasks_run_for(tasks, w->count, shade_one, w);
}

/* Waits for a started window, then finishes it here. */
static void
shade_wait_finish(struct dp_tasks *tasks, struct shade_window *w)
{
   dp_tasks_wait(tasks);
   shade_finish(w);
}

static unsigned
segment_flags(const struct dp_segment *seg)
{
   return seg->flags | (seg->line_loop_piece ? DRAW_LINE_LOOP_AS_STRIP : 0);
}

/* Fills a window with the split's next segments, up to SHADE_WINDOW. It stops early at the
 * draw's end (last) or at a segment whose lists could not be copied (pending: out of memory;
 * the segment stays valid until the next dp_split_next, and the caller runs it in order). */
static void
shade_fill(struct shade_window *w)
{
   struct dp_segment seg;
   w->count = 0;
   w->last = w->pending = false;
   while (w->count < SHADE_WINDOW) {
      if (!dp_split_next(w->split, &seg)) {
         w->last = true;
         return;
      }
      const unsigned flags = segment_flags(&seg);
      struct shade_job *j = &w->jobs[w->count];
      if (!shade_keep(j, &seg, flags, true)) {
         w->pending = true;
         w->pending_seg = seg;
         w->pending_flags = flags;
         return;
      }
      j->so_reserved = w->so != NULL;
      if (w->so)
         dp_so_reserve(w->so, so_prim(w->prim, flags), flags, j->draw_count, &j->so_slot);
      w->count++;
   }
}

static void
shade_fill_task(void *ctx, unsigned i)
{
   (void)i;
   shade_fill(ctx);
}

/* A window's share of the draw being run (its split: the draw's, or a chunk's own). */
static void
window_setup(struct drawpipe_front *fe, struct shade_window *w, struct dp_split *split,
             const struct draw_llvm_whole_plan *whole)
{
   w->middle = fe->middle;
   w->split = split;
   w->whole = whole;
   w->stages = fe->stages;
   w->stage_every = fe->stage_every;
   w->stages_in_order = fe->stages_in_order;
   w->small_cull = fe->small_cull;
   w->flatshade_first = fe->draw->rasterizer->flatshade_first;
   w->so = fe->so_begun ? fe->so : NULL;
   w->fe = fe;
   w->prim = fe->prim;
}

/* Three windows in flight: while this thread finishes one in draw order, drawpipe's threads
 * shade the next and fill the one after from the split, so that neither the split nor the
 * shading waits for what must stay in order. The first window is filled here: a draw of one
 * segment (most small draws) is shaded right here, with no hand-over. whole: the draw's
 * plan (DRAWPIPE_MESA=whole), else NULL. */
static unsigned
shade_draw(struct drawpipe_front *fe, const struct draw_llvm_whole_plan *whole)
{
   unsigned segments = 0, next = 1;
   struct shade_window *shading = fe->window[0], *finishing = NULL;
   struct dp_tasks *shading_tasks = fe->tasks[0], *finishing_tasks = NULL;
   for (unsigned i = 0; i < SHADE_WINDOWS; i++)
      window_setup(fe, fe->window[i], fe->split, whole);
   shade_fill(shading);
   if (shading->last && shading->count == 1) {
      /* (Entering the arena to wait costs more than a small draw's whole split.) */
      shade_one(shading, 0);
      shade_finish(shading);
      if (stat_enabled)
         atomic_fetch_add(&stat_shade_place[SHADE_ONE_SEGMENT], 1);
      return 1;
   }
   if (stat_enabled)
      atomic_fetch_add(&stat_shade_place[SHADE_APART], 1);
   for (;;) {
      segments += shading->count;
      if (shading->count)
         shade_start(shading_tasks, shading);
      struct shade_window *filling = fe->window[next];
      struct dp_tasks *filling_tasks = fe->tasks[next];
      const bool more = !shading->last && !shading->pending;
      if (more)
         dp_tasks_run_for(fe->fill_tasks, 1, shade_fill_task, filling);
      if (finishing)
         shade_wait_finish(finishing_tasks, finishing);
      if (!more) {
         if (shading->count)
            shade_wait_finish(shading_tasks, shading);
         if (!shading->pending)
            return segments;
         /* Out of memory copying a segment: it is drawn here, after what came before it,
          * and the split goes on from this thread. */
         run_segment(fe->middle, &shading->pending_seg, shading->pending_flags);
         segments++;
         /* Mesa's so_emit captured it: the session goes on from the targets' fill. */
         if (fe->so_begun) {
            unsigned fill[4];
            so_fills(fe->draw, fill);
            dp_so_begin(fe->so, fill);
         }
         shade_fill(filling);
         finishing = NULL;
      } else {
         dp_tasks_wait(fe->fill_tasks);
         finishing = shading;
         finishing_tasks = shading_tasks;
      }
      shading = filling;
      shading_tasks = filling_tasks;
      next = (next + 1) % SHADE_WINDOWS;
   }
}

static void
shade_window_destroy(struct shade_window *w)
{
   if (!w)
      return;
   for (unsigned i = 0; w->jobs && i < w->job_cap; i++) {
      free(w->jobs[i].fetch_elts);
      free(w->jobs[i].draw_elts);
      free(w->jobs[i].hw);
      free(w->jobs[i].cull_elts);
      free(w->jobs[i].more_out);
      free(w->jobs[i].vert_mem);
      dp_staged_destroy(w->jobs[i].staged);
   }
   free(w->jobs);
   FREE(w);
}

static struct shade_window *
shade_window_create(void)
{
   struct shade_window *w = CALLOC_STRUCT(shade_window);
   if (w && !(w->jobs = calloc(SHADE_WINDOW, sizeof(struct shade_job)))) {
      FREE(w);
      return NULL;
   }
   if (w)
      w->job_cap = SHADE_WINDOW;
   return w;
}

/* More jobs for a chunk's window (the new ones zeroed, as calloc'd ones). */
static bool
shade_window_grow(struct shade_window *w)
{
   const unsigned cap = w->job_cap * 2;
   struct shade_job *jobs = realloc(w->jobs, cap * sizeof(struct shade_job));
   if (!jobs)
      return false;
   memset(jobs + w->job_cap, 0, (cap - w->job_cap) * sizeof(struct shade_job));
   w->jobs = jobs;
   w->job_cap = cap;
   return true;
}

/* DRAWPIPE_MESA=shade and whole, a draw drawpipe's front end cuts into chunks (one is a few
 * thousand indices, the same for every thread count): its split runs on drawpipe's threads
 * too, which in shade_draw is the one serial step left (W1's dedup is most of a thread).
 * Each task splits one chunk on a split of its own and shades the segments as they come;
 * this thread finishes the chunks in draw order, one window while the next is shaded. The
 * segments are exactly those of the draw's own split. With stream output captured, the
 * chunks are kept first and shaded once their places are reserved (chunk_keep below). */
static void
chunk_run(struct chunk_part *p, bool shade)
{
   struct shade_window *w = p->w;
   w->count = 0;
   w->last = w->pending = false;
   p->begun = dp_split_begin_chunk(w->split, p->draw, p->chunk) == NULL;
   if (!p->begun)
      return; /* out of memory: this thread's finish splits it (chunk_finish) */
   struct dp_segment seg;
   for (;;) {
      if (!dp_split_next(w->split, &seg)) {
         w->last = true;
         return;
      }
      const unsigned flags = segment_flags(&seg);
      struct shade_job *j = NULL;
      if (w->count < w->job_cap || shade_window_grow(w)) {
         j = &w->jobs[w->count];
         j->so_reserved = false;
         if (!shade_keep(j, &seg, flags, !shade))
            j = NULL;
      }
      if (j && shade) {
         shade_job(w, j, seg.fetch_elts);
         /* Memory ran out: the finish runs the middle end on the segment's lists. */
         if (!j->verts && j->listed_fetch && !keep_fetch(j, &seg))
            j = NULL;
      }
      if (!j) {
         w->pending = true; /* the rest of the chunk is run on the finishing side */
         w->pending_seg = seg;
         w->pending_flags = flags;
         return;
      }
      w->count++;
   }
}

static void
chunk_shade(void *ctx, unsigned i)
{
   chunk_run(&((struct chunk_window *)ctx)->parts[i], true);
}

/* Stream output captured through drawpipe: its places in the buffers follow the primitive
 * counts before them, so a window's chunks are split and kept first (chunk_keep), their
 * segments' places reserved on this thread in draw order (chunk_reserve), and only then
 * shaded and written (chunk_shade_kept). */
static void
chunk_keep(void *ctx, unsigned i)
{
   chunk_run(&((struct chunk_window *)ctx)->parts[i], false);
}

static void
chunk_shade_kept(void *ctx, unsigned i)
{
   struct shade_window *w = ((struct chunk_window *)ctx)->parts[i].w;
   for (unsigned j = 0; j < w->count; j++)
      shade_one(w, j);
}

/* From a chunk its thread could not split or keep whole (memory), nothing more is reserved
 * ahead: the rest of the draw takes its places in order as it is finished. */
static void
chunk_reserve(struct drawpipe_front *fe, struct chunk_window *cw)
{
   for (unsigned i = 0; i < cw->count; i++) {
      struct chunk_part *p = &cw->parts[i];
      struct shade_window *w = p->w;
      for (unsigned j = 0; p->begun && j < w->count; j++) {
         struct shade_job *job = &w->jobs[j];
         job->so_reserved = !fe->so_in_order;
         if (job->so_reserved)
            dp_so_reserve(fe->so, so_prim(fe->prim, job->flags), job->flags, job->draw_count,
                          &job->so_slot);
      }
      if (!p->begun || w->pending)
         fe->so_in_order = true;
   }
}

/* Finishes a shaded chunk here, in order; returns its segments. What its thread could not
 * keep or split for lack of memory is split and run here, by the middle end's own run. */
static unsigned
chunk_finish(struct drawpipe_front *fe, struct chunk_part *p)
{
   struct shade_window *w = p->w;
   unsigned segments = p->begun ? w->count : 0;
   struct dp_segment seg;
   if (!p->begun) {
      if (dp_split_begin_chunk(w->split, p->draw, p->chunk)) {
         if (stat_enabled)
            atomic_fetch_add(&stat_chunks_lost, 1);
         return 0;
      }
   } else {
      shade_finish(w);
      if (!w->pending)
         return segments;
      run_segment(fe->middle, &w->pending_seg, w->pending_flags);
      segments++;
   }
   while (dp_split_next(w->split, &seg)) {
      run_segment(fe->middle, &seg, segment_flags(&seg));
      segments++;
   }
   /* Mesa's so_emit captured those: the session goes on from the targets' fill. */
   if (fe->so_begun) {
      unsigned fill[4];
      so_fills(fe->draw, fill);
      dp_so_begin(fe->so, fill);
   }
   return segments;
}

/* Starts chunks [first, first + count) on window `cw`. */
static void
chunk_start(struct drawpipe_front *fe, struct dp_tasks *tasks, struct chunk_window *cw,
            unsigned first, unsigned count)
{
   cw->count = count;
   for (unsigned i = 0; i < count; i++) {
      cw->parts[i].draw = fe->split;
      cw->parts[i].chunk = first + i;
   }
   dp_tasks_run_for(tasks, count, fe->so_begun ? chunk_keep : chunk_shade, cw);
}

/* The windows' parts, made with the first chunked draw (a third window's with the first
 * captured one): a window holds twice as many chunks as drawpipe has threads (a thread that
 * finishes early takes another: on 16 cores W1 took 0.038 of off's time, against 0.046 with
 * one chunk per thread), each with its own split and vertex memory (about 0.6 MB of lists,
 * and a chunk's segments' vertices, kept from draw to draw). False when memory runs out (the
 * draw then goes through shade_draw). */
static bool
chunk_parts(struct drawpipe_front *fe, const struct draw_llvm_whole_plan *whole)
{
   const unsigned n = fe->chunk_window ? fe->chunk_window : 2 * fe->threads;
   const unsigned windows = fe->so_begun ? 3 : 2;
   for (unsigned k = 0; k < windows; k++) {
      struct chunk_window *cw = &fe->chunks[k];
      if (!cw->parts) {
         cw->parts = CALLOC(n, sizeof(struct chunk_part));
         if (!cw->parts)
            return false;
         fe->parts_per_window = n;
      }
      for (unsigned i = 0; i < n; i++) {
         struct chunk_part *p = &cw->parts[i];
         if (!p->w && !(p->w = shade_window_create()))
            return false;
         if (!p->w->split && !(p->w->split = dp_split_create()))
            return false;
         window_setup(fe, p->w, p->w->split, whole);
      }
   }
   return true;
}

/* Capturing: while this thread finishes window k, drawpipe's threads shade k + 1, whose
 * places were reserved once it was kept, and keep k + 2. */
static unsigned
chunk_draw_captured(struct drawpipe_front *fe, unsigned chunks)
{
   const unsigned per = fe->parts_per_window;
   unsigned segments = 0, started = 0, k = 0;
   for (unsigned w = 0; w < 3; w++)
      fe->chunks[w].count = 0;
   for (unsigned w = 0; w < 2 && started < chunks; w++) {
      const unsigned n = MIN2(per, chunks - started);
      chunk_start(fe, fe->tasks[w], &fe->chunks[w], started, n);
      started += n;
   }
   dp_tasks_wait(fe->tasks[0]);
   chunk_reserve(fe, &fe->chunks[0]);
   dp_tasks_run_for(fe->tasks[0], fe->chunks[0].count, chunk_shade_kept, &fe->chunks[0]);
   for (;;) {
      const unsigned k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      struct chunk_window *finishing = &fe->chunks[k], *after = &fe->chunks[k1];
      dp_tasks_wait(fe->tasks[k]);
      if (after->count) {
         dp_tasks_wait(fe->tasks[k1]);
         chunk_reserve(fe, after);
         dp_tasks_run_for(fe->tasks[k1], after->count, chunk_shade_kept, after);
         const unsigned n = MIN2(per, chunks - started);
         fe->chunks[k2].count = 0;
         if (n)
            chunk_start(fe, fe->tasks[k2], &fe->chunks[k2], started, n);
         started += n;
      }
      for (unsigned i = 0; i < finishing->count; i++)
         segments += chunk_finish(fe, &finishing->parts[i]);
      finishing->count = 0;
      if (!after->count)
         return segments;
      k = k1;
   }
}

static unsigned
chunk_draw(struct drawpipe_front *fe, unsigned chunks)
{
   const unsigned per = fe->parts_per_window;
   unsigned segments = 0, started = MIN2(per, chunks), k = 0;
   fe->so_in_order = false;
   if (fe->so_begun)
      return chunk_draw_captured(fe, chunks);
   chunk_start(fe, fe->tasks[0], &fe->chunks[0], 0, started);
   for (;;) {
      struct chunk_window *finishing = &fe->chunks[k];
      dp_tasks_wait(fe->tasks[k]);
      const unsigned more = MIN2(per, chunks - started);
      if (more)
         chunk_start(fe, fe->tasks[1 - k], &fe->chunks[1 - k], started, more);
      started += more;
      for (unsigned i = 0; i < finishing->count; i++)
         segments += chunk_finish(fe, &finishing->parts[i]);
      if (!more)
         return segments;
      k = 1 - k;
   }
}

static void
chunk_parts_destroy(struct drawpipe_front *fe)
{
   for (unsigned k = 0; k < CHUNK_WINDOWS; k++) {
      struct chunk_window *cw = &fe->chunks[k];
      for (unsigned i = 0; cw->parts && i < fe->parts_per_window; i++) {
         if (cw->parts[i].w)
            dp_split_destroy(cw->parts[i].w->split);
         shade_window_destroy(cw->parts[i].w);
      }
      FREE(cw->parts);
   }
}

/* DRAWPIPE_MESA=whole: drawpipe's stages for a draw shaded apart (fe->stages), where its state
 * maps onto them: no stage but the clipper and the cull stage in Mesa's pipeline for it (no
 * PT_PIPELINE, and llvmpipe leaves offset and two-sided colour to itself then), view-volume
 * clipping only, every output either flat or perspective-interpolated, no primitive assembler.
 * Mesa's viewport transform is handed over as it is, so new vertices land where Mesa's clipper
 * puts them. */
static enum stages_refusal
whole_stages(struct drawpipe_front *fe)
{
   struct draw_context *draw = fe->draw;
   const struct pipe_rasterizer_state *rast = draw->rasterizer;
   const struct vertex_info *vinfo = fe->whole_plan.vinfo;
   fe->stage_every = fe->whole_plan.pipeline;
   if (!fe->stages_apart)
      return STAGES_OFF;
   if (!vinfo)
      return STAGES_LAYOUT;
   /* The pipeline's stages drawpipe's mirror (draw_pipe_validate.c): clip, cull, two-sided
    * colour, flat shading and unfilled. llvmpipe leaves offset and two-sided colour to the
    * draw module only when it runs that pipeline anyway (llvmpipe_create_rasterizer_state). */
   const bool offset = fe->whole_plan.pipeline &&
                       (rast->offset_tri || rast->offset_line || rast->offset_point);
   if (offset) {
      /* Mesa's offset stage decides at the first triangle after a flush whether to offset,
       * by that triangle's polygon mode, and keeps the decision for the ones after it (and
       * saturates their depths either way): drawpipe decides per triangle, in parallel. The
       * two agree when every triangle would decide the same, and offset. */
      const bool mode_offset[3] = {rast->offset_tri, rast->offset_line, rast->offset_point};
      if (rast->fill_front > 2 || rast->fill_back > 2 || !mode_offset[rast->fill_front] ||
          !mode_offset[rast->fill_back])
         return STAGES_OFFSET;
   }
   if (fe->whole_plan.pipeline) {
      /* The smooth stages and polygon stipple change the fragment shader and the render's
       * layout. */
      if (rast->poly_stipple_enable ||
          (!rast->multisample && (rast->line_smooth || rast->point_smooth)) ||
          roundf(rast->line_width) > draw->pipeline.wide_line_threshold ||
          rast->point_size > draw->pipeline.wide_point_threshold ||
          (rast->point_quad_rasterization && draw->pipeline.wide_point_sprites) ||
          (rast->sprite_coord_enable && draw->pipeline.point_sprite))
         return STAGES_MESA_ONLY;
   }
   /* The unfilled stage's front face for the fragment shader (the one extra output llvmpipe
    * asks for): drawpipe's front_face_varying, in the slot after the shader's outputs. */
   const unsigned n = draw_current_shader_outputs(draw);
   int face_output = -1;
   if (draw->extra_shader_outputs.num) {
      if (draw->extra_shader_outputs.num != 1 ||
          draw->extra_shader_outputs.semantic_name[0] != TGSI_SEMANTIC_FACE ||
          draw->extra_shader_outputs.slot[0] != n)
         return STAGES_FACE;
      face_output = (int)n;
   }
   /* User clip planes: against the shader's clip distances, else gl_ClipVertex, else the
    * clip-space position, as Mesa's clipper (getclipdist). */
   const unsigned num_clipdist =
      draw->clip_user ? draw_current_shader_num_written_clipdistances(draw) : 0;
   if (num_clipdist && (rast->clip_plane_enable >> num_clipdist))
      return STAGES_USER_CLIP;
   const int clipvertex =
      draw->clip_user && !num_clipdist && draw_current_shader_clipvertex_output(draw) !=
                                             draw_current_shader_position_output(draw)
         ? (int)draw_current_shader_clipvertex_output(draw)
         : -1;
   if (draw_current_shader_num_written_culldistances(draw))
      return STAGES_CULL_DIST;
   if (!draw->clip_xy)
      return STAGES_WINDOW;
   if (fe->prim == PIPE_PRIM_POINTS && draw->guard_band_points_xy)
      return STAGES_GUARD_BAND;
   if (assembler_runs(fe))
      return STAGES_ASSEMBLER;

   /* The llvm middle end sizes a vertex for the larger of the shader's inputs and outputs
    * (llvm_middle_end_prepare): the outputs come first, any slots after them are unused. */
   if (n > PIPE_MAX_SHADER_OUTPUTS ||
       fe->whole_plan.vertex_size < offsetof(struct vertex_header, data) + 16 * n)
      return STAGES_OUTPUTS;
   boolean flat[PIPE_MAX_SHADER_OUTPUTS];
   bool flat_out[PIPE_MAX_SHADER_OUTPUTS];
   if (n + draw->extra_shader_outputs.num > PIPE_MAX_SHADER_OUTPUTS)
      return STAGES_OUTPUTS;
   if (!draw_clip_flat_outputs(draw, flat, n + draw->extra_shader_outputs.num))
      return STAGES_LINEAR;
   for (unsigned i = 0; i < n; i++)
      flat_out[i] = flat[i];
   unsigned attrib_output[PIPE_MAX_SHADER_OUTPUTS];
   if (vinfo->num_attribs > PIPE_MAX_SHADER_OUTPUTS)
      return STAGES_OUTPUTS;
   for (unsigned a = 0; a < vinfo->num_attribs; a++) {
      const unsigned src = vinfo->attrib[a].src_index;
      attrib_output[a] = src == DRAW_ATTR_NONEXIST ? ~0u : src;
   }
   /* The clip mask's and the edge flag's bits as the stages read them: Mesa's bitfield,
    * checked once. */
   struct vertex_header probe;
   memset(&probe, 0, sizeof probe);
   probe.clipmask = 0x2a;
   uint32_t first_dword;
   memcpy(&first_dword, &probe, sizeof first_dword);
   if ((first_dword & ((1u << DRAW_TOTAL_CLIP_PLANES) - 1)) != 0x2a)
      return STAGES_OUTPUTS;
   memset(&probe, 0, sizeof probe);
   probe.edgeflag = 1;
   memcpy(&first_dword, &probe, sizeof first_dword);
   if (!first_dword || (first_dword & (first_dword - 1)))
      return STAGES_OUTPUTS;
   const unsigned edgeflag_bit = ffs(first_dword) - 1;

   /* Two-sided colour's pairs, as Mesa's twoside stage finds them (twoside_first_tri). */
   int twoside_front[2] = {-1, -1}, twoside_back[2] = {-1, -1};
   const struct tgsi_shader_info *info = &draw->vs.vertex_shader->info;
   for (unsigned i = 0; i < info->num_outputs && i < n; i++) {
      const unsigned idx = info->output_semantic_index[i];
      if (idx > 1)
         continue;
      if (info->output_semantic_name[i] == TGSI_SEMANTIC_COLOR)
         twoside_front[idx] = i;
      if (info->output_semantic_name[i] == TGSI_SEMANTIC_BCOLOR)
         twoside_back[idx] = i;
   }

   struct dp_stages_state state = {
      .vertex_size = fe->whole_plan.vertex_size,
      .clip_pos_offset = offsetof(struct vertex_header, clip_pos),
      .data_offset = offsetof(struct vertex_header, data),
      .clipmask_bits = DRAW_TOTAL_CLIP_PLANES,
      .num_outputs = n,
      .position_output = draw_current_shader_position_output(draw),
      .flat_output = flat_out,
      .provoking_first = rast->flatshade_first,
      .cull_face = rast->cull_face,
      .front_ccw = rast->front_ccw,
      .clip_z = draw->clip_z,
      .clip_halfz = rast->clip_halfz,
      .fill_front = fe->whole_plan.pipeline ? rast->fill_front : PIPE_POLYGON_MODE_FILL,
      .fill_back = fe->whole_plan.pipeline ? rast->fill_back : PIPE_POLYGON_MODE_FILL,
      .edgeflag_bit = edgeflag_bit,
      .light_twoside = fe->whole_plan.pipeline && rast->light_twoside,
      .twoside_front = {twoside_front[0], twoside_front[1]},
      .twoside_back = {twoside_back[0], twoside_back[1]},
      .offset_tri = offset && rast->offset_tri,
      .offset_line = offset && rast->offset_line,
      .offset_point = offset && rast->offset_point,
      .offset_scale = rast->offset_scale,
      /* offset_first_tri's units: a fixed-point depth buffer's step folded in, in double. */
      .offset_units = draw->floating_point_depth ? (float)rast->offset_units
                                                 : (float)(rast->offset_units * draw->mrd * 2),
      .offset_units_r = draw->floating_point_depth ? 0.0f : 1.0f,
      .offset_clamp = rast->offset_clamp,
      .line_stipple = fe->whole_plan.pipeline && rast->line_stipple_enable,
      .stipple_factor = rast->line_stipple_factor + 1u,
      .stipple_pattern = rast->line_stipple_pattern,
      .clip_plane_enable = draw->clip_user ? rast->clip_plane_enable : 0,
      .num_clipdist = num_clipdist,
      .clipdist_output = {draw_current_shader_ccdistance_output(draw, 0),
                          draw_current_shader_ccdistance_output(draw, 1)},
      .clipvertex_output = clipvertex,
      .face_output = face_output,
      .scale = {draw->viewports[0].scale[0], draw->viewports[0].scale[1],
                draw->viewports[0].scale[2]},
      .translate = {draw->viewports[0].translate[0], draw->viewports[0].translate[1],
                    draw->viewports[0].translate[2]},
      .num_attribs = vinfo->num_attribs,
      .attrib_output = attrib_output,
   };
   memcpy(state.planes, &draw->plane[6], sizeof state.planes);
   fe->stages = dp_stages_create(&state, NULL, 0);
   if (!fe->stages)
      return STAGES_OUTPUTS;
   /* Line stipple whose pattern runs on along strips and loops, and along a polygon's or
    * quad's edges, from segment to segment: the stages run where the segments are finished,
    * in draw order, the pattern carried from each to the next. */
   fe->stages_in_order = !dp_stages_takes(fe->stages, fe->prim);
   if (fe->stages_in_order)
      return STAGES_TAKEN_IN_ORDER;
   return fe->stage_every ? STAGES_TAKEN_PIPELINE : STAGES_TAKEN;
}

/* whole_plan.stream_output: a segment's stream output by drawpipe, or only its primitives
 * generated (so_capture false), reported to the render as draw_pt_so_emit reports them. A
 * segment reserved ahead was written where it was shaded; any other is reserved and written
 * here, in draw order. */
static boolean
whole_stream_output(void *ctx, const struct draw_vertex_info *verts,
                    const struct draw_prim_info *prims)
{
   struct drawpipe_front *fe = ctx;
   struct draw_context *draw = fe->draw;
   struct vbuf_render *render = draw->render;
   if (!fe->so_capture) {
      render->set_stream_output_info(render, 0, 0,
                                     dp_so_prims_drawn(prims->prim, prims->count, prims->flags));
      return TRUE;
   }
   /* As draw_pt_so_emit: the vbuf stage lets go of what it holds first. */
   draw_do_flush(draw, DRAW_FLUSH_BACKEND);
   struct dp_so_slot here;
   const struct dp_so_slot *slot = fe->so_slot;
   const bool apart = slot && fe->so_slot_written;
   if (!slot) {
      dp_so_reserve(fe->so, prims->prim, prims->flags, prims->count, &here);
      slot = &here;
   }
   if (!apart && !dp_so_write_slot(fe->so, slot, verts->verts, verts->count, prims->prim,
                                   prims->linear ? NULL : prims->elts, prims->count)) {
      /* Out of memory: Mesa's so_emit writes it from the fill so far, the place's start. */
      if (stat_enabled)
         atomic_fetch_add(&stat_so_place[SO_MESA], 1);
      return FALSE;
   }
   if (stat_enabled)
      atomic_fetch_add(&stat_so_place[apart ? SO_APART : SO_HERE], 1);
   so_settle(draw, slot);
   render->set_stream_output_info(render, 0, slot->written, slot->generated);
   return TRUE;
}

/* DRAWPIPE_MESA=whole: drawpipe's stream output for the draw where Mesa's so_emit would
 * capture (the vertex shader declares outputs and a target is bound) or count primitives
 * generated (a query is active); otherwise neither has anything to do. */
static void
whole_stream_output_plan(struct drawpipe_front *fe)
{
   struct draw_context *draw = fe->draw;
   const struct pipe_stream_output_info *info = &draw->vs.vertex_shader->state.stream_output;
   fe->so_begun = false;
   bool has_target = false;
   for (unsigned b = 0; b < draw->so.num_targets; b++)
      has_target |= draw->so.targets[b] != NULL;
   fe->so_capture = info->num_outputs > 0 && has_target;
   if ((!fe->so_capture && !draw->collect_primgen) || !draw->render)
      return;
   /* Mesa's so_emit takes what the assembler makes; drawpipe's slots are the segments'. */
   if (fe->prim > PIPE_PRIM_POLYGON || assembler_runs(fe)) {
      if (stat_enabled)
         atomic_fetch_add(&stat_so[SO_ASSEMBLER], 1);
      return;
   }
   if (fe->so_capture) {
      if (!fe->so)
         fe->so = dp_so_create();
      struct dp_so_output outputs[PIPE_MAX_SO_OUTPUTS];
      struct dp_so_state state = {
         .vertex_size = fe->whole_plan.vertex_size,
         .clip_pos_offset = offsetof(struct vertex_header, clip_pos),
         .data_offset = offsetof(struct vertex_header, data),
         .num_registers = draw_current_shader_outputs(draw),
         /* The llvm middle end's so_emit reads the position before the viewport (no
          * geometry or tessellation stage runs in whole). */
         .position_output = draw_current_shader_position_output(draw),
         .num_outputs = info->num_outputs,
         .outputs = outputs,
         .provoking_first = draw->rasterizer->flatshade_first,
      };
      for (unsigned i = 0; i < info->num_outputs && i < PIPE_MAX_SO_OUTPUTS; i++) {
         outputs[i] = (struct dp_so_output){
            .register_index = info->output[i].register_index,
            .start_component = info->output[i].start_component,
            .num_components = info->output[i].num_components,
            .output_buffer = info->output[i].output_buffer,
            .dst_offset = info->output[i].dst_offset,
            .stream = info->output[i].stream,
         };
      }
      for (unsigned b = 0; b < 4; b++) {
         const struct draw_so_target *t = b < draw->so.num_targets ? draw->so.targets[b] : NULL;
         state.stride[b] = info->stride[b];
         if (t)
            state.targets[b] = (struct dp_so_target){
               .data = t->mapping, .offset = t->target.buffer_offset,
               .size = t->target.buffer_size};
      }
      char why[200] = "a target filled past its size";
      unsigned fill[4];
      so_fills(draw, fill);
      if (!fe->so || !dp_so_set(fe->so, &state, why, sizeof why) || !dp_so_begin(fe->so, fill)) {
         if (stat_enabled) {
            atomic_fetch_add(&stat_so[SO_REFUSED], 1);
            snprintf(stat_so_refusal, sizeof stat_so_refusal, "%s",
                     fe->so ? why : "out of memory");
         }
         return;
      }
   }
   fe->so_begun = fe->so_capture;
   fe->whole_plan.stream_output = whole_stream_output;
   fe->whole_plan.stream_output_ctx = fe;
   if (stat_enabled)
      atomic_fetch_add(&stat_so[fe->so_capture ? SO_CAPTURED : SO_COUNTED], 1);
}

/* whole: whether the draw's converted segments may drop triangles that cover no pixel centre
 * (small_cull_job). Sound for llvmpipe's setup when it samples one pixel centre (x + 0.5,
 * y + 0.5) per pixel, reads the position from the render layout's first attribute, and its
 * linear rasterizer is off (that one merges a list's triangle pairs into rectangles, so a
 * dropped triangle would move the pairs; llvmpipe permits it exactly when it asks the draw
 * module for a guard band). Triangles only, filled (no pipeline stages). */
static bool
small_cull_applies(const struct drawpipe_front *fe)
{
   struct draw_context *draw = fe->draw;
   const struct pipe_rasterizer_state *rast = draw->rasterizer;
   const struct vertex_info *vinfo = fe->whole_plan.vinfo;
   const bool triangles = fe->prim == PIPE_PRIM_TRIANGLES ||
                          fe->prim == PIPE_PRIM_TRIANGLE_STRIP ||
                          fe->prim == PIPE_PRIM_TRIANGLE_FAN;
   return fe->small_cull_apart && triangles && vinfo && !fe->whole_plan.pipeline &&
          !fe->whole_plan.discard && rast->half_pixel_center && !rast->multisample &&
          !rast->poly_smooth && rast->conservative_raster_mode == PIPE_CONSERVATIVE_RASTER_OFF &&
          !draw->driver.guard_band_xy && vinfo->num_attribs > 0 &&
          vinfo->attrib[0].emit == EMIT_4F &&
          (int)vinfo->attrib[0].src_index ==
             draw_find_shader_output(draw, TGSI_SEMANTIC_POSITION, 0);
}

static void
drawpipe_run(struct draw_pt_front_end *frontend, unsigned start, unsigned count)
{
   struct drawpipe_front *fe = (struct drawpipe_front *)frontend;
   struct draw_context *draw = fe->draw;
   struct draw_pt_middle_end *middle = fe->middle;
   const bool restart = draw->pt.user.eltSize && draw->pt.user.restart;

   if (restart && fe->prim == PIPE_PRIM_PATCHES) {
      atomic_fetch_add(&stat_fallback[FALLBACK_PATCH_RESTART], 1);
      fallback_run(fe, start, count, true, draw->pt.user.restart_index);
      return;
   }

   const struct dp_split_draw d = {
      .prim = fe->prim,
      .index_size = draw->pt.user.eltSize,
      .indices = draw->pt.user.elts,
      .index_count = draw->pt.user.eltMax,
      .start = start,
      .count = count,
      .base_vertex = draw->pt.user.eltBias,
      .restart = restart,
      .restart_index = draw->pt.user.restart_index,
      .patch_vertices = draw->pt.vertices_per_patch,
      .max_vertices = fe->max_vertices,
      .chunk_split = fe->chunk_split,
   };
   const char *refusal = dp_split_begin(fe->split, &d);
   if (refusal) {
      atomic_fetch_add(&stat_fallback[FALLBACK_REFUSED], 1);
      snprintf(stat_last_refusal, sizeof stat_last_refusal, "%s", refusal);
      fallback_run(fe, start, count, restart, draw->pt.user.restart_index);
      return;
   }
   if (stat_enabled)
      atomic_fetch_add(&stat_taken, 1);

   unsigned segments = 0;
   const enum draw_llvm_shade_refusal refusal_to_shade =
      fe->window[0] ? draw_llvm_middle_end_shade_refusal(draw, middle)
                    : DRAW_LLVM_REFUSE_MIDDLE_END;
   /* A draw of no more indices than a segment's vertices is a segment or two: the middle
    * end's own run, here, costs less than copying its lists for a hand-over. */
   const bool small = count <= fe->max_vertices;
   const bool whole = refusal_to_shade == DRAW_LLVM_SHADES_APART &&
                      draw_pt_drawpipe_mode() == DRAWPIPE_MESA_WHOLE;
   const enum shade_place here = small ? SHADE_SMALL : SHADE_ONE_THREAD;
   if (whole) {
      draw_llvm_middle_end_whole_plan(middle, &fe->whole_plan);
      if (!fe->convert_apart)
         fe->whole_plan.vinfo = NULL;
      if (fe->so_apart)
         whole_stream_output_plan(fe);
      fe->small_cull = small_cull_applies(fe);
   }
   /* With one thread the windows would only add copies of each segment's lists, and their
    * vertices would be finished long after they were written (out of the caches). */
   if (refusal_to_shade == DRAW_LLVM_SHADES_APART && !small && fe->threads > 1) {
      if (stat_enabled && whole && fe->small_cull)
         atomic_fetch_add(&stat_small_cull_draws, 1);
      if (whole && (fe->opt & (PT_CLIPTEST | PT_PIPELINE)) && !fe->whole_plan.discard) {
         const enum stages_refusal r = whole_stages(fe);
         if (stat_enabled)
            atomic_fetch_add(&stat_stages[r], 1);
      }
      const struct draw_llvm_whole_plan *plan = whole ? &fe->whole_plan : NULL;
      /* Capturing, the chunks wait for their places between split and shading
       * (chunk_reserve): on two threads that costs more than splitting in order (W1 with
       * transform feedback 0.171 of off against 0.159, W7 0.379 against 0.342; the meshes
       * gain), from four up the split in order is the bottleneck. The segments are the same
       * either way. */
      const bool chunked =
         fe->chunks_apart && (!fe->so_begun || fe->threads >= fe->so_chunk_threads);
      const unsigned chunks = chunked ? dp_split_chunks(fe->split) : 1;
      if (chunks > 1 && chunk_parts(fe, plan)) {
         if (stat_enabled)
            atomic_fetch_add(&stat_shade_place[SHADE_CHUNKS], 1);
         segments = chunk_draw(fe, chunks);
      } else {
         segments = shade_draw(fe, plan);
      }
      dp_stages_destroy(fe->stages);
      fe->stages = NULL;
      fe->stages_in_order = false;
   } else if (whole) {
      /* whole's small draw, or one thread: shaded and finished here, segment by segment, as
       * in front but with the whole plan (nothing to the vbuf under rasterizer discard). */
      if (stat_enabled)
         atomic_fetch_add(&stat_shade_place[here], 1);
      struct dp_segment seg;
      while (dp_split_next(fe->split, &seg)) {
         const unsigned flags = segment_flags(&seg);
         boolean clipped;
         struct vertex_header *verts = draw_llvm_middle_end_shade(
            middle, seg.fetch_elts, seg.fetch_start, seg.fetch_count, fe->prefetch_ahead,
            &clipped,
            vertex_memory(middle, &fe->vert_mem, &fe->vert_mem_size, seg.fetch_count));
         if (!verts)
            run_segment(middle, &seg, flags); /* out of memory: the middle end's own run */
         else
            draw_llvm_middle_end_finish(middle, verts, clipped, seg.fetch_count,
                                        seg.fetch_elts ? seg.draw_elts : NULL,
                                        seg.fetch_elts ? seg.draw_count : seg.fetch_count,
                                        flags, &fe->whole_plan, NULL, verts == fe->vert_mem,
                                        NULL);
         segments++;
      }
   } else {
      if (stat_enabled && refusal_to_shade == DRAW_LLVM_SHADES_APART)
         atomic_fetch_add(&stat_shade_place[here], 1);
      else if (stat_enabled && fe->window[0])
         atomic_fetch_add(&stat_shade_refused[refusal_to_shade], 1);
      struct dp_segment seg;
      while (dp_split_next(fe->split, &seg)) {
         run_segment(middle, &seg, segment_flags(&seg));
         segments++;
      }
   }
   if (fe->so_begun) {
      dp_so_end(fe->so);
      fe->so_begun = false;
   }
   if (stat_enabled)
      atomic_fetch_add(&stat_segments, segments);
}

static void
drawpipe_flush(struct draw_pt_front_end *frontend, unsigned flags)
{
   struct drawpipe_front *fe = (struct drawpipe_front *)frontend;
   if (!(flags & DRAW_FLUSH_STATE_CHANGE))
      return;
   /* vsplit's flush finishes the middle end when vsplit was prepared on it. */
   if (fe->vsplit_prepared)
      fe->vsplit->flush(fe->vsplit, flags);
   else if (fe->middle)
      fe->middle->finish(fe->middle);
   fe->middle = NULL;
   fe->vsplit_prepared = false;
}

static void
drawpipe_destroy(struct draw_pt_front_end *frontend)
{
   struct drawpipe_front *fe = (struct drawpipe_front *)frontend;
   dp_split_destroy(fe->split);
   dp_tasks_destroy(fe->fill_tasks);
   for (unsigned i = 0; i < SHADE_WINDOWS; i++) {
      dp_tasks_destroy(fe->tasks[i]);
      shade_window_destroy(fe->window[i]);
   }
   chunk_parts_destroy(fe);
   fe->vsplit->destroy(fe->vsplit);
   free(fe->vert_mem);
   dp_so_destroy(fe->so);
   FREE(fe);
}

struct draw_pt_front_end *
draw_pt_drawpipe(struct draw_context *draw)
{
   struct drawpipe_front *fe = CALLOC_STRUCT(drawpipe_front);
   if (!fe)
      return NULL;
   fe->base.prepare = drawpipe_prepare;
   fe->base.run = drawpipe_run;
   fe->base.flush = drawpipe_flush;
   fe->base.destroy = drawpipe_destroy;
   fe->draw = draw;
   fe->max_vertices_cap = debug_get_num_option("DRAWPIPE_MESA_MAX_VERTICES", 0);
   fe->convert_apart = debug_get_bool_option("DRAWPIPE_MESA_CONVERT", true);
   fe->stages_apart = debug_get_bool_option("DRAWPIPE_MESA_STAGES", true);
   fe->so_apart = debug_get_bool_option("DRAWPIPE_MESA_SO", true);
   fe->chunks_apart = debug_get_bool_option("DRAWPIPE_MESA_CHUNKS", true);
   fe->chunk_split = debug_get_num_option("DRAWPIPE_MESA_CHUNK_SPLIT", 16);
   fe->chunk_window = debug_get_num_option("DRAWPIPE_MESA_CHUNK_WINDOW", 0);
   fe->so_chunk_threads = debug_get_num_option("DRAWPIPE_MESA_SO_CHUNK_THREADS", 4);
   fe->prefetch_ahead = debug_get_num_option("DRAWPIPE_MESA_PREFETCH", 32);
   fe->small_cull_apart = debug_get_bool_option("DRAWPIPE_MESA_SMALL_CULL", true);
   fe->small_cull_probe = debug_get_num_option("DRAWPIPE_MESA_SMALL_CULL_PROBE", 4);
   fe->split = dp_split_create();
   fe->vsplit = draw_pt_vsplit(draw);
   bool shade_ok = true;
   if (draw_pt_drawpipe_mode() >= DRAWPIPE_MESA_SHADE) {
      fe->fill_tasks = dp_tasks_create();
      fe->threads = dp_thread_count();
      shade_ok = fe->fill_tasks != NULL;
      for (unsigned i = 0; i < SHADE_WINDOWS; i++) {
         fe->window[i] = shade_window_create();
         fe->tasks[i] = dp_tasks_create();
         shade_ok = shade_ok && fe->window[i] && fe->tasks[i];
      }
   }
   if (!fe->split || !fe->vsplit || !shade_ok) {
      dp_tasks_destroy(fe->fill_tasks);
      for (unsigned i = 0; i < SHADE_WINDOWS; i++) {
         dp_tasks_destroy(fe->tasks[i]);
         shade_window_destroy(fe->window[i]);
      }
      if (fe->split)
         dp_split_destroy(fe->split);
      if (fe->vsplit)
         fe->vsplit->destroy(fe->vsplit);
      FREE(fe);
      return NULL;
   }
   static atomic_flag registered = ATOMIC_FLAG_INIT;
   if (debug_get_bool_option("DRAWPIPE_MESA_STATS", false) &&
       !atomic_flag_test_and_set(&registered)) {
      stat_enabled = true;
      atexit(print_stats);
   }
   return &fe->base;
}
