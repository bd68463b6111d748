/* drawpipe's C interface (C11): a draw module for software GPU drivers written in C.
 *
 * It mirrors the C++ API of <drawpipe/drawpipe.hpp> (docs/c-interface.md maps one to the
 * other): a context with its threads, vertex buffers and attributes, a batched vertex shader,
 * tessellation control and evaluation shaders and a geometry shader as callbacks, raster state,
 * stream output, draws and flush, a backend as a table of callbacks shaped like Gallium's
 * vbuf_render, middle ends by registered name, and statistics. Handles are opaque. No exception
 * crosses it: every call that can fail returns a drawpipe_status, and drawpipe_last_error() says
 * what went wrong.
 *
 * Buffers are described, not copied: vertex, index and stream-output memory must stay valid
 * until the draws using it are flushed. One thread at a time drives a context (its pipeline
 * uses the others); callbacks run on the context's threads as described at each typedef. */
#ifndef DRAWPIPE_DRAWPIPE_H
#define DRAWPIPE_DRAWPIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ---- */

typedef enum drawpipe_status {
    DRAWPIPE_OK = 0,
    DRAWPIPE_ERROR_INVALID_VALUE,        /* a field outside its domain (the text names it) */
    DRAWPIPE_ERROR_INDEX_BUFFER_OVERRUN, /* start + count reaches past the index buffer */
    DRAWPIPE_ERROR_COUNT_OVERFLOW,       /* start + count overflows 32 bits */
    DRAWPIPE_ERROR_BASE_VERTEX_OVERFLOW, /* index + base vertex leaves [0, 2^32) */
    DRAWPIPE_ERROR_LIMIT_TOO_SMALL,      /* the middle end's limit is below the primitive's */
    DRAWPIPE_ERROR_INDEX_RANGE_MISMATCH, /* a given index range does not bound the indices */
    DRAWPIPE_ERROR_MIDDLE_END_FAILURE,   /* a middle end broke its contract */
    DRAWPIPE_ERROR_UNSUPPORTED,          /* legal, but not handled by this component */
    DRAWPIPE_ERROR_PARSE,                /* malformed text */
    DRAWPIPE_ERROR_NOT_FOUND,            /* unknown middle end or strategy */
    DRAWPIPE_ERROR_INVALID_OPERATION,    /* not allowed in the current state, as in GL */
    DRAWPIPE_ERROR_IO,                   /* a file could not be written */
    DRAWPIPE_ERROR_OUT_OF_MEMORY,        /* an allocation failed */
    DRAWPIPE_ERROR_INTERNAL              /* anything else; a bug in drawpipe */
} drawpipe_status;

/* Text of this thread's last failed call ("" if none); valid until its next failure. */
const char* drawpipe_last_error(void);
/* The enumerator's name without its prefix ("invalid_value"). */
const char* drawpipe_status_name(drawpipe_status status);

/* ---- Draws and vertex input (<drawpipe/types.hpp>) ---- */

/* clang-format off */
typedef enum drawpipe_prim {
    DRAWPIPE_PRIM_POINTS, DRAWPIPE_PRIM_LINES, DRAWPIPE_PRIM_LINE_LOOP, DRAWPIPE_PRIM_LINE_STRIP,
    DRAWPIPE_PRIM_TRIANGLES, DRAWPIPE_PRIM_TRIANGLE_STRIP, DRAWPIPE_PRIM_TRIANGLE_FAN,
    DRAWPIPE_PRIM_QUADS, DRAWPIPE_PRIM_QUAD_STRIP, DRAWPIPE_PRIM_POLYGON,
    DRAWPIPE_PRIM_LINES_ADJACENCY, DRAWPIPE_PRIM_LINE_STRIP_ADJACENCY,
    DRAWPIPE_PRIM_TRIANGLES_ADJACENCY, DRAWPIPE_PRIM_TRIANGLE_STRIP_ADJACENCY,
    DRAWPIPE_PRIM_PATCHES /* GL_PATCHES: drawn only with a tessellation evaluation shader */
} drawpipe_prim;
/* clang-format on */

/* clang-format off */
typedef enum drawpipe_index_type {
    DRAWPIPE_INDEX_NONE, DRAWPIPE_INDEX_U8, DRAWPIPE_INDEX_U16, DRAWPIPE_INDEX_U32
} drawpipe_index_type;
/* clang-format on */

/* Which vertex of a flat-shaded primitive provides its attributes (GL's default: last). */
/* clang-format off */
typedef enum drawpipe_provoking {
    DRAWPIPE_PROVOKING_FIRST, DRAWPIPE_PROVOKING_LAST
} drawpipe_provoking;
/* clang-format on */

/* Every GL vertex format, in C++'s drawpipe::Format order (docs/vertex-formats.md). */
/* clang-format off */
typedef enum drawpipe_format {
    DRAWPIPE_FORMAT_FLOAT32X1, DRAWPIPE_FORMAT_FLOAT32X2, DRAWPIPE_FORMAT_FLOAT32X3,
    DRAWPIPE_FORMAT_FLOAT32X4, DRAWPIPE_FORMAT_UINT32X1, DRAWPIPE_FORMAT_UINT32X2,
    DRAWPIPE_FORMAT_UINT32X3, DRAWPIPE_FORMAT_UINT32X4, DRAWPIPE_FORMAT_SINT32X1,
    DRAWPIPE_FORMAT_SINT32X2, DRAWPIPE_FORMAT_SINT32X3, DRAWPIPE_FORMAT_SINT32X4,
    DRAWPIPE_FORMAT_FLOAT16X1, DRAWPIPE_FORMAT_FLOAT16X2, DRAWPIPE_FORMAT_FLOAT16X3,
    DRAWPIPE_FORMAT_FLOAT16X4, DRAWPIPE_FORMAT_FLOAT64X1, DRAWPIPE_FORMAT_FLOAT64X2,
    DRAWPIPE_FORMAT_FLOAT64X3, DRAWPIPE_FORMAT_FLOAT64X4, DRAWPIPE_FORMAT_FIXED32X1,
    DRAWPIPE_FORMAT_FIXED32X2, DRAWPIPE_FORMAT_FIXED32X3, DRAWPIPE_FORMAT_FIXED32X4,
    DRAWPIPE_FORMAT_UNORM8X1, DRAWPIPE_FORMAT_UNORM8X2, DRAWPIPE_FORMAT_UNORM8X3,
    DRAWPIPE_FORMAT_UNORM8X4, DRAWPIPE_FORMAT_UNORM16X1, DRAWPIPE_FORMAT_UNORM16X2,
    DRAWPIPE_FORMAT_UNORM16X3, DRAWPIPE_FORMAT_UNORM16X4, DRAWPIPE_FORMAT_UNORM32X1,
    DRAWPIPE_FORMAT_UNORM32X2, DRAWPIPE_FORMAT_UNORM32X3, DRAWPIPE_FORMAT_UNORM32X4,
    DRAWPIPE_FORMAT_SNORM8X1, DRAWPIPE_FORMAT_SNORM8X2, DRAWPIPE_FORMAT_SNORM8X3,
    DRAWPIPE_FORMAT_SNORM8X4, DRAWPIPE_FORMAT_SNORM16X1, DRAWPIPE_FORMAT_SNORM16X2,
    DRAWPIPE_FORMAT_SNORM16X3, DRAWPIPE_FORMAT_SNORM16X4, DRAWPIPE_FORMAT_SNORM32X1,
    DRAWPIPE_FORMAT_SNORM32X2, DRAWPIPE_FORMAT_SNORM32X3, DRAWPIPE_FORMAT_SNORM32X4,
    DRAWPIPE_FORMAT_USCALED8X1, DRAWPIPE_FORMAT_USCALED8X2, DRAWPIPE_FORMAT_USCALED8X3,
    DRAWPIPE_FORMAT_USCALED8X4, DRAWPIPE_FORMAT_USCALED16X1, DRAWPIPE_FORMAT_USCALED16X2,
    DRAWPIPE_FORMAT_USCALED16X3, DRAWPIPE_FORMAT_USCALED16X4, DRAWPIPE_FORMAT_USCALED32X1,
    DRAWPIPE_FORMAT_USCALED32X2, DRAWPIPE_FORMAT_USCALED32X3, DRAWPIPE_FORMAT_USCALED32X4,
    DRAWPIPE_FORMAT_SSCALED8X1, DRAWPIPE_FORMAT_SSCALED8X2, DRAWPIPE_FORMAT_SSCALED8X3,
    DRAWPIPE_FORMAT_SSCALED8X4, DRAWPIPE_FORMAT_SSCALED16X1, DRAWPIPE_FORMAT_SSCALED16X2,
    DRAWPIPE_FORMAT_SSCALED16X3, DRAWPIPE_FORMAT_SSCALED16X4, DRAWPIPE_FORMAT_SSCALED32X1,
    DRAWPIPE_FORMAT_SSCALED32X2, DRAWPIPE_FORMAT_SSCALED32X3, DRAWPIPE_FORMAT_SSCALED32X4,
    DRAWPIPE_FORMAT_UINT8X1, DRAWPIPE_FORMAT_UINT8X2, DRAWPIPE_FORMAT_UINT8X3,
    DRAWPIPE_FORMAT_UINT8X4, DRAWPIPE_FORMAT_UINT16X1, DRAWPIPE_FORMAT_UINT16X2,
    DRAWPIPE_FORMAT_UINT16X3, DRAWPIPE_FORMAT_UINT16X4, DRAWPIPE_FORMAT_SINT8X1,
    DRAWPIPE_FORMAT_SINT8X2, DRAWPIPE_FORMAT_SINT8X3, DRAWPIPE_FORMAT_SINT8X4,
    DRAWPIPE_FORMAT_SINT16X1, DRAWPIPE_FORMAT_SINT16X2, DRAWPIPE_FORMAT_SINT16X3,
    DRAWPIPE_FORMAT_SINT16X4, DRAWPIPE_FORMAT_UNORM10_10_10_2, DRAWPIPE_FORMAT_SNORM10_10_10_2,
    DRAWPIPE_FORMAT_USCALED10_10_10_2, DRAWPIPE_FORMAT_SSCALED10_10_10_2,
    DRAWPIPE_FORMAT_UFLOAT11_11_10, DRAWPIPE_FORMAT_BGRA_UNORM8X4,
    DRAWPIPE_FORMAT_BGRA_UNORM10_10_10_2, DRAWPIPE_FORMAT_BGRA_SNORM10_10_10_2,
} drawpipe_format;
/* clang-format on */

/* How a 32-bit component reads: float bits or integer bits. */
/* clang-format off */
typedef enum drawpipe_value_type {
    DRAWPIPE_VALUE_FLOAT32, DRAWPIPE_VALUE_SINT32, DRAWPIPE_VALUE_UINT32
} drawpipe_value_type;
/* clang-format on */

typedef struct drawpipe_vertex_buffer {
    const void* data;
    size_t size;     /* bytes readable from data */
    uint32_t stride; /* bytes between elements; 0 is legal */
    uint32_t offset; /* bytes from data to element 0 */
} drawpipe_vertex_buffer;

typedef struct drawpipe_vertex_attrib {
    uint32_t buffer; /* index into the bound vertex buffers */
    uint32_t offset; /* bytes added to the buffer's offset */
    drawpipe_format format;
    uint32_t divisor; /* 0: per vertex; d: one element per d instances */
    /* A disabled array (glDisableVertexAttribArray): every vertex reads `current`, as
     * `current_type`; the fields above are ignored. Zero-initialised: an enabled array. */
    bool disabled;
    drawpipe_value_type current_type;
    uint32_t current[4];
} drawpipe_vertex_attrib;

typedef struct drawpipe_draw_info {
    drawpipe_prim prim;
    drawpipe_index_type index_type;
    const void* indices;         /* when index_type != DRAWPIPE_INDEX_NONE */
    uint32_t index_buffer_count; /* indices readable from `indices` */
    uint32_t start;              /* first index (first vertex when not indexed) */
    uint32_t count;
    int32_t base_vertex;
    bool primitive_restart;
    uint32_t restart_index;
    uint32_t instance_count; /* 0 draws nothing, as GL does: drawpipe_draw_info_init sets 1 */
    uint32_t base_instance;
    drawpipe_provoking provoking;
    bool has_index_range; /* index_min..index_max (raw, inclusive) bound the indices */
    uint32_t index_min, index_max;
    uint32_t draw_id;        /* gl_DrawID (a multi-draw sets each sub-draw's) */
    uint32_t patch_vertices; /* DRAWPIPE_PRIM_PATCHES: control points per patch, 1-32 */
} drawpipe_draw_info;

/* Fills `info` with C++'s defaults: triangles, not indexed, one instance, provoking last,
 * 3 vertices per patch (GL's GL_PATCH_VERTICES). */
void drawpipe_draw_info_init(drawpipe_draw_info* info);

/* ---- Shaders (<drawpipe/shader.hpp>, <drawpipe/gs.hpp>) ---- */

#define DRAWPIPE_MAX_VARYINGS 32
#define DRAWPIPE_MAX_CLIP_DISTANCES 8
#define DRAWPIPE_SHADER_LANES 32        /* most vertices per vertex-shader call */
#define DRAWPIPE_VERTEX_HEADER_DWORDS 8 /* before the varyings: 4 system values, the position */
#define DRAWPIPE_SLOT_VERTEX_ID 0
#define DRAWPIPE_SLOT_INSTANCE_ID 1
#define DRAWPIPE_SLOT_GS_ID 2   /* a geometry shader's output record: its integer id */
#define DRAWPIPE_SLOT_DRAW_ID 2 /* a vertex-stage record: its draw's draw_id (gl_DrawID) */
#define DRAWPIPE_SLOT_POSITION 4

/* clang-format off */
typedef enum drawpipe_interp {
    DRAWPIPE_INTERP_SMOOTH, DRAWPIPE_INTERP_FLAT, DRAWPIPE_INTERP_NOPERSPECTIVE
} drawpipe_interp;
/* clang-format on */

typedef struct drawpipe_varying {
    drawpipe_value_type type;
    drawpipe_interp interp;
    uint32_t components; /* 1-4 meaningful (0 reads as 4); four dwords are always stored */
} drawpipe_varying;

/* What a shader stage writes besides the position. */
typedef struct drawpipe_shader_outputs {
    uint32_t varying_count;
    drawpipe_varying varyings[DRAWPIPE_MAX_VARYINGS];
    bool point_size;
    uint32_t clip_distances;
    bool layer;
    bool viewport_index;
} drawpipe_shader_outputs;

/* One block of vertices as arrays of lanes: in[4 * attrib + component][lane], out[dword after
 * the header][lane], preset to position (0, 0, 0, 1), varyings (0, 0, 0, 1), others 0. */
typedef struct drawpipe_shader_block {
    uint32_t count;     /* lanes in use, 1 .. DRAWPIPE_SHADER_LANES */
    uint32_t in_count;  /* rows of in */
    uint32_t out_count; /* rows of out */
    const uint32_t* vertex_id;
    const uint32_t* instance_id;
    const float* const* in;
    float* const* out;
    uint32_t draw_id; /* gl_DrawID, the same for every lane */
} drawpipe_shader_block;

/* A vertex shader over one block; called from several threads at once. */
typedef void (*drawpipe_vs_fn)(void* user, const drawpipe_shader_block* block);

/* One output vertex of a geometry shader (C++ GsOutput). */
typedef struct drawpipe_gs_output {
    uint32_t id, layer, viewport;
    float position[4];
    float point_size;
    float clip_distance[DRAWPIPE_MAX_CLIP_DISTANCES];
    uint32_t varyings[DRAWPIPE_MAX_VARYINGS][4]; /* dwords: float or integer bits */
} drawpipe_gs_output;

/* One input primitive and invocation of a geometry shader; valid during the callback only. */
typedef struct drawpipe_gs_context drawpipe_gs_context;

/* A geometry shader over one input primitive and invocation; called from several threads. */
typedef void (*drawpipe_gs_fn)(void* user, drawpipe_gs_context* gs);

typedef struct drawpipe_geometry_shader {
    const char* name;      /* for messages; may be NULL */
    drawpipe_prim input;   /* points, lines, lines_adjacency, triangles(_adjacency) */
    drawpipe_prim output;  /* points, line_strip, triangle_strip */
    uint32_t max_vertices; /* per invocation, all streams together */
    uint32_t invocations;  /* at least 1 */
    uint32_t streams;      /* at least 1; only stream 0 reaches the backend */
    drawpipe_shader_outputs outputs;
    uint32_t input_varyings;   /* varyings of the vertex stage it reads */
    bool independent_vertices; /* each vertex depends only on its own index */
    bool uses_end_primitive;   /* it calls drawpipe_gs_end_primitive (true is always safe) */
    drawpipe_gs_fn main;
    void* user;
} drawpipe_geometry_shader;

/* Input vertices of the primitive: 1, 2, 3, 4 or 6. */
uint32_t drawpipe_gs_vertex_count(const drawpipe_gs_context* gs);
/* Dword `slot` of input vertex `vertex`'s record (DRAWPIPE_SLOT_*, varying i at 8 + 4i). */
uint32_t drawpipe_gs_load(drawpipe_gs_context* gs, uint32_t vertex, uint32_t slot);
/* gl_PrimitiveIDIn: from 0 per instance. */
uint32_t drawpipe_gs_primitive_id(const drawpipe_gs_context* gs);
/* gl_InvocationID. */
uint32_t drawpipe_gs_invocation_id(const drawpipe_gs_context* gs);
/* EmitStreamVertex: appends a vertex to the current strip of `stream`. */
void drawpipe_gs_emit(drawpipe_gs_context* gs, uint32_t stream, const drawpipe_gs_output* out);
/* EndStreamPrimitive: closes the current strip of `stream`. */
void drawpipe_gs_end_primitive(drawpipe_gs_context* gs, uint32_t stream);

/* ---- Tessellation (<drawpipe/tess.hpp>, <drawpipe/tessellator.hpp>) ---- */

#define DRAWPIPE_MAX_PATCH_VERTICES 32 /* GL_MAX_PATCH_VERTICES */
#define DRAWPIPE_MAX_PATCH_OUTPUTS 30  /* per-patch vec4 outputs of a control shader */
#define DRAWPIPE_TESS_CONTROL_BLOCK 32 /* most patches per control-shader call */
/* An evaluation-stage record's header: the patch's gl_PrimitiveID, the instance, then
 * gl_TessCoord's u and v as float bits (w is 1 - u - v for triangles, else 0). */
#define DRAWPIPE_SLOT_TESS_PATCH 0
#define DRAWPIPE_SLOT_TESS_INSTANCE 1
#define DRAWPIPE_SLOT_TESS_U 2
#define DRAWPIPE_SLOT_TESS_V 3

/* clang-format off */
typedef enum drawpipe_tess_mode {
    DRAWPIPE_TESS_TRIANGLES, DRAWPIPE_TESS_QUADS, DRAWPIPE_TESS_ISOLINES
} drawpipe_tess_mode;
typedef enum drawpipe_tess_spacing {
    DRAWPIPE_TESS_EQUAL, DRAWPIPE_TESS_FRACTIONAL_EVEN, DRAWPIPE_TESS_FRACTIONAL_ODD
} drawpipe_tess_spacing;
typedef enum drawpipe_tess_winding { DRAWPIPE_TESS_CCW, DRAWPIPE_TESS_CW } drawpipe_tess_winding;
/* clang-format on */

/* gl_TessLevelOuter / gl_TessLevelInner, before any clamping or rounding. */
typedef struct drawpipe_tess_levels {
    float outer[4];
    float inner[2];
} drawpipe_tess_levels;

/* A block of patches of one instance for the control stage. Records are vertex records: the
 * inputs in the vertex stage's layout, the outputs in the control shader's (header filled,
 * outputs preset as a vertex shader's are). */
typedef struct drawpipe_tess_control_block {
    uint32_t count;               /* patches, 1 .. DRAWPIPE_TESS_CONTROL_BLOCK */
    uint32_t in_vertices;         /* control points per input patch (gl_PatchVerticesIn) */
    uint32_t in_stride;           /* dwords per input record */
    const uint32_t* const* in;    /* in[p * in_vertices + v]: input vertex v of patch p */
    const uint32_t* primitive_id; /* gl_PrimitiveID of each patch */
    uint32_t instance;
    uint32_t out_vertices;        /* control points per output patch (layout(vertices)) */
    uint32_t out_stride;          /* dwords per output record */
    uint32_t* out;                /* record p * out_vertices + i: control point i of patch p */
    uint32_t patch_outputs;       /* vec4 per-patch outputs per patch */
    uint32_t* patch_out;          /* 4 * patch_outputs dwords per patch, preset to 0 */
    drawpipe_tess_levels* levels; /* per patch, preset to the patch default levels */
} drawpipe_tess_control_block;

/* A control shader over one block of patches; called from several threads at once. */
typedef void (*drawpipe_tcs_fn)(void* user, const drawpipe_tess_control_block* block);

typedef struct drawpipe_tess_control_shader {
    uint32_t vertices;               /* output control points per patch, 1-32 */
    drawpipe_shader_outputs outputs; /* per output control point, besides the position */
    uint32_t patch_outputs;          /* per-patch vec4 outputs, 0-30 */
    drawpipe_tcs_fn run;
    void* user;
} drawpipe_tess_control_shader;

/* A block of domain points of one patch for the evaluation stage, as lanes; `out` as in
 * drawpipe_shader_block (out[dword after the header][lane], preset). */
typedef struct drawpipe_tess_eval_block {
    uint32_t count; /* lanes in use, 1 .. DRAWPIPE_SHADER_LANES */
    const float* u; /* gl_TessCoord per lane */
    const float* v;
    const float* w;
    uint32_t primitive_id; /* the patch within the draw, per instance */
    uint32_t instance;
    uint32_t patch_vertices;               /* control points of the patch */
    uint32_t cp_stride;                    /* dwords per control-point record */
    const uint32_t* const* control_points; /* the control shader's records, else the
                                              vertex stage's of the patch's vertices */
    const uint32_t* patch_in;              /* per-patch outputs, 4 dwords each; NULL
                                              without a control shader */
    drawpipe_tess_levels levels;           /* as the control stage wrote them */
    uint32_t out_count;                    /* rows of out */
    float* const* out;
} drawpipe_tess_eval_block;

/* An evaluation shader over one block; called from several threads at once. */
typedef void (*drawpipe_tes_fn)(void* user, const drawpipe_tess_eval_block* block);

typedef struct drawpipe_tess_eval_shader {
    drawpipe_tess_mode mode; /* its layout qualifiers: the tessellator's state */
    drawpipe_tess_spacing spacing;
    drawpipe_tess_winding winding;
    bool point_mode;
    drawpipe_shader_outputs outputs;
    drawpipe_tes_fn run;
    void* user;
} drawpipe_tess_eval_shader;

/* ---- Raster state (<drawpipe/raster_state.hpp>) ---- */

/* clang-format off */
typedef enum drawpipe_polygon_mode {
    DRAWPIPE_POLYGON_FILL, DRAWPIPE_POLYGON_LINE, DRAWPIPE_POLYGON_POINT
} drawpipe_polygon_mode;
/* clang-format on */
/* clang-format off */
typedef enum drawpipe_cull_face {
    DRAWPIPE_CULL_NONE, DRAWPIPE_CULL_FRONT, DRAWPIPE_CULL_BACK, DRAWPIPE_CULL_FRONT_AND_BACK
} drawpipe_cull_face;
/* clang-format on */
/* clang-format off */
typedef enum drawpipe_front_face { DRAWPIPE_FRONT_CCW, DRAWPIPE_FRONT_CW } drawpipe_front_face;
/* clang-format on */

#define DRAWPIPE_MAX_VIEWPORTS 16
#define DRAWPIPE_MAX_TWO_SIDE_COLORS 2 /* primary and secondary colour */

/* One of ARB_viewport_array's viewports: glViewportIndexed and glDepthRangeIndexed. */
typedef struct drawpipe_viewport {
    float x, y, width, height;
    float depth_near, depth_far;
} drawpipe_viewport;

/* glClipControl (Vulkan's conventions: upper_left, zero_to_one). */
/* clang-format off */
typedef enum drawpipe_clip_origin {
    DRAWPIPE_CLIP_LOWER_LEFT, DRAWPIPE_CLIP_UPPER_LEFT
} drawpipe_clip_origin;
typedef enum drawpipe_clip_depth {
    DRAWPIPE_CLIP_NEGATIVE_ONE_TO_ONE, DRAWPIPE_CLIP_ZERO_TO_ONE
} drawpipe_clip_depth;
/* clang-format on */

/* A front colour output and the back one replacing it on back faces; -1: unused. */
typedef struct drawpipe_color_pair {
    int32_t front, back;
} drawpipe_color_pair;

/* GL's viewport, clipping, culling, polygon modes, stipple, widths and offset. */
typedef struct drawpipe_raster_state {
    float viewport_x, viewport_y, viewport_width, viewport_height; /* glViewport */
    float depth_near, depth_far;                                   /* glDepthRange */
    drawpipe_front_face front_face;
    drawpipe_cull_face cull;
    drawpipe_polygon_mode front_mode, back_mode;
    bool flatshade; /* glShadeModel(GL_FLAT) */
    bool line_stipple;
    uint32_t stipple_factor; /* 1-256 */
    uint16_t stipple_pattern;
    float line_width;
    float wide_line_threshold; /* lines up to this width reach the backend whole */
    float point_size;
    int32_t sprite_coord_varying; /* -1: no point sprites */
    bool sprite_origin_lower_left;
    float offset_factor, offset_units;
    bool offset_fill, offset_line, offset_point;
    uint32_t clip_plane_enable; /* bit i: clip distance / user plane i */
    float clip_planes[DRAWPIPE_MAX_CLIP_DISTANCES][4];
    int32_t edge_flag_varying; /* -1: every edge is a boundary edge */
    /* Viewports 1 .. viewport_count - 1 (0 reads as 1); a primitive takes the one its
     * provoking vertex's viewport index names, viewport 0 past the count. */
    uint32_t viewport_count;
    drawpipe_viewport extra_viewports[DRAWPIPE_MAX_VIEWPORTS - 1];
    drawpipe_clip_origin clip_origin; /* upper_left flips y, keeping each triangle's facing */
    drawpipe_clip_depth clip_depth;   /* zero_to_one clips at 0 <= z <= w */
    bool depth_clamp;                 /* GL_DEPTH_CLAMP: no near or far clipping */
    /* GL_VERTEX_PROGRAM_TWO_SIDE: back-facing triangles take each pair's back output. */
    bool two_side;
    drawpipe_color_pair two_side_colors[DRAWPIPE_MAX_TWO_SIDE_COLORS];
    /* The depth buffer's step offset_units count in: 0 for a floating-point buffer (from each
     * triangle's largest depth), else a fixed-point buffer's constant. */
    float offset_units_r;
    float offset_clamp; /* glPolygonOffsetClamp: > 0 caps the offset, < 0 floors it, 0 none */
    /* gl_ClipVertex: the output (four floats) user planes measure in place of the position,
     * where no clip distance is written; -1: the position. */
    int32_t clip_vertex_varying;
    /* The output (four floats) polygon mode line and point write each triangle's facing into
     * (1.0 front, 0.0 back) on the lines and points they make; -1: none. */
    int32_t front_face_varying;
} drawpipe_raster_state;

/* Fills `state` with C++'s defaults (depth 0..1, widths and sizes 1, stipple 1/0xFFFF, one
 * viewport, -1s). */
void drawpipe_raster_state_init(drawpipe_raster_state* state);

/* ---- Stream output (<drawpipe/stream_output.hpp>) ---- */

/* clang-format off */
typedef enum drawpipe_capture_source {
    DRAWPIPE_CAPTURE_POSITION, DRAWPIPE_CAPTURE_VARYING, DRAWPIPE_CAPTURE_POINT_SIZE,
    DRAWPIPE_CAPTURE_CLIP_DISTANCE, DRAWPIPE_CAPTURE_LAYER, DRAWPIPE_CAPTURE_VIEWPORT_INDEX,
    DRAWPIPE_CAPTURE_VERTEX_ID, DRAWPIPE_CAPTURE_INSTANCE_ID, DRAWPIPE_CAPTURE_GS_ID,
    DRAWPIPE_CAPTURE_DRAW_ID,
    DRAWPIPE_CAPTURE_TESS_COORD /* 2: gl_TessCoord's u and v, evaluation stage only */
} drawpipe_capture_source;
/* clang-format on */

/* clang-format off */
typedef enum drawpipe_capture_mode {
    DRAWPIPE_CAPTURE_INTERLEAVED, DRAWPIPE_CAPTURE_SEPARATE
} drawpipe_capture_mode;
/* clang-format on */

/* Components [first_component, + components) of the source, at dword `offset` in `buffer`. */
typedef struct drawpipe_captured_output {
    drawpipe_capture_source source;
    uint32_t index; /* the varying, for DRAWPIPE_CAPTURE_VARYING */
    uint32_t first_component, components, buffer, offset, stream;
} drawpipe_captured_output;

typedef struct drawpipe_stream_output_buffer {
    void* data;
    size_t offset; /* where a session starts writing */
    size_t size;   /* bytes that may be written from offset */
    uint32_t stride;
} drawpipe_stream_output_buffer;

typedef struct drawpipe_stream_output_state {
    drawpipe_capture_mode mode;
    uint32_t output_count;
    const drawpipe_captured_output* outputs; /* copied by drawpipe_set_stream_output */
    drawpipe_stream_output_buffer buffers[4];
} drawpipe_stream_output_state;

/* GL's primitives generated and written, per vertex stream. */
typedef struct drawpipe_stream_output_counts {
    uint64_t generated[4];
    uint64_t written[4];
} drawpipe_stream_output_counts;

/* ---- Backend: Gallium's vbuf_render shape (<drawpipe/backend.hpp>) ---- */

typedef struct drawpipe_vertex_view {
    const uint32_t* data; /* vertex i is data + i * stride */
    uint32_t count;
    uint32_t stride; /* dwords */
} drawpipe_vertex_view;

/* Where each output lives in a vertex record of `stride` dwords. */
typedef struct drawpipe_vertex_layout {
    drawpipe_shader_outputs outputs;
    bool gs_output;   /* the vertices come from a geometry shader */
    bool tess_output; /* from the evaluation stage: DRAWPIPE_SLOT_TESS_* in the header */
    uint32_t stride;
    uint32_t point_size_slot, clip_distance_slot, layer_slot, viewport_slot;
} drawpipe_vertex_layout;

/* Called from one thread at a time, in draw order; the pointers are valid during the call. */
typedef struct drawpipe_backend {
    void* user;
    /* A draw starts: its primitive and provoking vertex, and the records' layout. */
    void (*begin_draw)(void* user, const drawpipe_draw_info* draw,
                       const drawpipe_vertex_layout* layout);
    /* `count` elements of `prim` into `vertices`; flags are the segment's split flags. */
    void (*draw_elements)(void* user, drawpipe_prim prim, uint8_t flags,
                          const drawpipe_vertex_view* vertices, const uint32_t* elts,
                          uint32_t count);
    /* The draw ends; may be NULL. */
    void (*end_draw)(void* user);
} drawpipe_backend;

/* ---- Statistics (<drawpipe/stats.hpp>) ---- */

/* ARB_pipeline_statistics_query's counts the draw module owns (PipelineStatistics). */
typedef struct drawpipe_pipeline_statistics {
    uint64_t ia_vertices;      /* GL_VERTICES_SUBMITTED */
    uint64_t ia_primitives;    /* GL_PRIMITIVES_SUBMITTED */
    uint64_t vs_invocations;   /* GL_VERTEX_SHADER_INVOCATIONS */
    uint64_t gs_invocations;   /* GL_GEOMETRY_SHADER_INVOCATIONS */
    uint64_t gs_primitives;    /* GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED */
    uint64_t clip_invocations; /* GL_CLIPPING_INPUT_PRIMITIVES */
    uint64_t clip_primitives;  /* GL_CLIPPING_OUTPUT_PRIMITIVES */
} drawpipe_pipeline_statistics;

typedef struct drawpipe_draw_stats {
    uint64_t segments;
    uint64_t indices;     /* draw elements handed on */
    uint64_t fetched;     /* vertices the middle end fetched and shaded */
    uint64_t counters[8]; /* the middle end's own, named by drawpipe_counter_name */
    drawpipe_stream_output_counts primitives;
    uint64_t shaded; /* fetched times each segment's instances: vertex shader runs */
    drawpipe_pipeline_statistics statistics;
} drawpipe_draw_stats;

/* ---- The context (<drawpipe/context.hpp>) ---- */

typedef struct drawpipe_context drawpipe_context;

typedef struct drawpipe_context_options {
    uint32_t threads;      /* 0: $DRAWPIPE_THREADS, else every hardware thread */
    const char* strategy;  /* splitting strategy ("distinct", "vsplit", ...); NULL: distinct */
    uint32_t max_vertices; /* nonzero: replaces the middle end's segment limit */
    /* Robust index access (robustBufferAccess2, a GL robust context): an index position past
     * the index buffer reads as index 0, as llvmpipe draws it. false: such a draw is
     * DRAWPIPE_ERROR_INDEX_BUFFER_OVERRUN. */
    bool robust_indices;
} drawpipe_context_options;

/* Makes a context bound to "fetch_shade" (options may be NULL); registers the built-in ones. */
drawpipe_status drawpipe_context_create(const drawpipe_context_options* options,
                                        drawpipe_context** out);
/* Delivers the queued draws, then frees the context (even when delivering fails). A handle
 * destroyed already, or never made, is DRAWPIPE_ERROR_INVALID_VALUE and frees nothing; from
 * inside one of the context's own callbacks, DRAWPIPE_ERROR_INVALID_OPERATION. */
drawpipe_status drawpipe_context_destroy(drawpipe_context* ctx);
/* Threads the context's pipeline uses, the calling thread included. */
drawpipe_status drawpipe_context_threads(const drawpipe_context* ctx, uint32_t* threads);

/* Describes the vertex buffers (the memory stays the driver's). */
drawpipe_status drawpipe_set_vertex_buffers(drawpipe_context* ctx,
                                            const drawpipe_vertex_buffer* buffers, uint32_t count);
/* Describes the vertex attributes. */
drawpipe_status drawpipe_set_vertex_attribs(drawpipe_context* ctx,
                                            const drawpipe_vertex_attrib* attribs, uint32_t count);
/* Binds a vertex shader (outputs copied); run NULL: attributes pass through. */
drawpipe_status drawpipe_bind_vertex_shader(drawpipe_context* ctx,
                                            const drawpipe_shader_outputs* outputs,
                                            drawpipe_vs_fn run, void* user);
/* Binds a geometry shader (copied, name included); NULL: none. */
drawpipe_status drawpipe_bind_geometry_shader(drawpipe_context* ctx,
                                              const drawpipe_geometry_shader* gs);
/* Binds a tessellation control shader (copied); NULL: none, the default levels apply. */
drawpipe_status drawpipe_bind_tess_control_shader(drawpipe_context* ctx,
                                                  const drawpipe_tess_control_shader* tcs);
/* Binds a tessellation evaluation shader (copied); NULL: none. With one bound, draws must be
 * of DRAWPIPE_PRIM_PATCHES, and patches draw only with one. */
drawpipe_status drawpipe_bind_tess_eval_shader(drawpipe_context* ctx,
                                               const drawpipe_tess_eval_shader* tes);
/* GL_PATCH_DEFAULT_OUTER_LEVEL / INNER_LEVEL (all 1 initially): the levels of patches
 * without a control shader. */
drawpipe_status drawpipe_set_patch_default_levels(drawpipe_context* ctx,
                                                  const drawpipe_tess_levels* levels);
/* Binds a registered middle end by name ("fetch_shade", "gen7", "a4xx", "mali", ...). */
drawpipe_status drawpipe_bind_middle_end(drawpipe_context* ctx, const char* name);
/* Name of the bound middle end's statistics counter `index` (NULL past the last). */
const char* drawpipe_counter_name(const drawpipe_context* ctx, uint32_t index);
/* Binds the backend (the table is copied; `user` must outlive the draws). */
drawpipe_status drawpipe_bind_backend(drawpipe_context* ctx, const drawpipe_backend* backend);
/* Binds the raster state (copied); NULL: clip-space positions reach the backend, no stage runs. */
drawpipe_status drawpipe_set_raster_state(drawpipe_context* ctx,
                                          const drawpipe_raster_state* state);

/* Binds stream output (validated and copied; buffers stay the driver's); NULL: none. */
drawpipe_status drawpipe_set_stream_output(drawpipe_context* ctx,
                                           const drawpipe_stream_output_state* state);
/* glBeginTransformFeedback: captures from the bound offsets. */
drawpipe_status drawpipe_begin_stream_output(drawpipe_context* ctx);
/* glPauseTransformFeedback. */
drawpipe_status drawpipe_pause_stream_output(drawpipe_context* ctx);
/* glResumeTransformFeedback. */
drawpipe_status drawpipe_resume_stream_output(drawpipe_context* ctx);
/* Delivers the queued draws; the session's counts so far into `counts`. */
drawpipe_status drawpipe_get_stream_output_counts(drawpipe_context* ctx,
                                                  drawpipe_stream_output_counts* counts);
/* glEndTransformFeedback; the session's counts into `counts` (may be NULL). */
drawpipe_status drawpipe_end_stream_output(drawpipe_context* ctx,
                                           drawpipe_stream_output_counts* counts);
/* Delivers the queued draws; bytes the session wrote into `buffer` so far. */
drawpipe_status drawpipe_stream_output_written_bytes(drawpipe_context* ctx, uint32_t buffer,
                                                     size_t* bytes);
/* GL_RASTERIZER_DISCARD: nothing reaches the backend; primitives are still counted, captured. */
drawpipe_status drawpipe_set_rasterizer_discard(drawpipe_context* ctx, bool discard);

/* Validates the draw and queues it; a bad draw fails here and is never queued. */
drawpipe_status drawpipe_draw(drawpipe_context* ctx, const drawpipe_draw_info* draw);
/* glMultiDrawArrays / glMultiDrawElementsBaseVertex: draws[i] with draw id i, all checked
 * before any is queued (<drawpipe/context.hpp> Context::draw(span)). */
drawpipe_status drawpipe_multi_draw(drawpipe_context* ctx, const drawpipe_draw_info* draws,
                                    size_t count);
/* Indirect draws (<drawpipe/indirect.hpp>): GL's 16-byte (non-indexed) or 20-byte (indexed)
 * records read from `buffer`; with `count_buffer` non-NULL the draw count is the uint32 at
 * `count_offset` there, clamped to `draw_count`. */
typedef struct drawpipe_indirect {
    const void* buffer;
    size_t size, offset;
    uint32_t stride; /* 0: tightly packed */
    uint32_t draw_count;
    const void* count_buffer;
    size_t count_size, count_offset;
} drawpipe_indirect;
drawpipe_status drawpipe_draw_indirect(drawpipe_context* ctx, const drawpipe_draw_info* draw,
                                       const drawpipe_indirect* indirect);
/* glDrawTransformFeedbackStream: draws what `stream` wrote in the last session. */
drawpipe_status drawpipe_draw_stream_output(drawpipe_context* ctx, const drawpipe_draw_info* draw,
                                            uint32_t stream);
/* Delivers every queued draw in order; their statistics into `stats` (may be NULL). */
drawpipe_status drawpipe_flush(drawpipe_context* ctx, drawpipe_draw_stats* stats);

/* ---- Decomposition (<drawpipe/decompose.hpp>) ---- */

/* One decomposed point (n = 1), line (2) or triangle (3): its n elements. */
typedef void (*drawpipe_decompose_fn)(void* user, uint32_t n, const uint32_t* elts);
/* decompose_elements: the `count` elements of one restart-free run of `prim` as points, lines
 * and triangles in GL order, each with its provoking vertex first or last as `provoking` says
 * (a line loop closes; incomplete primitives and patches give nothing). */
drawpipe_status drawpipe_decompose(drawpipe_prim prim, drawpipe_provoking provoking,
                                   const uint32_t* elts, uint32_t count, drawpipe_decompose_fn emit,
                                   void* user);

#ifdef __cplusplus
}
#endif

#endif /* DRAWPIPE_DRAWPIPE_H */
