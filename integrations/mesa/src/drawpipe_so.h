/* drawpipe's stream output (drawpipe/stream_output.hpp) writing into Mesa's stream-output
 * targets (DRAWPIPE_MESA=whole): a segment's primitives are decomposed, checked for room and
 * copied by drawpipe, from the vertices Mesa's vertex stage shaded, from the targets' own fill
 * (draw_so_target::internal_offset) on. Each segment's place is taken in draw order
 * (dp_so_reserve) and its bytes written on any thread (dp_so_write_slot), so that a draw's
 * segments are captured where they are shaded. */
#ifndef DRAWPIPE_SO_H
#define DRAWPIPE_SO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pipe_stream_output_info's output: components [start_component, + num_components) of
 * output register_index, at dword dst_offset of each vertex in output_buffer. */
struct dp_so_output {
   unsigned register_index, start_component, num_components, output_buffer, dst_offset, stream;
};

/* A bound target: bytes [offset, offset + size) of data (the mapping, buffer_offset,
 * buffer_size); data NULL: no target at that binding. */
struct dp_so_target {
   void *data;
   size_t offset, size;
};

/* The capture and Mesa's shaded-vertex layout (struct vertex_header): outputs as vec4s from
 * byte data_offset, vertex_size bytes per vertex; the position output read from the
 * pre-viewport position at byte clip_pos_offset (draw_pt_so_emit's use_pre_clip_pos), when
 * position_output >= 0. */
struct dp_so_state {
   unsigned vertex_size, clip_pos_offset, data_offset, num_registers;
   int position_output;
   unsigned num_outputs;
   const struct dp_so_output *outputs;
   unsigned stride[4]; /* dwords per vertex in each buffer */
   struct dp_so_target targets[4];
   bool provoking_first; /* decomposes as Mesa's so_emit: the rasterizer's flatshade_first */
};

struct dp_so;
struct dp_so *dp_so_create(void);
void dp_so_destroy(struct dp_so *so);
/* Takes a draw's state (kept when it equals the last one). False, with the reason in `why`,
 * when drawpipe refuses the declaration: the caller leaves the draw to Mesa. */
bool dp_so_set(struct dp_so *so, const struct dp_so_state *state, char *why, unsigned why_size);

/* A draw's capture session, begun at each target's fill in bytes (draw_so_target::
 * internal_offset); false when a fill lies past its target's size (the draw is Mesa's). */
bool dp_so_begin(struct dp_so *so, const unsigned internal_offset[4]);
void dp_so_end(struct dp_so *so);

/* A segment's place in the session: where its first primitive goes, each target's fill after
 * it (`end`), and its primitives generated and written. */
struct dp_so_slot {
   size_t position[4], end[4];
   unsigned generated, written;
};
/* Takes the place of `count` elements of `prim` (PIPE_PRIM_*, as drawpipe numbers them) with
 * DRAW_SPLIT_* `flags`, counted as Mesa's so_emit counts them: on one thread, segments in
 * draw order (StreamOutput::reserve). */
void dp_so_reserve(struct dp_so *so, unsigned prim, unsigned flags, unsigned count,
                   struct dp_so_slot *slot);
/* Writes a reserved segment's primitives from `vertex_count` vertices by `elts` (NULL: 0, 1,
 * ...), the `count` elements reserved: any thread, many at once. False when memory ran out
 * (nothing written). */
bool dp_so_write_slot(const struct dp_so *so, const struct dp_so_slot *slot, const void *verts,
                      unsigned vertex_count, unsigned prim, const uint16_t *elts, unsigned count);

/* GL_PRIMITIVES_GENERATED for a segment drawn with nothing to capture into: its primitives as
 * drawn (a quad or a polygon is one; drawpipe::drawn_prim_count). */
unsigned dp_so_prims_drawn(unsigned prim, unsigned count, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
