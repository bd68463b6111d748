// The tessellation stages (drawpipe/tess.hpp, drawpipe/extend/tess_stages.hpp): GL's checks, the
// layouts, and the per-segment run of the vertex, control and evaluation stages.
#include "drawpipe/extend/tess_stages.hpp"

#include "draw/shade/fetch_plan.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/prim.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

namespace drawpipe {

namespace {

// Most domain points one patch makes: a quad patch at level 64 is a 65 x 65 grid.
constexpr uint32_t kMaxDomainVertices = 65 * 65;
// A segment's evaluated vertices stay near this (the GS path's budget).
constexpr uint32_t kTessOutputBudget = 65535;
// Domains kept per thread: far more than a draw's distinct level sets usually are.
constexpr size_t kMaxCachedDomains = 256;
static_assert(kTessControlBlock <= kMaxCachedDomains, "a block's domains fit the cache");
// The cached elements are 16-bit, and the lane rows are vectors the emit kernel loads
// 16 bytes at a time.
static_assert(kMaxTessPoints <= 65536, "domain points fit 16-bit elements");
static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 16, "std::vector<float> is 16-byte aligned");

[[noreturn]] void fail(ErrorCode code, const std::string& msg) {
    throw Error(code, msg);
}

// The vertex id at index position `at` (restart is off for patches: every index is one).
uint32_t draw_vertex_id(const DrawInfo& d, uint32_t at) {
    switch (d.index_type) {
    case IndexType::u8:
        return static_cast<const uint8_t*>(d.indices)[at] + uint32_t(d.base_vertex);
    case IndexType::u16:
        return static_cast<const uint16_t*>(d.indices)[at] + uint32_t(d.base_vertex);
    case IndexType::u32:
        return static_cast<const uint32_t*>(d.indices)[at] + uint32_t(d.base_vertex);
    case IndexType::none:
        break;
    }
    return at;
}

// Room for `more` elements past the vector's size, growing geometrically (an exact reserve
// per block would copy the batch once per block).
template <class Vector> void reserve_more(Vector& vec, size_t more) {
    const size_t need = vec.size() + more;
    if (need > vec.capacity()) vec.reserve(std::max(need, 2 * vec.capacity()));
}

uint32_t pack_state(const TessState& s) {
    return uint32_t(s.mode) | uint32_t(s.spacing) << 8 | uint32_t(s.winding) << 16 |
           uint32_t(s.point_mode) << 24;
}

} // namespace

Prim tess_output_prim(const TessState& state) {
    if (state.point_mode) return Prim::points;
    return state.mode == TessMode::isolines ? Prim::lines : Prim::triangles;
}

VertexLayout tess_output_layout(const TessEvalShader& tes) {
    VertexLayout layout;
    layout.outputs = tes.outputs;
    layout.tess_output = true;
    layout.tess_triangles = tes.state.mode == TessMode::triangles;
    return layout;
}

VertexLayout tess_control_layout(const TessControlShader& tcs) {
    VertexLayout layout;
    layout.outputs = tcs.outputs;
    return layout;
}

void validate_tess(const DrawState& state) {
    const Prim prim = state.draw.prim;
    if (!state.tes) {
        if (state.tcs)
            fail(ErrorCode::invalid_operation,
                 "tcs: a tessellation control shader without an evaluation shader");
        if (prim == Prim::patches)
            fail(ErrorCode::invalid_operation,
                 "prim: patches are drawn only with a tessellation evaluation shader bound");
        return;
    }
    if (prim != Prim::patches)
        fail(ErrorCode::invalid_operation,
             "prim: with tessellation bound a draw must be of patches, not " +
                 std::string(prim_name(prim)));
    const TessEvalShader& tes = *state.tes;
    if (!tes.run) fail(ErrorCode::invalid_value, "tes: no run function");
    if (uint32_t(tes.state.mode) > uint32_t(TessMode::isolines))
        fail(ErrorCode::invalid_value, "tes: unknown tessellation mode");
    if (uint32_t(tes.state.spacing) > uint32_t(TessSpacing::fractional_odd))
        fail(ErrorCode::invalid_value, "tes: unknown spacing");
    if (uint32_t(tes.state.winding) > uint32_t(TessWinding::cw))
        fail(ErrorCode::invalid_value, "tes: unknown winding");
    validate_outputs(tes.outputs);
    if (state.tcs) {
        const TessControlShader& tcs = *state.tcs;
        if (!tcs.run) fail(ErrorCode::invalid_value, "tcs: no run function");
        if (tcs.vertices < 1 || tcs.vertices > kMaxPatchVertices)
            fail(ErrorCode::invalid_value, "tcs: vertices " + std::to_string(tcs.vertices) +
                                               " is not in [1, " +
                                               std::to_string(kMaxPatchVertices) + "]");
        if (tcs.patch_outputs > kMaxPatchOutputs)
            fail(ErrorCode::invalid_value, "tcs: patch_outputs " +
                                               std::to_string(tcs.patch_outputs) + " is above " +
                                               std::to_string(kMaxPatchOutputs));
        validate_outputs(tcs.outputs);
    }
    if (state.gs) {
        const Prim made = tess_output_prim(tes.state);
        if (state.gs->input != made)
            fail(ErrorCode::invalid_operation,
                 "gs: geometry shader '" + state.gs->name + "' takes " +
                     std::string(prim_name(state.gs->input)) + " but tessellation makes " +
                     std::string(prim_name(made)));
    }
}

void refuse_tess(const DrawState& state, std::string_view middle) {
    if (state.tes || state.tcs || state.draw.prim == Prim::patches)
        fail(ErrorCode::unsupported, "middle end '" + std::string(middle) +
                                         "' has no tessellation stages (fetch_shade and "
                                         "fetch_shade_simd draw patches)");
}

size_t TessScratch::DomainHash::operator()(const DomainKey& k) const {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ k.state;
    for (uint32_t x : k.levels) h = (h ^ x) * 0x100000001B3ull;
    return size_t(h ^ (h >> 29));
}

void TessScratch::make_room(uint32_t n) {
    if (domains.size() + n > kMaxCachedDomains) domains.clear();
}

const TessDomain* TessScratch::domain(const TessState& state, const TessLevels& levels) {
    const CachedDomain* c = cached_domain(state, levels);
    return c ? &c->domain : nullptr;
}

const TessScratch::CachedDomain* TessScratch::cached_domain(const TessState& state,
                                                            const TessLevels& levels) {
    DomainKey key;
    for (uint32_t i = 0; i < 4; ++i) key.levels[i] = std::bit_cast<uint32_t>(levels.outer[i]);
    for (uint32_t i = 0; i < 2; ++i) key.levels[4 + i] = std::bit_cast<uint32_t>(levels.inner[i]);
    key.state = pack_state(state);
    ++domain_lookups;
    auto it = domains.find(key);
    if (it == domains.end()) {
        ++domain_misses;
        if (domains.size() >= kMaxCachedDomains) domains.clear();
        it = domains.try_emplace(key).first;
        CachedDomain& c = it->second;
        c.drawn = tessellate(state, levels, c.domain);
        const size_t points = c.domain.coords.size();
        const size_t lanes = (points + kShaderLanes - 1) / kShaderLanes * kShaderLanes;
        c.u.assign(lanes, 0.0f);
        c.v.assign(lanes, 0.0f);
        c.w.assign(lanes, 0.0f);
        for (size_t i = 0; i < points; ++i) {
            c.u[i] = c.domain.coords[i][0];
            c.v[i] = c.domain.coords[i][1];
            c.w[i] = c.domain.coords[i][2];
        }
        c.elements.assign(c.domain.elements.begin(), c.domain.elements.end());
    }
    return it->second.drawn ? &it->second : nullptr;
}

TessStages::TessStages(const DrawState& state) {
    in_layout_ = vertex_layout_for(state);
    if (state.tcs) control_layout_ = tess_control_layout(*state.tcs);
    out_layout_ = tess_output_layout(*state.tes);
    out_prim_ = tess_output_prim(state.tes->state);
    if (state.gs) count_primitives(state);
    if (!state.tcs) { // every patch has the default levels: size segments by their domain
        TessDomain d;
        domain_vertices_ = tessellate(state.tes->state, state.patch_default_levels, d)
                               ? std::max<uint32_t>(1, uint32_t(d.coords.size()))
                               : 1;
    }
}

uint32_t TessStages::work_per_vertex(uint32_t patch_vertices) const {
    const uint32_t per_patch = domain_vertices_ ? domain_vertices_ : kMaxDomainVertices;
    return std::max(1u, per_patch / std::max(1u, patch_vertices));
}

uint32_t TessStages::segment_vertex_limit(uint32_t patch_vertices, uint32_t cap) const {
    const uint32_t per_patch = domain_vertices_ ? domain_vertices_ : kMaxDomainVertices;
    const uint32_t patches = std::max(1u, kTessOutputBudget / per_patch);
    return std::max(patch_vertices, std::min(cap / patch_vertices, patches) * patch_vertices);
}

void TessStages::run_control(const DrawState& state, uint32_t instance, const uint32_t* ids,
                             uint32_t n, TessScratch& scratch) const {
    scratch.levels.assign(n, state.patch_default_levels);
    const TessControlShader* tcs = state.tcs;
    if (!tcs) return;
    const uint32_t cp_count = tcs->vertices, cp_stride = control_layout_.stride();
    uint32_t preset[kMaxRecordDwords];
    preset_record(control_layout_, preset);
    scratch.control_out.resize(size_t(n) * cp_count * cp_stride);
    for (uint32_t i = 0; i < n * cp_count; ++i) {
        uint32_t* rec = &scratch.control_out[size_t(i) * cp_stride];
        std::memcpy(rec, preset, 4 * size_t(cp_stride));
        rec[SLOT_VERTEX_ID] = ids[i / cp_count];
        rec[SLOT_INSTANCE_ID] = instance;
    }
    scratch.patch_out.assign(size_t(n) * 4 * tcs->patch_outputs, 0u);
    tcs->run({n, state.draw.patch_vertices, in_layout_.stride(), scratch.in.data(), ids, instance,
              cp_count, cp_stride, scratch.control_out.data(), tcs->patch_outputs,
              scratch.patch_out.data(), scratch.levels.data()});
}

uint32_t TessStages::primitives(const TessDomain& domain) const {
    const uint32_t per = out_prim_ == Prim::points ? 1 : out_prim_ == Prim::lines ? 2 : 3;
    return uint32_t(domain.elements.size()) / per;
}

// gl_PrimitiveIDIn of a geometry shader after tessellation counts the tessellated primitives
// of the instance, across patches. Without a control shader every patch has as many; with
// one, the vertex and control stages run once over the draw here to count them (serially,
// in prepare: the price of a GS after a control shader).
void TessStages::count_primitives(const DrawState& state) {
    const DrawInfo& draw = state.draw;
    const uint32_t pv = draw.patch_vertices;
    patches_ = draw.count / pv;
    TessScratch scratch;
    if (!state.tcs) {
        const TessDomain* d = scratch.domain(state.tes->state, state.patch_default_levels);
        per_patch_primitives_ = d ? primitives(*d) : 0;
        return;
    }
    prim_base_.assign(size_t(draw.instance_count) * patches_, 0);
    const uint32_t in_stride = in_layout_.stride();
    std::vector<uint32_t> vertex_ids(size_t(kTessControlBlock) * pv);
    uint32_t ids[kTessControlBlock];
    for (uint32_t inst = 0; inst < draw.instance_count; ++inst) {
        uint32_t running = 0;
        for (uint32_t p0 = 0; p0 < patches_; p0 += kTessControlBlock) {
            const uint32_t n = std::min(kTessControlBlock, patches_ - p0);
            for (uint32_t k = 0; k < n * pv; ++k)
                vertex_ids[k] = draw_vertex_id(draw, draw.start + p0 * pv + k);
            scratch.shaded.resize(size_t(n) * pv * in_stride);
            shade_vertices(state, in_layout_, vertex_ids.data(), n * pv, inst, draw.draw_id,
                           scratch.shaded.data());
            scratch.in.resize(size_t(n) * pv);
            for (uint32_t k = 0; k < n * pv; ++k)
                scratch.in[k] = &scratch.shaded[size_t(k) * in_stride];
            for (uint32_t i = 0; i < n; ++i) ids[i] = p0 + i;
            run_control(state, inst, ids, n, scratch);
            for (uint32_t i = 0; i < n; ++i) {
                prim_base_[size_t(inst) * patches_ + p0 + i] = running;
                const TessDomain* d = scratch.domain(state.tes->state, scratch.levels[i]);
                running += d ? primitives(*d) : 0;
            }
        }
    }
}

uint32_t TessStages::gs_primitive_base(uint32_t instance, uint32_t patch) const {
    if (prim_base_.empty()) return patch * per_patch_primitives_;
    return prim_base_[size_t(instance) * patches_ + patch];
}

void TessStages::shade(const DrawState& state, const Segment& seg, TessScratch& scratch,
                       ShadedBatch& out) const {
    for (uint32_t i = 0; i < seg.instance_count; ++i)
        shade_instance(state, seg, seg.instance_first + i, scratch, out);
}

void TessStages::shade_instance(const DrawState& state, const Segment& seg, uint32_t instance,
                                TessScratch& scratch, ShadedBatch& out) const {
    const uint32_t pv = state.draw.patch_vertices;
    const uint32_t patches = seg.draw_count / pv;
    const uint32_t in_stride = in_layout_.stride();
    scratch.shaded.resize(size_t(seg.fetch_count) * in_stride);
    shade_fetched(state, in_layout_, seg, instance, scratch.shaded.data());

    const TessControlShader* tcs = state.tcs;
    const uint32_t cp_count = tcs ? tcs->vertices : pv;
    const uint32_t cp_stride = tcs ? control_layout_.stride() : in_stride;
    const uint32_t patch_dwords = tcs ? 4 * tcs->patch_outputs : 0;
    const uint32_t out_stride = out_layout_.stride();
    const uint32_t out_count = out_stride - SLOT_POSITION;

    // The evaluation stage's rows and their presets; the record rows emit transposes: the
    // header (patch, instance, u, v), then the outputs.
    scratch.rows.resize(size_t(out_count) * kShaderLanes);
    float* rows[kMaxRecordDwords];
    const uint32_t* record_rows[kMaxRecordDwords];
    for (uint32_t r = 0; r < out_count; ++r) {
        rows[r] = scratch.rows.data() + r * kShaderLanes;
        record_rows[SLOT_POSITION + r] = reinterpret_cast<const uint32_t*>(rows[r]);
    }
    uint32_t preset[kMaxRecordDwords];
    preset_record(out_layout_, preset);
    // The rows as the shader receives them, copied whole before each call.
    scratch.preset_rows.resize(scratch.rows.size());
    for (uint32_t r = 0; r < out_count; ++r)
        std::fill_n(scratch.preset_rows.data() + r * kShaderLanes, kShaderLanes,
                    std::bit_cast<float>(preset[SLOT_POSITION + r]));
    const size_t rows_bytes = scratch.rows.size() * sizeof(float);
    alignas(16) uint32_t patch_row[kShaderLanes], instance_row[kShaderLanes];
    std::fill_n(instance_row, kShaderLanes, instance);
    record_rows[SLOT_VERTEX_ID] = patch_row;
    record_rows[SLOT_INSTANCE_ID] = instance_row;

    std::vector<const uint32_t*> cps(cp_count);
    uint32_t ids[kTessControlBlock];
    const uint32_t range_first = uint32_t(out.elts.size());
    scratch.block_domains.resize(kTessControlBlock);
    const TessScratch::CachedDomain** domains = scratch.block_domains.data();

    for (uint32_t p0 = 0; p0 < patches; p0 += kTessControlBlock) {
        const uint32_t n = std::min(kTessControlBlock, patches - p0);
        scratch.in.resize(size_t(n) * pv);
        for (uint32_t i = 0; i < n; ++i) {
            ids[i] = seg.prim_id_first + p0 + i;
            for (uint32_t k = 0; k < pv; ++k)
                scratch.in[i * pv + k] =
                    &scratch.shaded[size_t(seg.draw_elt((p0 + i) * pv + k)) * in_stride];
        }
        run_control(state, instance, ids, n, scratch);
        // The block's domains first, so the batch grows once per block, not per patch (the
        // cache is emptied before the block, never while its pointers are held).
        scratch.make_room(n);
        size_t points_total = 0, elts_total = 0;
        for (uint32_t i = 0; i < n; ++i) {
            domains[i] = scratch.cached_domain(state.tes->state, scratch.levels[i]);
            if (!domains[i]) continue; // the levels cull the patch
            points_total += domains[i]->domain.coords.size();
            elts_total += domains[i]->elements.size();
        }
        reserve_more(out.vertices, points_total * out_stride);
        reserve_more(out.elts, elts_total);
        for (uint32_t i = 0; i < n; ++i) {
            const TessScratch::CachedDomain* domain = domains[i];
            if (!domain) continue;
            for (uint32_t k = 0; k < cp_count; ++k)
                cps[k] = tcs ? &scratch.control_out[(size_t(i) * cp_count + k) * cp_stride]
                             : scratch.in[i * pv + k];
            std::fill_n(patch_row, kShaderLanes, ids[i]);
            const uint32_t points = uint32_t(domain->domain.coords.size());
            const uint32_t base = out.vertex_count;
            uint32_t* recs = out.append_unset_vertices(points, out_stride);
            TessEvalBlock block;
            block.primitive_id = ids[i];
            block.instance = instance;
            block.patch_vertices = cp_count;
            block.cp_stride = cp_stride;
            block.control_points = cps.data();
            block.patch_in = tcs ? scratch.patch_out.data() + size_t(i) * patch_dwords : nullptr;
            block.levels = scratch.levels[i];
            block.out_count = out_count;
            block.out = rows;
            for (uint32_t first = 0; first < points; first += kShaderLanes) {
                const uint32_t count = std::min(kShaderLanes, points - first);
                std::memcpy(scratch.rows.data(), scratch.preset_rows.data(), rows_bytes);
                block.count = count;
                block.u = domain->u.data() + first;
                block.v = domain->v.data() + first;
                block.w = domain->w.data() + first;
                state.tes->run(block);
                record_rows[SLOT_GS_ID] = reinterpret_cast<const uint32_t*>(block.u);
                record_rows[SLOT_GS_LAYER] = reinterpret_cast<const uint32_t*>(block.v);
                simd_emit_records(record_rows, out_stride, count,
                                  recs + size_t(first) * out_stride);
            }
            const uint32_t elts = uint32_t(domain->elements.size());
            simd_emit_elts(domain->elements.data(), elts, base, out.append_unset_elts(elts));
        }
    }
    const uint32_t range_count = uint32_t(out.elts.size()) - range_first;
    if (range_count > 0) out.prims.push_back({out_prim_, 0, range_first, range_count});
}

} // namespace drawpipe
