/* drawpipe's pipeline stages over the vertices Mesa's vertex stage shaded (DRAWPIPE_MESA=whole):
 * a segment with a vertex to clip is clipped (and culled) by drawpipe/extend/pipeline_stages.hpp
 * on drawpipe's threads, and its result converted there into the render's vertex layout, so
 * that the draw's own thread only hands it to the vbuf. For the states the adapter maps (see
 * draw_pt_drawpipe.c, whole_stages); the rest stays with Mesa's pipeline. */
#ifndef DRAWPIPE_STAGES_H
#define DRAWPIPE_STAGES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How Mesa lays out a shaded vertex (struct vertex_header): the clip mask in the low
 * `clipmask_bits` bits of the first dword (Mesa's plane bits: x <= w, x >= -w, y <= w,
 * y >= -w, near, far), the clip-space position at byte clip_pos_offset, then `num_outputs`
 * vec4 outputs from byte data_offset, `vertex_size` bytes per vertex. */
struct dp_stages_state {
   unsigned vertex_size, clip_pos_offset, data_offset, clipmask_bits;
   unsigned num_outputs, position_output;
   const bool *flat_output; /* per output: takes the provoking vertex's value */
   bool provoking_first;
   unsigned cull_face; /* PIPE_FACE_*: 0 none, 1 front, 2 back, 3 both */
   bool front_ccw;     /* pipe_rasterizer_state::front_ccw */
   bool clip_z, clip_halfz;
   /* PIPE_POLYGON_MODE_* per face (0 fill, 1 line, 2 point): Mesa's unfilled stage. */
   unsigned fill_front, fill_back;
   unsigned edgeflag_bit; /* the vertex's edge flag: this bit of the first dword */
   /* Two-sided colour (light_twoside): back faces take output twoside_back[i] in place of
    * twoside_front[i] (-1: that colour has no pair), as Mesa's twoside stage. */
   bool light_twoside;
   int twoside_front[2], twoside_back[2];
   /* Polygon offset per polygon mode (fill, line, point), as Mesa's offset stage takes it:
    * depth moves by offset_scale * slope + offset_units * (offset_units_r, or for 0 the float
    * depth buffer's step), capped or floored by offset_clamp (0: none). */
   bool offset_tri, offset_line, offset_point;
   float offset_scale, offset_units, offset_units_r, offset_clamp;
   /* Line stipple, Mesa's way (factor 1-256, not Gallium's factor - 1): taken only where
    * every primitive restarts the pattern (dp_stages_run fails otherwise). */
   bool line_stipple;
   unsigned stipple_factor;
   uint16_t stipple_pattern;
   /* User clip planes (rasterizer clip_plane_enable): plane i clips where Mesa's clip-mask
    * bit 6 + i is set, at distance gl_ClipDistance[i] when the shader writes num_clipdist of
    * them (four to a vec4 output, clipdist_output[0] and [1]), else dot(planes[i], clip-space
    * position) (draw->plane[6 + i]: no gl_ClipVertex). */
   unsigned clip_plane_enable;
   float planes[8][4];
   unsigned num_clipdist;
   unsigned clipdist_output[2];
   int clipvertex_output; /* gl_ClipVertex, measured in place of the position; -1: none */
   /* The slot Mesa's unfilled stage injects the front face into for the fragment shader
    * (draw->extra_shader_outputs, num_outputs: the first after the shader's), which
    * attrib_output may name; -1: none. */
   int face_output;
   float scale[3], translate[3]; /* draw->viewports[0] */
   /* The render's layout: per attribute the output it copies (4 floats), or ~0u for zeros. */
   unsigned num_attribs;
   const unsigned *attrib_output;
};

struct dp_stages;
/* NULL when drawpipe refuses the state (the reason, when `why` is given, into it). */
struct dp_stages *dp_stages_create(const struct dp_stages_state *state, char *why,
                                   unsigned why_size);
void dp_stages_destroy(struct dp_stages *stages);
/* Whether dp_stages_run takes `prim` (PIPE_PRIM_*): false for line stipple on primitives
 * whose pattern runs on from one to the next (PipelineStages::takes). */
bool dp_stages_takes(const struct dp_stages *stages, unsigned prim);

/* One segment's output: vertices in the render's layout, and primitive lists over them. */
struct dp_staged;
struct dp_staged *dp_staged_create(void);
void dp_staged_destroy(struct dp_staged *staged);

/* Clips `count` vertices of `verts` drawn as `prim` (PIPE_PRIM_*, as drawpipe numbers them)
 * by `elts` (NULL: in order), `draw_count` of them, with DRAW_SPLIT_* `flags`, into `out`.
 * Any thread, many at once. False when memory ran out: the caller runs Mesa's pipeline
 * instead. Primitives whose stipple pattern runs on (dp_stages_takes false) take
 * dp_stages_run_in_order. */
bool dp_stages_run(const struct dp_stages *stages, const void *verts, unsigned count,
                   unsigned prim, unsigned flags, const uint16_t *elts, unsigned draw_count,
                   struct dp_staged *out);
/* The same for one draw's segments in draw order, on one thread (the one finishing them): the
 * stipple pattern's place runs on from each segment to the next, for every primitive. The
 * draw's first call starts the pattern (`stages` is made per draw). */
bool dp_stages_run_in_order(struct dp_stages *stages, const void *verts, unsigned count,
                            unsigned prim, unsigned flags, const uint16_t *elts,
                            unsigned draw_count, struct dp_staged *out);

/* The result, in pieces of at most 65535 vertices (a vbuf takes u16 elements; line stipple
 * and wide lines make several vertices per pixel), each handed to the render on its own: piece
 * k's vertex_count vertices of the render's layout and its ranges in draw order, range i drawing
 * count[i] elements from elts + first[i] as prim[i] (PIPE_PRIM_POINTS, LINES or TRIANGLES).
 * Valid until the next run into `staged`. */
unsigned dp_staged_pieces(const struct dp_staged *staged);
unsigned dp_staged_piece(const struct dp_staged *staged, unsigned piece, const float **vertices,
                         unsigned *vertex_count, const uint16_t **elts, const unsigned **first,
                         const unsigned **count, const unsigned **prim);

/* Small-primitive culling (drawpipe/extend/small_cull.hpp) of a segment's triangles: those of
 * `count` elements of `elts` (NULL: in order) drawn as `prim` (PIPE_PRIM_TRIANGLES, _STRIP or
 * _FAN), in the vertex order llvmpipe's setup takes them under the convention, into `out`
 * (room for three elements a triangle), less those whose box holds no pixel centre (records of
 * `stride` floats starting with window x and y). Returns the triangles kept, and in
 * `triangles` how many there were. With probe_min, a segment whose first 32 triangles have
 * fewer than probe_min that miss every centre is not worth testing: all kept. Only for
 * single-sample rasterization with centres at half pixels. */
unsigned dp_cull_small_triangles(const float *records, unsigned stride, unsigned prim,
                                 bool provoking_first, const uint16_t *elts, unsigned count,
                                 unsigned probe_min, uint16_t *out, unsigned *triangles);

#ifdef __cplusplus
}
#endif

#endif
