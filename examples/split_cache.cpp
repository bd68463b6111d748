// The split cache in use: a driver whose index buffer does not change between frames (a static
// mesh) registers it once. The first draw from it is split into segments as usual and the
// split is recorded; later draws of the same range replay the recorded segments without
// reading an index or splitting again. When the driver writes the buffer it says so
// (bump_index_buffer), and the next draw splits afresh.
#include <drawpipe/backends/counting.hpp>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/middle_ends.hpp>
#include <drawpipe/split_cache.hpp>

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

using namespace drawpipe;

// One draw, then what the front end did (DrawStats) and what the cache did (its counters,
// as changed by this draw) in one line.
void draw_and_report(Context& ctx, CountingBackend& backend, const DrawInfo& draw,
                     const char* what) {
    const SplitCacheStats before = ctx.split_cache().stats();
    backend.reset();
    ctx.draw(draw);
    const DrawStats stats = ctx.flush(); // the draw reaches the backend here
    const SplitCacheStats after = ctx.split_cache().stats();
    std::printf("%-28s %llu segments, %llu vertices fetched, %llu triangles drawn; "
                "split cache: %s (holds %zu, %zu KiB)\n",
                what, (unsigned long long)stats.front.segments,
                (unsigned long long)stats.front.fetched,
                (unsigned long long)backend.totals().triangles,
                after.hits > before.hits       ? "hit, the split replayed"
                : after.misses > before.misses ? "miss, split and recorded"
                                               : "not used",
                after.entries, after.bytes / 1024);
}

int main(int argc, char** argv) {
    // No arguments: --help (or -h) prints the usage and writes nothing; anything else is an error.
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        std::fprintf(help ? stdout : stderr,
                     "usage: split_cache\n  draws a static mesh three times through the split "
                     "cache and prints its counts\n");
        return help ? 0 : 2;
    }
    register_builtin_middle_ends();

    // A 300 x 300 vertex grid of triangles: 536,406 indices, well over one segment's worth.
    const uint32_t n = 300;
    std::vector<float> positions;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
            positions.insert(positions.end(), {2.0f * float(x) / float(n - 1) - 1.0f,
                                               2.0f * float(y) / float(n - 1) - 1.0f, 0, 1});
    std::vector<uint32_t> indices;
    for (uint32_t y = 0; y + 1 < n; ++y)
        for (uint32_t x = 0; x + 1 < n; ++x) {
            const uint32_t v = y * n + x;
            indices.insert(indices.end(), {v, v + 1, v + n, v + 1, v + n + 1, v + n});
        }
    const VertexBuffer buffer{positions.data(), positions.size() * sizeof(float), 16, 0};
    const VertexAttrib position{};

    Context ctx;
    CountingBackend backend;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&position, 1});

    // The buffer gets an identity; every draw from it names that identity. Without it
    // (index_buffer_id 0) each draw is split again, as an index buffer the driver may have
    // written since must be.
    DrawInfo draw;
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u32;
    draw.indices = indices.data();
    draw.index_buffer_count = uint32_t(indices.size());
    draw.count = uint32_t(indices.size());
    draw.index_buffer_id = ctx.register_index_buffer();
    try {
        // Frame 1 splits; frame 2, the same draw, replays that split: the same segments and
        // the same triangles, without the front end reading the indices.
        draw_and_report(ctx, backend, draw, "frame 1:");
        draw_and_report(ctx, backend, draw, "frame 2, the same draw:");
        // Instances and base vertex are not part of the split: the replay serves them too.
        draw.instance_count = 2;
        draw_and_report(ctx, backend, draw, "frame 3, two instances:");
        // The driver rewrites the buffer (here: flips every triangle's winding). Saying so
        // drops its recorded splits, so the next draw splits again.
        for (size_t i = 0; i + 2 < indices.size(); i += 3) std::swap(indices[i], indices[i + 1]);
        ctx.bump_index_buffer(draw.index_buffer_id);
        draw_and_report(ctx, backend, draw, "frame 4, buffer rewritten:");
    } catch (const Error& e) {
        std::fprintf(stderr, "split_cache: %s\n", e.what());
        return 1;
    }
    const SplitCacheStats s = ctx.split_cache().stats();
    std::printf("split cache over the 4 frames: %llu hits, %llu misses\n",
                (unsigned long long)s.hits, (unsigned long long)s.misses);
    return 0;
}
