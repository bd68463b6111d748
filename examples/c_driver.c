/* A driver written in C against <drawpipe/drawpipe.h>. It draws the scene of its C++ twin,
 * cpp_driver_twin.cpp, and prints the same text, which a test compares byte for byte:
 *
 *   draw 1: a 16 x 16 grid (two vertex buffers: float32x3 positions, unorm8x4 colours),
 *           u16-indexed triangles, every odd row wound clockwise, through a batched vertex
 *           shader and fetch_shade, with viewport + back-face culling + flat shading, and
 *           stream output capturing position and colour into a buffer that fills up;
 *   draw 2: a u8-indexed triangle strip through a geometry shader that shrinks each triangle,
 *           on the a4xx middle end (bound by name).
 *
 * The backend hashes every vertex record it is handed, in element order, and sums the
 * signed area of the triangles, so any difference in what arrived shows. */
#include <drawpipe/drawpipe.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID 16
#define SO_VERTICES 300 /* room for 100 of draw 1's 450 triangles */

/* Stops the program with the failing call and drawpipe's text. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        drawpipe_status status_ = (call);                                                          \
        if (status_ != DRAWPIPE_OK) {                                                              \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, drawpipe_last_error(),                  \
                    drawpipe_status_name(status_));                                                \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static uint64_t fnv1a(uint64_t hash, const void* data, size_t bytes) {
    const unsigned char* p = (const unsigned char*)data;
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
    return hash;
}

static float dword_float(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* The backend's state, behind the table's user pointer. */
typedef struct trace_backend {
    int draw;
    drawpipe_provoking provoking; /* the draw's, for drawpipe_decompose */
    uint64_t calls, elements, triangles, hash;
    double area;
    const drawpipe_vertex_view* vertices; /* the call's, while it decomposes */
} trace_backend;

static void begin_draw(void* user, const drawpipe_draw_info* draw,
                       const drawpipe_vertex_layout* layout) {
    trace_backend* b = (trace_backend*)user;
    b->draw += 1;
    b->provoking = draw->provoking;
    b->calls = b->elements = b->triangles = 0;
    b->hash = 14695981039346656037ull;
    b->area = 0;
    printf("draw %d: prim %d, provoking %s, stride %u, varyings %u%s\n", b->draw, (int)draw->prim,
           draw->provoking == DRAWPIPE_PROVOKING_LAST ? "last" : "first", layout->stride,
           layout->outputs.varying_count, layout->gs_output ? ", from a geometry shader" : "");
}

/* drawpipe_decompose's callback: sums a triangle's signed area in window space. */
static void add_triangle(void* user, uint32_t n, const uint32_t* elts) {
    trace_backend* b = (trace_backend*)user;
    if (n != 3) return;
    double p[3][2];
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 2; ++c)
            p[i][c] = dword_float(b->vertices->data[(size_t)elts[i] * b->vertices->stride +
                                                    DRAWPIPE_SLOT_POSITION + c]);
    b->area += 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                      (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
    b->triangles += 1;
}

static void draw_elements(void* user, drawpipe_prim prim, uint8_t flags,
                          const drawpipe_vertex_view* vertices, const uint32_t* elts,
                          uint32_t count) {
    trace_backend* b = (trace_backend*)user;
    (void)flags;
    b->calls += 1;
    b->elements += count;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t* v = vertices->data + (size_t)elts[i] * vertices->stride;
        b->hash = fnv1a(b->hash, v, vertices->stride * sizeof(uint32_t));
    }
    /* Any primitive type may arrive (strips whole when no stage had to touch them), so
     * decompose it into GL's points, lines and triangles. */
    b->vertices = vertices;
    CHECK(drawpipe_decompose(prim, b->provoking, elts, count, add_triangle, b));
}

static void end_draw(void* user) {
    const trace_backend* b = (const trace_backend*)user;
    printf("  calls %llu, elements %llu, triangles %llu, area %.3f, hash %016llx\n",
           (unsigned long long)b->calls, (unsigned long long)b->elements,
           (unsigned long long)b->triangles, b->area, (unsigned long long)b->hash);
}

/* The vertex shader, a block of lanes at a time: scales the grid by 0.9 and passes the
 * colour (attribute 1) on as varying 0. */
static void vertex_shader(void* user, const drawpipe_shader_block* block) {
    const float scale = *(const float*)user;
    for (uint32_t lane = 0; lane < block->count; ++lane) {
        block->out[0][lane] = scale * block->in[0][lane];
        block->out[1][lane] = scale * block->in[1][lane];
        block->out[2][lane] = block->in[2][lane];
        block->out[3][lane] = 1.0f;
        for (int c = 0; c < 4; ++c) block->out[4 + c][lane] = block->in[4 + c][lane];
    }
}

/* The geometry shader: each input triangle shrunk by half towards its centre, tagged with
 * its primitive id, each vertex keeping its colour. */
static void geometry_shader(void* user, drawpipe_gs_context* gs) {
    (void)user;
    float centre[2] = {0, 0};
    for (uint32_t v = 0; v < 3; ++v)
        for (int c = 0; c < 2; ++c)
            centre[c] += dword_float(drawpipe_gs_load(gs, v, DRAWPIPE_SLOT_POSITION + c)) / 3.0f;
    for (uint32_t v = 0; v < 3; ++v) {
        drawpipe_gs_output out;
        memset(&out, 0, sizeof out);
        out.id = drawpipe_gs_primitive_id(gs);
        for (int c = 0; c < 4; ++c) {
            const float p = dword_float(drawpipe_gs_load(gs, v, DRAWPIPE_SLOT_POSITION + c));
            out.position[c] = c < 2 ? centre[c] + 0.5f * (p - centre[c]) : p;
            out.varyings[0][c] = drawpipe_gs_load(gs, v, DRAWPIPE_VERTEX_HEADER_DWORDS + c);
        }
        drawpipe_gs_emit(gs, 0, &out);
    }
    drawpipe_gs_end_primitive(gs, 0);
}

static void print_stats(const drawpipe_context* ctx, const drawpipe_draw_stats* s) {
    printf("stats: segments %llu, indices %llu, fetched %llu, generated %llu, written %llu\n",
           (unsigned long long)s->segments, (unsigned long long)s->indices,
           (unsigned long long)s->fetched, (unsigned long long)s->primitives.generated[0],
           (unsigned long long)s->primitives.written[0]);
    for (uint32_t i = 0; drawpipe_counter_name(ctx, i); ++i)
        printf("  %s %llu\n", drawpipe_counter_name(ctx, i), (unsigned long long)s->counters[i]);
}

int main(int argc, char** argv) {
    /* No arguments: --help (or -h) prints the usage and writes nothing; anything else is an
     * error. */
    if (argc > 1) {
        const bool help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr,
                "usage: c_driver\n  draws a grid and a strip through <drawpipe/drawpipe.h> and "
                "prints what reached the backend\n");
        return help ? 0 : 2;
    }
    /* The grid: positions in [-1, 1]^2 and one colour per vertex, in two buffers. */
    static float positions[GRID * GRID][3];
    static uint8_t colours[GRID * GRID][4];
    for (uint32_t y = 0; y < GRID; ++y)
        for (uint32_t x = 0; x < GRID; ++x) {
            const uint32_t v = y * GRID + x;
            positions[v][0] = 2.0f * (float)x / (GRID - 1) - 1.0f;
            positions[v][1] = 2.0f * (float)y / (GRID - 1) - 1.0f;
            positions[v][2] = 0.25f;
            colours[v][0] = (uint8_t)(x * 16);
            colours[v][1] = (uint8_t)(y * 16);
            colours[v][2] = (uint8_t)(255 - x * 8);
            colours[v][3] = 255;
        }
    /* Counter-clockwise triangles, clockwise on odd rows (the ones culling removes). */
    static uint16_t indices[(GRID - 1) * (GRID - 1) * 6];
    uint32_t n = 0;
    for (uint32_t y = 0; y + 1 < GRID; ++y)
        for (uint32_t x = 0; x + 1 < GRID; ++x) {
            const uint16_t v = (uint16_t)(y * GRID + x);
            const uint16_t quad[6] = {v,
                                      (uint16_t)(v + 1),
                                      (uint16_t)(v + GRID),
                                      (uint16_t)(v + 1),
                                      (uint16_t)(v + GRID + 1),
                                      (uint16_t)(v + GRID)};
            for (int i = 0; i < 6; ++i) indices[n + i] = quad[y % 2 ? 5 - i : i];
            n += 6;
        }
    /* A strip zig-zagging over the first two rows. */
    uint8_t strip[2 * GRID];
    for (uint32_t x = 0; x < GRID; ++x)
        strip[2 * x] = (uint8_t)(GRID + x), strip[2 * x + 1] = (uint8_t)x;

    drawpipe_context* ctx = NULL;
    CHECK(drawpipe_context_create(NULL, &ctx));

    const drawpipe_vertex_buffer buffers[2] = {{positions, sizeof positions, 12, 0},
                                               {colours, sizeof colours, 4, 0}};
    drawpipe_vertex_attrib attribs[2];
    memset(attribs, 0, sizeof attribs);
    attribs[0].format = DRAWPIPE_FORMAT_FLOAT32X3;
    attribs[1].buffer = 1;
    attribs[1].format = DRAWPIPE_FORMAT_UNORM8X4;
    CHECK(drawpipe_set_vertex_buffers(ctx, buffers, 2));
    CHECK(drawpipe_set_vertex_attribs(ctx, attribs, 2));

    drawpipe_shader_outputs vs_outputs;
    memset(&vs_outputs, 0, sizeof vs_outputs);
    vs_outputs.varying_count = 1; /* the colour: smooth, 4 components */
    static const float scale = 0.9f;
    CHECK(drawpipe_bind_vertex_shader(ctx, &vs_outputs, vertex_shader, (void*)&scale));

    drawpipe_raster_state raster;
    drawpipe_raster_state_init(&raster);
    raster.viewport_width = raster.viewport_height = 64;
    raster.cull = DRAWPIPE_CULL_BACK;
    raster.flatshade = true;
    CHECK(drawpipe_set_raster_state(ctx, &raster));

    trace_backend traced;
    memset(&traced, 0, sizeof traced);
    const drawpipe_backend backend = {&traced, begin_draw, draw_elements, end_draw};
    CHECK(drawpipe_bind_backend(ctx, &backend));

    /* Stream output: position and colour, interleaved, 8 dwords a vertex. */
    static float captured[SO_VERTICES][8];
    const drawpipe_captured_output outputs[2] = {{DRAWPIPE_CAPTURE_POSITION, 0, 0, 4, 0, 0, 0},
                                                 {DRAWPIPE_CAPTURE_VARYING, 0, 0, 4, 0, 4, 0}};
    drawpipe_stream_output_state so;
    memset(&so, 0, sizeof so);
    so.mode = DRAWPIPE_CAPTURE_INTERLEAVED;
    so.output_count = 2;
    so.outputs = outputs;
    so.buffers[0].data = captured;
    so.buffers[0].size = sizeof captured;
    so.buffers[0].stride = sizeof captured[0];
    CHECK(drawpipe_set_stream_output(ctx, &so));

    /* Draw 1: the grid, captured, on fetch_shade. */
    CHECK(drawpipe_bind_middle_end(ctx, "fetch_shade"));
    drawpipe_draw_info draw;
    drawpipe_draw_info_init(&draw);
    draw.prim = DRAWPIPE_PRIM_TRIANGLES;
    draw.index_type = DRAWPIPE_INDEX_U16;
    draw.indices = indices;
    draw.index_buffer_count = n;
    draw.count = n;
    CHECK(drawpipe_begin_stream_output(ctx));
    CHECK(drawpipe_draw(ctx, &draw));
    drawpipe_stream_output_counts counts;
    CHECK(drawpipe_end_stream_output(ctx, &counts));
    size_t bytes = 0;
    CHECK(drawpipe_stream_output_written_bytes(ctx, 0, &bytes));
    drawpipe_draw_stats stats;
    CHECK(drawpipe_flush(ctx, &stats));
    print_stats(ctx, &stats);
    printf("stream output: %llu of %llu triangles, bytes %zu, hash %016llx\n",
           (unsigned long long)counts.written[0], (unsigned long long)counts.generated[0], bytes,
           (unsigned long long)fnv1a(14695981039346656037ull, captured, bytes));
    const uint64_t grid_triangles = traced.triangles;

    /* Draw 2: the strip through the geometry shader, on a4xx. */
    CHECK(drawpipe_set_stream_output(ctx, NULL));
    drawpipe_geometry_shader gs;
    memset(&gs, 0, sizeof gs);
    gs.name = "shrink";
    gs.input = DRAWPIPE_PRIM_TRIANGLES;
    gs.output = DRAWPIPE_PRIM_TRIANGLE_STRIP;
    gs.max_vertices = 3;
    gs.invocations = 1;
    gs.streams = 1;
    gs.outputs.varying_count = 1;
    gs.input_varyings = 1;
    gs.uses_end_primitive = true;
    gs.main = geometry_shader;
    CHECK(drawpipe_bind_geometry_shader(ctx, &gs));
    CHECK(drawpipe_bind_middle_end(ctx, "a4xx"));
    drawpipe_draw_info_init(&draw);
    draw.prim = DRAWPIPE_PRIM_TRIANGLE_STRIP;
    draw.index_type = DRAWPIPE_INDEX_U8;
    draw.indices = strip;
    draw.index_buffer_count = sizeof strip;
    draw.count = sizeof strip;
    CHECK(drawpipe_draw(ctx, &draw));
    CHECK(drawpipe_flush(ctx, &stats));
    print_stats(ctx, &stats);

    /* A bad draw fails at drawpipe_draw, with a status and the reason, and queues nothing. */
    draw.count = 1000;
    const drawpipe_status bad = drawpipe_draw(ctx, &draw);
    printf("a draw past its index buffer: %s\n", drawpipe_status_name(bad));
    CHECK(drawpipe_context_destroy(ctx));

    /* Half the grid faces away: 8 even rows of 30 triangles stay; 100 triangles fill the
     * stream-output buffer; the strip's 30 triangles all reach the backend. */
    const int ok = grid_triangles == 8 * 2 * (GRID - 1) && counts.written[0] == 100 &&
                   counts.generated[0] == 2 * (GRID - 1) * (GRID - 1) &&
                   traced.triangles == 2 * (GRID - 1) && bad == DRAWPIPE_ERROR_INDEX_BUFFER_OVERRUN;
    return ok ? 0 : 1;
}
