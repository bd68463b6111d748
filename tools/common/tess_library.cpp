#include "tools/common/tess_library.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/extend/shading.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace drawpipe {

namespace {

// Dword `slot` of control point `cp` as a float; past the patch, (0, 0, 0, 1) as GL leaves
// it undefined.
float cp_value(const TessEvalBlock& b, uint32_t cp, uint32_t slot, uint32_t c) {
    if (cp >= b.patch_vertices) return c == 3 ? 1.0f : 0.0f;
    return dword_float(b.control_points[cp][slot + c]);
}

// One output row (dword `slot + c` of every control point) interpolated over the block's
// kShaderLanes lanes (those past count are ignored): one loop per mode, each over whole
// vectors into a row of its own, so the compiler vectorises it.
void interpolate_row(const TessEvalBlock& b, TessMode mode, uint32_t slot, uint32_t c, float* out) {
    const float p0 = cp_value(b, 0, slot, c), p1 = cp_value(b, 1, slot, c);
    const float p2 = mode == TessMode::isolines ? 0.0f : cp_value(b, 2, slot, c);
    const float p3 = mode == TessMode::quads ? cp_value(b, 3, slot, c) : 0.0f;
    const float *bu = b.u, *bv = b.v, *bw = b.w;
    float row[kShaderLanes];
    switch (mode) {
    case TessMode::triangles:
        for (uint32_t l = 0; l < kShaderLanes; ++l) row[l] = bu[l] * p0 + bv[l] * p1 + bw[l] * p2;
        break;
    case TessMode::quads:
        for (uint32_t l = 0; l < kShaderLanes; ++l) {
            const float u = bu[l], v = bv[l];
            row[l] = (1.0f - v) * ((1.0f - u) * p0 + u * p1) + v * ((1.0f - u) * p3 + u * p2);
        }
        break;
    case TessMode::isolines:
        for (uint32_t l = 0; l < kShaderLanes; ++l) row[l] = (1.0f - bu[l]) * p0 + bu[l] * p1;
        break;
    }
    std::memcpy(out, row, sizeof row);
}

} // namespace

TessEvalShader interpolate_tes(const TessState& state, const ShaderOutputs& in) {
    TessEvalShader tes;
    tes.state = state;
    for (uint32_t i = 0; i < in.varying_count; ++i) {
        Varying v = in.varyings[i];
        if (v.type != ValueType::float32) v.interp = Interp::flat;
        tes.outputs.add_varying(v);
    }
    const TessMode mode = state.mode;
    tes.run = [mode, in](const TessEvalBlock& b) {
        for (uint32_t c = 0; c < 4; ++c) interpolate_row(b, mode, SLOT_POSITION, c, b.out[c]);
        for (uint32_t i = 0; i < in.varying_count; ++i) {
            const uint32_t slot = kVertexHeaderDwords + 4 * i;
            for (uint32_t c = 0; c < 4; ++c) {
                float* out = b.out[slot - SLOT_POSITION + c];
                if (in.varyings[i].type == ValueType::float32) {
                    interpolate_row(b, mode, slot, c, out);
                } else { // integers are not interpolated: control point 0's bits
                    const uint32_t bits = b.patch_vertices ? b.control_points[0][slot + c] : 0;
                    std::fill_n(out, b.count, dword_float(bits));
                }
            }
        }
    };
    return tes;
}

TessControlShader levels_by_patch_tcs(uint32_t vertices, const ShaderOutputs& in,
                                      const TessLevels& base) {
    TessControlShader tcs;
    tcs.vertices = vertices;
    tcs.outputs = in;
    tcs.run = [base](const TessControlBlock& b) {
        const uint32_t dwords = std::min(b.in_stride, b.out_stride) - SLOT_POSITION;
        for (uint32_t p = 0; p < b.count; ++p) {
            for (uint32_t i = 0; i < b.out_vertices; ++i) {
                uint32_t* out = b.out + size_t(p * b.out_vertices + i) * b.out_stride;
                const uint32_t* in = b.in[p * b.in_vertices + i % b.in_vertices];
                std::memcpy(out + SLOT_POSITION, in + SLOT_POSITION, 4 * size_t(dwords));
            }
            const float add = float(b.primitive_id[p] % 3);
            TessLevels& l = b.levels[p];
            for (uint32_t k = 0; k < 4; ++k) l.outer[k] = base.outer[k] + add;
            for (uint32_t k = 0; k < 2; ++k) l.inner[k] = base.inner[k] + add;
        }
    };
    return tcs;
}

void check_tcs_name(std::string_view name) {
    if (name != "levels_by_patch")
        throw Error(ErrorCode::not_found, "tcs: unknown control shader '" + std::string(name) +
                                              "' (known: levels_by_patch)");
}

void DescTess::bind(const DrawDesc& desc, DrawState& state) {
    state.patch_default_levels = desc.tess_levels;
    if (desc.tess) tes = interpolate_tes(*desc.tess, vertex_layout_for(state).outputs);
    if (!desc.tcs.empty()) {
        check_tcs_name(desc.tcs);
        tcs = levels_by_patch_tcs(desc.patch_vertices, vertex_layout_for(state).outputs,
                                  desc.tess_levels);
    }
    state.tes = tes ? &*tes : nullptr;
    state.tcs = tcs ? &*tcs : nullptr;
}

} // namespace drawpipe
