/* drawpipe's front end as Mesa's draw module calls it: a draw in, segments out, in draw
 * order. The C side (draw_pt_drawpipe.c) sees only this header; drawpipe_split.cpp holds the
 * one reusable drawpipe::DrawSegments behind it. */
#ifndef DRAWPIPE_SPLIT_H
#define DRAWPIPE_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One draw as vsplit would get it. prim is a PIPE_PRIM_* value: Gallium numbers the
 * primitive types as drawpipe::Prim does. */
struct dp_split_draw {
   unsigned prim;
   unsigned index_size;     /* 0 (not indexed), 1, 2 or 4 */
   const void *indices;     /* draw->pt.user.elts */
   unsigned index_count;    /* indices readable from it (draw->pt.user.eltMax) */
   unsigned start, count;   /* index positions, or vertices when not indexed */
   int base_vertex;         /* draw->pt.user.eltBias */
   bool restart;            /* primitive restart, indexed draws only */
   unsigned restart_index;
   unsigned patch_vertices; /* for PIPE_PRIM_PATCHES */
   unsigned max_vertices;   /* what the middle end's prepare() announced */
   /* Cut a draw of fewer than this many of drawpipe's own chunks into this many (at least
    * DP_MIN_CHUNK_POSITIONS indices each), so that drawpipe's threads split a mesh apart;
    * 0: drawpipe's chunks alone. A function of the draw, never of the thread count. */
   unsigned chunk_split;
};

#define DP_MIN_CHUNK_POSITIONS 2040

/* A segment in the middle end's terms: fetch_elts NULL means the vertices fetch_start ..
 * fetch_start + fetch_count - 1 drawn in order (run_linear); otherwise fetch_elts are final
 * vertex ids (base vertex added) and draw_elts index them (run). flags are DRAW_SPLIT_*;
 * line_loop_piece says a piece of a split line loop, drawn as a strip. */
struct dp_segment {
   unsigned flags;
   bool line_loop_piece;
   unsigned fetch_start, fetch_count;
   const unsigned *fetch_elts;
   const uint16_t *draw_elts;
   unsigned draw_count;
};

struct dp_split;

struct dp_split *dp_split_create(void);
void dp_split_destroy(struct dp_split *split);
/* Starts a draw. Returns NULL, or drawpipe's reason for refusing it (valid until the next
 * call): the caller then draws it as Mesa does. */
const char *dp_split_begin(struct dp_split *split, const struct dp_split_draw *draw);
/* The next segment of the draw begun last; false when it is done. */
bool dp_split_next(struct dp_split *split, struct dp_segment *seg);

/* A large draw is cut into chunks that split independently, so that drawpipe's threads split
 * it as they shade it: the chunks of the draw begun last (1: it splits as one piece). With
 * primitive restart this first scans the indices for where runs cross the chunks, on
 * drawpipe's threads. */
unsigned dp_split_chunks(struct dp_split *split);
/* Starts `part` on chunk `chunk` of the draw begun on `draw` (after dp_split_chunks):
 * dp_split_next(part) then hands out that chunk's segments, exactly those dp_split_next(draw)
 * would. Any thread, one part per chunk in flight; `draw` begins no other draw meanwhile.
 * Returns NULL, or why not (valid until part's next call). */
const char *dp_split_begin_chunk(struct dp_split *part, const struct dp_split *draw,
                                 unsigned chunk);

#ifdef __cplusplus
}
#endif

#endif
