// Running the tessellation stages over a segment of patches, for middle ends: the vertex
// stage, the control stage (or the default levels), the tessellator and the evaluation stage.
// The reference fetch_shade runs it; a middle end with no tessellation refuses the draw.
#pragma once

#include "drawpipe/extend/shading.hpp"
#include "drawpipe/tess.hpp"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace drawpipe {

// Per-thread memory of the tessellation stages, reused from segment to segment: the vertex
// stage's records (GsScratch::shaded), the control stage's output, the evaluation rows, and
// the tessellated domains by level set (most patches of a draw share their levels).
struct TessScratch : GsScratch {
    struct DomainKey {
        std::array<uint32_t, 6> levels; // the float bits, outer then inner
        uint32_t state;                 // mode, spacing, winding, point mode
        bool operator==(const DomainKey&) const = default;
    };
    struct DomainHash {
        size_t operator()(const DomainKey& k) const;
    };
    struct CachedDomain {
        bool drawn = false; // false: the levels cull the patch
        TessDomain domain;
        // The same points as rows of lanes, zero up to a multiple of kShaderLanes: the
        // evaluation stage reads each block's gl_TessCoord in place, and the records' header
        // is copied from them with vector loads, for every patch with these levels.
        std::vector<float> u, v, w;
        // domain.elements in 16 bits (a domain has at most 65 x 65 points), widened with the
        // patch's first record added as they are written.
        std::vector<uint16_t> elements;
    };
    std::unordered_map<DomainKey, CachedDomain, DomainHash> domains;
    std::vector<uint32_t> control_out; // control-stage records of a block of patches
    std::vector<uint32_t> patch_out;   // per-patch outputs of the block
    std::vector<TessLevels> levels;    // of the block
    std::vector<const uint32_t*> in;   // input records of the block's patches
    std::vector<float> rows;           // evaluation outputs, kShaderLanes floats per dword
    std::vector<float> preset_rows;    // the same, preset
    std::vector<const CachedDomain*> block_domains; // of the block's patches (null: culled)
    ShadedBatch tessellated;                        // the evaluation stage's output before a GS
    uint64_t domain_lookups = 0, domain_misses = 0;

    // The patch's domain for `levels` (tessellated on first use); null when they cull it.
    const TessDomain* domain(const TessState& state, const TessLevels& levels);
    // The same, with its rows of lanes. The pointer stays valid until make_room empties
    // the cache.
    const CachedDomain* cached_domain(const TessState& state, const TessLevels& levels);
    // Empties the cache unless `n` more domains fit it.
    void make_room(uint32_t n);
};

// The per-draw constants of the stages, built once in a middle end's prepare().
class TessStages {
  public:
    // Prepares a draw that has passed validate_tess (prepare_draw runs it).
    explicit TessStages(const DrawState& state);

    // The vertex stage's layout (the control points the stages read).
    const VertexLayout& input_layout() const { return in_layout_; }
    // The evaluation stage's output layout (tess_output_layout).
    const VertexLayout& output_layout() const { return out_layout_; }
    Prim output_prim() const { return out_prim_; }
    // Vertices per segment that keep a segment's tessellated output near 64K vertices:
    // whole patches, at least one, at most `cap` vertices (but never less than one patch).
    uint32_t segment_vertex_limit(uint32_t patch_vertices, uint32_t cap) const;
    // Evaluated vertices per input vertex, about (MiddleEndLimits::work_per_vertex).
    uint32_t work_per_vertex(uint32_t patch_vertices) const;

    // Appends the segment's evaluated vertices to `out` with one range of output_prim()
    // primitives per instance, in GL's order: instance by instance, patch by patch, each
    // patch's primitives as the tessellator orders them.
    void shade(const DrawState& state, const Segment& seg, TessScratch& scratch,
               ShadedBatch& out) const;

    // With a geometry shader bound: gl_PrimitiveIDIn of the first primitive of `patch` (its
    // index in the draw) in `instance`: the tessellated primitives of the patches before it.
    uint32_t gs_primitive_base(uint32_t instance, uint32_t patch) const;
    // Primitives of a tessellated domain.
    uint32_t primitives(const TessDomain& domain) const;

  private:
    void count_primitives(const DrawState& state);
    // The control stage over scratch.in's n patches (or the default levels into
    // scratch.levels without one).
    void run_control(const DrawState& state, uint32_t instance, const uint32_t* ids, uint32_t n,
                     TessScratch& scratch) const;
    void shade_instance(const DrawState& state, const Segment& seg, uint32_t instance,
                        TessScratch& scratch, ShadedBatch& out) const;
    VertexLayout in_layout_;
    VertexLayout control_layout_;
    VertexLayout out_layout_;
    Prim out_prim_ = Prim::triangles;
    uint32_t domain_vertices_ = 0;      // of the default levels without a control shader, else 0
    uint32_t patches_ = 0;              // whole patches per instance
    uint32_t per_patch_primitives_ = 0; // GS without a control shader: every patch's
    std::vector<uint32_t> prim_base_;   // GS with one: per instance and patch
};

} // namespace drawpipe
