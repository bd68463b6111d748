// The C interface (<drawpipe/drawpipe.h>) over the C++ API: each call converts its C structs,
// calls the context and turns any exception into a status and this thread's error text, so
// nothing is thrown across the C boundary.
#include "drawpipe/drawpipe.h"

#include "handle_table.hpp"

#include <drawpipe/decompose.hpp>
#include <drawpipe/drawpipe.hpp>
#include <drawpipe/gs.hpp>
#include <drawpipe/middle_ends.hpp>
#include <drawpipe/raster_state.hpp>
#include <drawpipe/tess.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

using namespace drawpipe;

namespace {

// The C enumerators are the C++ values, so conversions are casts once the range is checked.
// clang-format off
static_assert(DRAWPIPE_FORMAT_FLOAT32X1 == int(Format::float32x1));
static_assert(DRAWPIPE_FORMAT_FLOAT32X2 == int(Format::float32x2));
static_assert(DRAWPIPE_FORMAT_FLOAT32X3 == int(Format::float32x3));
static_assert(DRAWPIPE_FORMAT_FLOAT32X4 == int(Format::float32x4));
static_assert(DRAWPIPE_FORMAT_UINT32X1 == int(Format::uint32x1));
static_assert(DRAWPIPE_FORMAT_UINT32X2 == int(Format::uint32x2));
static_assert(DRAWPIPE_FORMAT_UINT32X3 == int(Format::uint32x3));
static_assert(DRAWPIPE_FORMAT_UINT32X4 == int(Format::uint32x4));
static_assert(DRAWPIPE_FORMAT_SINT32X1 == int(Format::sint32x1));
static_assert(DRAWPIPE_FORMAT_SINT32X2 == int(Format::sint32x2));
static_assert(DRAWPIPE_FORMAT_SINT32X3 == int(Format::sint32x3));
static_assert(DRAWPIPE_FORMAT_SINT32X4 == int(Format::sint32x4));
static_assert(DRAWPIPE_FORMAT_FLOAT16X1 == int(Format::float16x1));
static_assert(DRAWPIPE_FORMAT_FLOAT16X2 == int(Format::float16x2));
static_assert(DRAWPIPE_FORMAT_FLOAT16X3 == int(Format::float16x3));
static_assert(DRAWPIPE_FORMAT_FLOAT16X4 == int(Format::float16x4));
static_assert(DRAWPIPE_FORMAT_FLOAT64X1 == int(Format::float64x1));
static_assert(DRAWPIPE_FORMAT_FLOAT64X2 == int(Format::float64x2));
static_assert(DRAWPIPE_FORMAT_FLOAT64X3 == int(Format::float64x3));
static_assert(DRAWPIPE_FORMAT_FLOAT64X4 == int(Format::float64x4));
static_assert(DRAWPIPE_FORMAT_FIXED32X1 == int(Format::fixed32x1));
static_assert(DRAWPIPE_FORMAT_FIXED32X2 == int(Format::fixed32x2));
static_assert(DRAWPIPE_FORMAT_FIXED32X3 == int(Format::fixed32x3));
static_assert(DRAWPIPE_FORMAT_FIXED32X4 == int(Format::fixed32x4));
static_assert(DRAWPIPE_FORMAT_UNORM8X1 == int(Format::unorm8x1));
static_assert(DRAWPIPE_FORMAT_UNORM8X2 == int(Format::unorm8x2));
static_assert(DRAWPIPE_FORMAT_UNORM8X3 == int(Format::unorm8x3));
static_assert(DRAWPIPE_FORMAT_UNORM8X4 == int(Format::unorm8x4));
static_assert(DRAWPIPE_FORMAT_UNORM16X1 == int(Format::unorm16x1));
static_assert(DRAWPIPE_FORMAT_UNORM16X2 == int(Format::unorm16x2));
static_assert(DRAWPIPE_FORMAT_UNORM16X3 == int(Format::unorm16x3));
static_assert(DRAWPIPE_FORMAT_UNORM16X4 == int(Format::unorm16x4));
static_assert(DRAWPIPE_FORMAT_UNORM32X1 == int(Format::unorm32x1));
static_assert(DRAWPIPE_FORMAT_UNORM32X2 == int(Format::unorm32x2));
static_assert(DRAWPIPE_FORMAT_UNORM32X3 == int(Format::unorm32x3));
static_assert(DRAWPIPE_FORMAT_UNORM32X4 == int(Format::unorm32x4));
static_assert(DRAWPIPE_FORMAT_SNORM8X1 == int(Format::snorm8x1));
static_assert(DRAWPIPE_FORMAT_SNORM8X2 == int(Format::snorm8x2));
static_assert(DRAWPIPE_FORMAT_SNORM8X3 == int(Format::snorm8x3));
static_assert(DRAWPIPE_FORMAT_SNORM8X4 == int(Format::snorm8x4));
static_assert(DRAWPIPE_FORMAT_SNORM16X1 == int(Format::snorm16x1));
static_assert(DRAWPIPE_FORMAT_SNORM16X2 == int(Format::snorm16x2));
static_assert(DRAWPIPE_FORMAT_SNORM16X3 == int(Format::snorm16x3));
static_assert(DRAWPIPE_FORMAT_SNORM16X4 == int(Format::snorm16x4));
static_assert(DRAWPIPE_FORMAT_SNORM32X1 == int(Format::snorm32x1));
static_assert(DRAWPIPE_FORMAT_SNORM32X2 == int(Format::snorm32x2));
static_assert(DRAWPIPE_FORMAT_SNORM32X3 == int(Format::snorm32x3));
static_assert(DRAWPIPE_FORMAT_SNORM32X4 == int(Format::snorm32x4));
static_assert(DRAWPIPE_FORMAT_USCALED8X1 == int(Format::uscaled8x1));
static_assert(DRAWPIPE_FORMAT_USCALED8X2 == int(Format::uscaled8x2));
static_assert(DRAWPIPE_FORMAT_USCALED8X3 == int(Format::uscaled8x3));
static_assert(DRAWPIPE_FORMAT_USCALED8X4 == int(Format::uscaled8x4));
static_assert(DRAWPIPE_FORMAT_USCALED16X1 == int(Format::uscaled16x1));
static_assert(DRAWPIPE_FORMAT_USCALED16X2 == int(Format::uscaled16x2));
static_assert(DRAWPIPE_FORMAT_USCALED16X3 == int(Format::uscaled16x3));
static_assert(DRAWPIPE_FORMAT_USCALED16X4 == int(Format::uscaled16x4));
static_assert(DRAWPIPE_FORMAT_USCALED32X1 == int(Format::uscaled32x1));
static_assert(DRAWPIPE_FORMAT_USCALED32X2 == int(Format::uscaled32x2));
static_assert(DRAWPIPE_FORMAT_USCALED32X3 == int(Format::uscaled32x3));
static_assert(DRAWPIPE_FORMAT_USCALED32X4 == int(Format::uscaled32x4));
static_assert(DRAWPIPE_FORMAT_SSCALED8X1 == int(Format::sscaled8x1));
static_assert(DRAWPIPE_FORMAT_SSCALED8X2 == int(Format::sscaled8x2));
static_assert(DRAWPIPE_FORMAT_SSCALED8X3 == int(Format::sscaled8x3));
static_assert(DRAWPIPE_FORMAT_SSCALED8X4 == int(Format::sscaled8x4));
static_assert(DRAWPIPE_FORMAT_SSCALED16X1 == int(Format::sscaled16x1));
static_assert(DRAWPIPE_FORMAT_SSCALED16X2 == int(Format::sscaled16x2));
static_assert(DRAWPIPE_FORMAT_SSCALED16X3 == int(Format::sscaled16x3));
static_assert(DRAWPIPE_FORMAT_SSCALED16X4 == int(Format::sscaled16x4));
static_assert(DRAWPIPE_FORMAT_SSCALED32X1 == int(Format::sscaled32x1));
static_assert(DRAWPIPE_FORMAT_SSCALED32X2 == int(Format::sscaled32x2));
static_assert(DRAWPIPE_FORMAT_SSCALED32X3 == int(Format::sscaled32x3));
static_assert(DRAWPIPE_FORMAT_SSCALED32X4 == int(Format::sscaled32x4));
static_assert(DRAWPIPE_FORMAT_UINT8X1 == int(Format::uint8x1));
static_assert(DRAWPIPE_FORMAT_UINT8X2 == int(Format::uint8x2));
static_assert(DRAWPIPE_FORMAT_UINT8X3 == int(Format::uint8x3));
static_assert(DRAWPIPE_FORMAT_UINT8X4 == int(Format::uint8x4));
static_assert(DRAWPIPE_FORMAT_UINT16X1 == int(Format::uint16x1));
static_assert(DRAWPIPE_FORMAT_UINT16X2 == int(Format::uint16x2));
static_assert(DRAWPIPE_FORMAT_UINT16X3 == int(Format::uint16x3));
static_assert(DRAWPIPE_FORMAT_UINT16X4 == int(Format::uint16x4));
static_assert(DRAWPIPE_FORMAT_SINT8X1 == int(Format::sint8x1));
static_assert(DRAWPIPE_FORMAT_SINT8X2 == int(Format::sint8x2));
static_assert(DRAWPIPE_FORMAT_SINT8X3 == int(Format::sint8x3));
static_assert(DRAWPIPE_FORMAT_SINT8X4 == int(Format::sint8x4));
static_assert(DRAWPIPE_FORMAT_SINT16X1 == int(Format::sint16x1));
static_assert(DRAWPIPE_FORMAT_SINT16X2 == int(Format::sint16x2));
static_assert(DRAWPIPE_FORMAT_SINT16X3 == int(Format::sint16x3));
static_assert(DRAWPIPE_FORMAT_SINT16X4 == int(Format::sint16x4));
static_assert(DRAWPIPE_FORMAT_UNORM10_10_10_2 == int(Format::unorm10_10_10_2));
static_assert(DRAWPIPE_FORMAT_SNORM10_10_10_2 == int(Format::snorm10_10_10_2));
static_assert(DRAWPIPE_FORMAT_USCALED10_10_10_2 == int(Format::uscaled10_10_10_2));
static_assert(DRAWPIPE_FORMAT_SSCALED10_10_10_2 == int(Format::sscaled10_10_10_2));
static_assert(DRAWPIPE_FORMAT_UFLOAT11_11_10 == int(Format::ufloat11_11_10));
static_assert(DRAWPIPE_FORMAT_BGRA_UNORM8X4 == int(Format::bgra_unorm8x4));
static_assert(DRAWPIPE_FORMAT_BGRA_UNORM10_10_10_2 == int(Format::bgra_unorm10_10_10_2));
static_assert(DRAWPIPE_FORMAT_BGRA_SNORM10_10_10_2 == int(Format::bgra_snorm10_10_10_2));
// clang-format on
static_assert(DRAWPIPE_FORMAT_BGRA_SNORM10_10_10_2 + 1 == kFormatCount);
static_assert(DRAWPIPE_PRIM_PATCHES == int(Prim::patches));
static_assert(DRAWPIPE_PRIM_QUAD_STRIP == int(Prim::quad_strip));
static_assert(DRAWPIPE_INDEX_U32 == int(IndexType::u32));
static_assert(DRAWPIPE_PROVOKING_LAST == int(Provoking::last));
static_assert(DRAWPIPE_VALUE_UINT32 == int(ValueType::uint32));
static_assert(DRAWPIPE_INTERP_NOPERSPECTIVE == int(Interp::noperspective));
static_assert(DRAWPIPE_POLYGON_POINT == int(PolygonMode::point));
static_assert(DRAWPIPE_CULL_FRONT_AND_BACK == int(CullFace::front_and_back));
static_assert(DRAWPIPE_FRONT_CW == int(FrontFace::cw));
static_assert(DRAWPIPE_CLIP_UPPER_LEFT == int(ClipOrigin::upper_left));
static_assert(DRAWPIPE_CLIP_ZERO_TO_ONE == int(ClipDepth::zero_to_one));
static_assert(DRAWPIPE_MAX_VIEWPORTS == kMaxViewports);
static_assert(DRAWPIPE_MAX_TWO_SIDE_COLORS == kMaxTwoSideColors);
static_assert(DRAWPIPE_SLOT_DRAW_ID == SLOT_DRAW_ID);
static_assert(DRAWPIPE_CAPTURE_GS_ID == int(CaptureSource::gs_id));
static_assert(DRAWPIPE_CAPTURE_DRAW_ID == int(CaptureSource::draw_id));
static_assert(DRAWPIPE_CAPTURE_TESS_COORD == int(CaptureSource::tess_coord));
static_assert(DRAWPIPE_TESS_ISOLINES == int(TessMode::isolines));
static_assert(DRAWPIPE_TESS_FRACTIONAL_ODD == int(TessSpacing::fractional_odd));
static_assert(DRAWPIPE_TESS_CW == int(TessWinding::cw));
static_assert(DRAWPIPE_MAX_PATCH_VERTICES == kMaxPatchVertices);
static_assert(DRAWPIPE_MAX_PATCH_OUTPUTS == kMaxPatchOutputs);
static_assert(DRAWPIPE_TESS_CONTROL_BLOCK == kTessControlBlock);
static_assert(DRAWPIPE_SLOT_TESS_PATCH == SLOT_VERTEX_ID &&
              DRAWPIPE_SLOT_TESS_INSTANCE == SLOT_INSTANCE_ID);
static_assert(DRAWPIPE_CAPTURE_SEPARATE == int(CaptureMode::separate));
static_assert(DRAWPIPE_MAX_VARYINGS == kMaxVaryings);
static_assert(DRAWPIPE_MAX_CLIP_DISTANCES == kMaxClipDistances);
static_assert(DRAWPIPE_SHADER_LANES == kShaderLanes);
static_assert(DRAWPIPE_VERTEX_HEADER_DWORDS == kVertexHeaderDwords);
static_assert(DRAWPIPE_SLOT_POSITION == SLOT_POSITION && DRAWPIPE_SLOT_GS_ID == SLOT_GS_ID);
static_assert(sizeof(drawpipe_draw_stats::counters) / sizeof(uint64_t) == kMaxCounters);
static_assert(sizeof(drawpipe_stream_output_state::buffers) /
                  sizeof(drawpipe_stream_output_buffer) ==
              kMaxStreamOutputBuffers);
static_assert(kMaxVertexStreams == 4);

thread_local std::string t_last_error;

// The context whose callback this thread is running, and the callback's name: a call on that
// context from inside it is refused (live), since it would change the queue being drawn.
thread_local const void* t_callback_context = nullptr;
thread_local const char* t_callback = nullptr;

// Marks the calling thread as inside `name` of `context` while it lasts (nested ones restore).
class InCallback {
  public:
    InCallback(const void* context, const char* name)
        : context_(t_callback_context), name_(t_callback) {
        t_callback_context = context;
        t_callback = name;
    }
    ~InCallback() {
        t_callback_context = context_;
        t_callback = name_;
    }
    InCallback(const InCallback&) = delete;
    InCallback& operator=(const InCallback&) = delete;

  private:
    const void* context_;
    const char* name_;
};

drawpipe_status status_of(ErrorCode code) {
    switch (code) {
    case ErrorCode::invalid_value:
        return DRAWPIPE_ERROR_INVALID_VALUE;
    case ErrorCode::index_buffer_overrun:
        return DRAWPIPE_ERROR_INDEX_BUFFER_OVERRUN;
    case ErrorCode::count_overflow:
        return DRAWPIPE_ERROR_COUNT_OVERFLOW;
    case ErrorCode::base_vertex_overflow:
        return DRAWPIPE_ERROR_BASE_VERTEX_OVERFLOW;
    case ErrorCode::limit_too_small:
        return DRAWPIPE_ERROR_LIMIT_TOO_SMALL;
    case ErrorCode::index_range_mismatch:
        return DRAWPIPE_ERROR_INDEX_RANGE_MISMATCH;
    case ErrorCode::middle_end_failure:
        return DRAWPIPE_ERROR_MIDDLE_END_FAILURE;
    case ErrorCode::unsupported:
        return DRAWPIPE_ERROR_UNSUPPORTED;
    case ErrorCode::parse_error:
        return DRAWPIPE_ERROR_PARSE;
    case ErrorCode::not_found:
        return DRAWPIPE_ERROR_NOT_FOUND;
    case ErrorCode::invalid_operation:
        return DRAWPIPE_ERROR_INVALID_OPERATION;
    case ErrorCode::io_error:
        return DRAWPIPE_ERROR_IO;
    }
    return DRAWPIPE_ERROR_INTERNAL;
}

drawpipe_status fail(const char* function, drawpipe_status status, const char* what) {
    try {
        t_last_error = std::string(function) + ": " + what;
    } catch (...) { // no memory for the text: keep the status, drop the words
        t_last_error.clear();
    }
    return status;
}

// Runs `body`, turning whatever it throws into a status; `function` prefixes the text.
template <class Body> drawpipe_status guarded(const char* function, Body&& body) noexcept {
    try {
        body();
        return DRAWPIPE_OK;
    } catch (const Error& e) {
        return fail(function, status_of(e.code()), e.what());
    } catch (const std::bad_alloc&) {
        return fail(function, DRAWPIPE_ERROR_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(function, DRAWPIPE_ERROR_INTERNAL, e.what());
    } catch (...) {
        return fail(function, DRAWPIPE_ERROR_INTERNAL, "unknown exception");
    }
}

void need(const void* pointer, const char* what) {
    if (!pointer) throw Error(ErrorCode::invalid_value, std::string(what) + " is NULL");
}

// A C enum field may hold any int: one past the C++ enum's range must not wrap into it. The
// field is read as the int it is stored as, since reading a C enum type holding a value
// outside its enumerators is undefined in C++ (what C allows is not what C++ may load).
template <class E, class CEnum> E checked_enum(const CEnum& field, int count, const char* what) {
    static_assert(std::is_enum_v<CEnum> && sizeof(CEnum) == sizeof(int));
    int value;
    std::memcpy(&value, &field, sizeof value);
    if (value < 0 || value >= count)
        throw Error(ErrorCode::invalid_value,
                    std::string(what) + ": " + std::to_string(value) + " is not a valid value");
    return E(value);
}

Prim to_prim(const drawpipe_prim& p, const char* what) {
    return checked_enum<Prim>(p, int(Prim::patches) + 1, what);
}

DrawInfo to_draw(const drawpipe_draw_info& c) {
    DrawInfo d;
    d.prim = to_prim(c.prim, "draw.prim");
    d.index_type = checked_enum<IndexType>(c.index_type, 4, "draw.index_type");
    d.indices = c.indices;
    d.index_buffer_count = c.index_buffer_count;
    d.start = c.start;
    d.count = c.count;
    d.base_vertex = c.base_vertex;
    d.primitive_restart = c.primitive_restart;
    d.restart_index = c.restart_index;
    d.instance_count = c.instance_count;
    d.base_instance = c.base_instance;
    d.provoking = checked_enum<Provoking>(c.provoking, 2, "draw.provoking");
    if (c.has_index_range) d.index_range = IndexRange{c.index_min, c.index_max};
    d.draw_id = c.draw_id;
    d.patch_vertices = c.patch_vertices;
    return d;
}

drawpipe_draw_info from_draw(const DrawInfo& d) {
    drawpipe_draw_info c{};
    c.prim = drawpipe_prim(d.prim);
    c.index_type = drawpipe_index_type(d.index_type);
    c.indices = d.indices;
    c.index_buffer_count = d.index_buffer_count;
    c.start = d.start;
    c.count = d.count;
    c.base_vertex = d.base_vertex;
    c.primitive_restart = d.primitive_restart;
    c.restart_index = d.restart_index;
    c.instance_count = d.instance_count;
    c.base_instance = d.base_instance;
    c.provoking = drawpipe_provoking(d.provoking);
    c.has_index_range = d.index_range.has_value();
    if (d.index_range) c.index_min = d.index_range->min, c.index_max = d.index_range->max;
    c.draw_id = d.draw_id;
    c.patch_vertices = d.patch_vertices;
    return c;
}

ShaderOutputs to_outputs(const drawpipe_shader_outputs& c, const char* what) {
    if (c.varying_count > kMaxVaryings)
        throw Error(ErrorCode::invalid_value,
                    std::string(what) + ".varying_count: " + std::to_string(c.varying_count) +
                        " exceeds " + std::to_string(kMaxVaryings));
    ShaderOutputs o;
    for (uint32_t i = 0; i < c.varying_count; ++i) {
        const drawpipe_varying& v = c.varyings[i];
        if (v.components > 4)
            throw Error(ErrorCode::invalid_value,
                        std::string(what) + ".varyings[" + std::to_string(i) +
                            "].components: " + std::to_string(v.components) + " exceeds 4");
        o.add_varying({checked_enum<ValueType>(v.type, 3, "varying type"),
                       checked_enum<Interp>(v.interp, 3, "varying interp"),
                       uint8_t(v.components ? v.components : 4)});
    }
    o.point_size = c.point_size;
    o.clip_distances = c.clip_distances;
    o.layer = c.layer;
    o.viewport_index = c.viewport_index;
    validate_outputs(o);
    return o;
}

drawpipe_shader_outputs from_outputs(const ShaderOutputs& o) {
    drawpipe_shader_outputs c{};
    c.varying_count = o.varying_count;
    for (uint32_t i = 0; i < o.varying_count; ++i)
        c.varyings[i] = {drawpipe_value_type(o.varyings[i].type),
                         drawpipe_interp(o.varyings[i].interp), o.varyings[i].components};
    c.point_size = o.point_size;
    c.clip_distances = o.clip_distances;
    c.layer = o.layer;
    c.viewport_index = o.viewport_index;
    return c;
}

TessLevels to_levels(const drawpipe_tess_levels& c) {
    TessLevels l;
    std::copy_n(c.outer, 4, l.outer.begin());
    std::copy_n(c.inner, 2, l.inner.begin());
    return l;
}

drawpipe_tess_levels from_levels(const TessLevels& l) {
    drawpipe_tess_levels c;
    std::copy_n(l.outer.begin(), 4, c.outer);
    std::copy_n(l.inner.begin(), 2, c.inner);
    return c;
}

// The control block is the C++ one field by field, but for the levels: C reads and writes a
// copy in its own struct (at most a block's worth), written back after the call.
void run_control(drawpipe_tcs_fn run, void* user, const TessControlBlock& b, const void* owner) {
    std::array<drawpipe_tess_levels, kTessControlBlock> small;
    std::vector<drawpipe_tess_levels> large; // a block is never larger; kept safe anyway
    drawpipe_tess_levels* levels = small.data();
    if (b.count > small.size()) {
        large.resize(b.count);
        levels = large.data();
    }
    for (uint32_t p = 0; p < b.count; ++p) levels[p] = from_levels(b.levels[p]);
    const drawpipe_tess_control_block c{
        b.count,        b.in_vertices,   b.in_stride,    b.in,
        b.primitive_id, b.instance,      b.out_vertices, b.out_stride,
        b.out,          b.patch_outputs, b.patch_out,    levels};
    {
        const InCallback in(owner, "tess control shader");
        run(user, &c);
    }
    for (uint32_t p = 0; p < b.count; ++p) b.levels[p] = to_levels(levels[p]);
}

// The driver's callback table as a drawpipe::Backend.
class CBackend final : public Backend {
  public:
    drawpipe_backend table{};
    const void* owner = nullptr; // the context it is bound to (InCallback)

    void begin_draw(const DrawInfo& draw, const VertexLayout& layout) override {
        const drawpipe_draw_info c_draw = from_draw(draw);
        drawpipe_vertex_layout c_layout{};
        c_layout.outputs = from_outputs(layout.outputs);
        c_layout.gs_output = layout.gs_output;
        c_layout.tess_output = layout.tess_output;
        c_layout.stride = layout.stride();
        c_layout.point_size_slot = layout.point_size_slot();
        c_layout.clip_distance_slot = layout.clip_distance_slot();
        c_layout.layer_slot = layout.layer_slot();
        c_layout.viewport_slot = layout.viewport_slot();
        const InCallback in(owner, "backend begin_draw");
        if (table.begin_draw) table.begin_draw(table.user, &c_draw, &c_layout);
    }
    void draw_elements(Prim prim, uint8_t flags, const VertexView& vertices,
                       std::span<const uint32_t> elts) override {
        const drawpipe_vertex_view view{vertices.data, vertices.count, vertices.stride};
        const InCallback in(owner, "backend draw_elements");
        table.draw_elements(table.user, drawpipe_prim(prim), flags, &view, elts.data(),
                            uint32_t(elts.size()));
    }
    void end_draw() override {
        const InCallback in(owner, "backend end_draw");
        if (table.end_draw) table.end_draw(table.user);
    }
};

// What a handle names: the context and what the C side handed it, which the context only
// points at. The context is the last member so that it is destroyed first, while its backend
// and geometry shader still exist (its destructor delivers the queued draws).
struct CContext {
    CBackend backend;
    std::unique_ptr<GeometryShader> gs;
    std::vector<std::string> counter_names;
    Context ctx;

    explicit CContext(const ContextOptions& options) : ctx(options) { backend.owner = this; }

    void bind_middle_end(const char* name) {
        std::shared_ptr<const MiddleEnd> middle = MiddleEndRegistry::global().find(name);
        std::vector<std::string> names;
        for (std::string_view n : middle->counters()) names.emplace_back(n);
        ctx.bind_middle_end(std::move(middle));
        counter_names = std::move(names);
    }
};

// Every live context's handle (drawpipe_context* is the handle's value, never a pointer to
// memory); left alive at exit, so that a handle used then is still refused, not a crash.
capi::HandleTable<CContext>& handles() {
    static auto* table = new capi::HandleTable<CContext>();
    return *table;
}

uintptr_t handle_value(const drawpipe_context* ctx) {
    return reinterpret_cast<uintptr_t>(ctx);
}

// The context `ctx` names; Error(invalid_value) for NULL and for a handle destroyed or never
// made, Error(invalid_operation) from inside one of the context's own callbacks.
CContext* live(const drawpipe_context* ctx) {
    need(ctx, "ctx");
    CContext* c = handles().find(handle_value(ctx));
    if (!c)
        throw Error(ErrorCode::invalid_value,
                    "ctx: not a live context (destroyed already, or never made by "
                    "drawpipe_context_create)");
    if (t_callback_context == c)
        throw Error(ErrorCode::invalid_operation,
                    std::string("called on the context from inside its ") + t_callback +
                        " callback; a callback must not call back into its context");
    return c;
}

} // namespace

// The GS callbacks get the executor's GsContext behind the opaque handle.
struct drawpipe_gs_context {};

namespace {

GsContext& gs_of(drawpipe_gs_context* gs) {
    return *reinterpret_cast<GsContext*>(gs);
}
const GsContext& gs_of(const drawpipe_gs_context* gs) {
    return *reinterpret_cast<const GsContext*>(gs);
}

} // namespace

extern "C" {

const char* drawpipe_last_error(void) {
    return t_last_error.c_str();
}

const char* drawpipe_status_name(drawpipe_status status) {
    int value; // read as stored: C may pass any int (see checked_enum)
    std::memcpy(&value, &status, sizeof value);
    if (value == DRAWPIPE_OK) return "ok";
    if (value == DRAWPIPE_ERROR_OUT_OF_MEMORY) return "out_of_memory";
    if (value == DRAWPIPE_ERROR_INTERNAL) return "internal";
    if (value > DRAWPIPE_OK && value <= DRAWPIPE_ERROR_IO)
        return error_code_name(ErrorCode(value - 1));
    return "unknown";
}
static_assert(DRAWPIPE_ERROR_INVALID_VALUE - 1 == int(ErrorCode::invalid_value));
static_assert(DRAWPIPE_ERROR_IO - 1 == int(ErrorCode::io_error));

void drawpipe_draw_info_init(drawpipe_draw_info* info) {
    if (info) *info = from_draw(DrawInfo{});
}

void drawpipe_raster_state_init(drawpipe_raster_state* state) {
    if (!state) return;
    const RasterState d;
    *state = drawpipe_raster_state{};
    state->viewport_x = d.viewport.x;
    state->viewport_y = d.viewport.y;
    state->viewport_width = d.viewport.width;
    state->viewport_height = d.viewport.height;
    state->depth_near = d.viewport.near;
    state->depth_far = d.viewport.far;
    state->stipple_factor = d.stipple_factor;
    state->stipple_pattern = d.stipple_pattern;
    state->line_width = d.line_width;
    state->wide_line_threshold = d.wide_line_threshold;
    state->point_size = d.point_size;
    state->sprite_coord_varying = d.sprite_coord_varying;
    state->edge_flag_varying = d.edge_flag_varying;
    state->clip_vertex_varying = d.clip_vertex_varying;
    state->front_face_varying = d.front_face_varying;
    state->viewport_count = d.viewport_count;
    for (uint32_t i = 0; i + 1 < kMaxViewports; ++i) {
        const Viewport& v = d.extra_viewports[i];
        state->extra_viewports[i] = {v.x, v.y, v.width, v.height, v.near, v.far};
    }
    for (uint32_t i = 0; i < kMaxTwoSideColors; ++i)
        state->two_side_colors[i] = {d.two_side_colors[i].front, d.two_side_colors[i].back};
}

uint32_t drawpipe_gs_vertex_count(const drawpipe_gs_context* gs) {
    return gs_of(gs).vertex_count();
}
uint32_t drawpipe_gs_load(drawpipe_gs_context* gs, uint32_t vertex, uint32_t slot) {
    return gs_of(gs).load(vertex, slot);
}
uint32_t drawpipe_gs_primitive_id(const drawpipe_gs_context* gs) {
    return gs_of(gs).primitive_id_in();
}
uint32_t drawpipe_gs_invocation_id(const drawpipe_gs_context* gs) {
    return gs_of(gs).invocation_id();
}
void drawpipe_gs_emit(drawpipe_gs_context* gs, uint32_t stream, const drawpipe_gs_output* out) {
    GsOutput o;
    o.id = out->id;
    o.layer = out->layer;
    o.viewport = out->viewport;
    for (int c = 0; c < 4; ++c) o.position[c] = out->position[c];
    o.point_size = out->point_size;
    for (uint32_t i = 0; i < kMaxClipDistances; ++i) o.clip_distance[i] = out->clip_distance[i];
    for (uint32_t i = 0; i < kMaxVaryings; ++i)
        for (int c = 0; c < 4; ++c) o.varyings[i][c] = out->varyings[i][c];
    gs_of(gs).emit_stream_vertex(stream, o);
}
void drawpipe_gs_end_primitive(drawpipe_gs_context* gs, uint32_t stream) {
    gs_of(gs).end_stream_primitive(stream);
}

drawpipe_status drawpipe_context_create(const drawpipe_context_options* options,
                                        drawpipe_context** out) {
    return guarded("drawpipe_context_create", [&] {
        need(out, "out");
        *out = nullptr;
        ContextOptions o;
        if (options) {
            o.threads = options->threads;
            o.draw.max_vertices = options->max_vertices;
            o.draw.robust_indices = options->robust_indices;
            if (options->strategy) {
                const std::optional<Strategy> s = Strategy::parse(options->strategy);
                if (!s)
                    throw Error(ErrorCode::not_found,
                                std::string("strategy: unknown name '") + options->strategy + "'");
                o.draw.strategy = *s;
            }
        }
        register_builtin_middle_ends();
        auto ctx = std::make_unique<CContext>(o);
        ctx->bind_middle_end("fetch_shade");
        *out = reinterpret_cast<drawpipe_context*>(handles().add(ctx.get()));
        ctx.release(); // the table's now
    });
}

drawpipe_status drawpipe_context_destroy(drawpipe_context* ctx) {
    if (!ctx) return DRAWPIPE_OK; // as free(NULL)
    CContext* c = nullptr;
    const drawpipe_status status = guarded("drawpipe_context_destroy", [&] {
        CContext* const l = live(ctx); // refused from its own callback: nothing is freed then
        c = l;
        (void)c->ctx.flush();
    });
    // Not live (destroyed already, or never made): refused above, nothing read or freed.
    if (!c || handles().remove(handle_value(ctx)) != c) return status;
    delete c; // nothing is queued any more: the destructor delivers nothing, throws nothing
    return status;
}

drawpipe_status drawpipe_context_threads(const drawpipe_context* ctx, uint32_t* threads) {
    return guarded("drawpipe_context_threads", [&] {
        CContext* const c = live(ctx);
        need(threads, "threads");
        *threads = c->ctx.threads();
    });
}

drawpipe_status drawpipe_set_vertex_buffers(drawpipe_context* ctx,
                                            const drawpipe_vertex_buffer* buffers, uint32_t count) {
    return guarded("drawpipe_set_vertex_buffers", [&] {
        CContext* const c = live(ctx);
        if (count) need(buffers, "buffers");
        std::vector<VertexBuffer> b(count);
        for (uint32_t i = 0; i < count; ++i)
            b[i] = {buffers[i].data, buffers[i].size, buffers[i].stride, buffers[i].offset};
        c->ctx.set_vertex_buffers(b);
    });
}

drawpipe_status drawpipe_set_vertex_attribs(drawpipe_context* ctx,
                                            const drawpipe_vertex_attrib* attribs, uint32_t count) {
    return guarded("drawpipe_set_vertex_attribs", [&] {
        CContext* const c = live(ctx);
        if (count) need(attribs, "attribs");
        std::vector<VertexAttrib> a(count);
        for (uint32_t i = 0; i < count; ++i) {
            const drawpipe_vertex_attrib& c = attribs[i];
            a[i].buffer = c.buffer;
            a[i].offset = c.offset;
            a[i].format = checked_enum<Format>(c.format, kFormatCount, "attrib format");
            a[i].divisor = c.divisor;
            a[i].enabled = !c.disabled;
            a[i].current_type = checked_enum<ValueType>(c.current_type, 3, "attrib current_type");
            for (int k = 0; k < 4; ++k) a[i].current[k] = c.current[k];
        }
        c->ctx.set_vertex_attribs(a);
    });
}

drawpipe_status drawpipe_bind_vertex_shader(drawpipe_context* ctx,
                                            const drawpipe_shader_outputs* outputs,
                                            drawpipe_vs_fn run, void* user) {
    return guarded("drawpipe_bind_vertex_shader", [&] {
        CContext* const c = live(ctx);
        if (!run) return c->ctx.bind_vertex_shader({});
        need(outputs, "outputs");
        VertexShader vs;
        vs.outputs = to_outputs(*outputs, "outputs");
        // The block is the C++ one field by field: copying it costs nothing per vertex.
        vs.run = [run, user, owner = c](const ShaderBlock& b) {
            const drawpipe_shader_block block{b.count,       b.in_count, b.out_count, b.vertex_id,
                                              b.instance_id, b.in,       b.out,       b.draw_id};
            const InCallback in(owner, "vertex shader");
            run(user, &block);
        };
        c->ctx.bind_vertex_shader(std::move(vs));
    });
}

drawpipe_status drawpipe_bind_geometry_shader(drawpipe_context* ctx,
                                              const drawpipe_geometry_shader* gs) {
    return guarded("drawpipe_bind_geometry_shader", [&] {
        CContext* const c = live(ctx);
        if (!gs) {
            c->ctx.bind_geometry_shader(nullptr);
            c->gs.reset();
            return;
        }
        need(reinterpret_cast<const void*>(gs->main), "gs->main");
        auto g = std::make_unique<GeometryShader>();
        g->name = gs->name ? gs->name : "c_geometry_shader";
        g->input = to_prim(gs->input, "gs->input");
        g->output = to_prim(gs->output, "gs->output");
        g->max_vertices = gs->max_vertices;
        g->invocations = gs->invocations;
        g->streams = gs->streams;
        g->outputs = to_outputs(gs->outputs, "gs->outputs");
        g->input_varyings = gs->input_varyings;
        g->independent_vertices = gs->independent_vertices;
        g->uses_end_primitive = gs->uses_end_primitive;
        g->main = [main = gs->main, user = gs->user, owner = c](GsContext& gc) {
            const InCallback in(owner, "geometry shader");
            main(user, reinterpret_cast<drawpipe_gs_context*>(&gc));
        };
        validate_gs(*g);
        // Binding delivers the draws queued with the old shader first; only then may it go.
        c->ctx.bind_geometry_shader(g.get());
        c->gs = std::move(g);
    });
}

drawpipe_status drawpipe_bind_tess_control_shader(drawpipe_context* ctx,
                                                  const drawpipe_tess_control_shader* tcs) {
    return guarded("drawpipe_bind_tess_control_shader", [&] {
        CContext* const c = live(ctx);
        if (!tcs) return c->ctx.bind_tess_control({});
        need(reinterpret_cast<const void*>(tcs->run), "tcs->run");
        TessControlShader t;
        t.vertices = tcs->vertices; // 1-32, with patch_outputs, checked at the draw as in C++
        t.outputs = to_outputs(tcs->outputs, "tcs->outputs");
        t.patch_outputs = tcs->patch_outputs;
        t.run = [run = tcs->run, user = tcs->user, owner = c](const TessControlBlock& b) {
            run_control(run, user, b, owner);
        };
        c->ctx.bind_tess_control(std::move(t));
    });
}

drawpipe_status drawpipe_bind_tess_eval_shader(drawpipe_context* ctx,
                                               const drawpipe_tess_eval_shader* tes) {
    return guarded("drawpipe_bind_tess_eval_shader", [&] {
        CContext* const c = live(ctx);
        if (!tes) return c->ctx.bind_tess_eval({});
        need(reinterpret_cast<const void*>(tes->run), "tes->run");
        TessEvalShader t;
        t.state.mode = checked_enum<TessMode>(tes->mode, 3, "tes->mode");
        t.state.spacing = checked_enum<TessSpacing>(tes->spacing, 3, "tes->spacing");
        t.state.winding = checked_enum<TessWinding>(tes->winding, 2, "tes->winding");
        t.state.point_mode = tes->point_mode;
        t.outputs = to_outputs(tes->outputs, "tes->outputs");
        // The block is the C++ one field by field, the levels copied by value as in C++.
        t.run = [run = tes->run, user = tes->user, owner = c](const TessEvalBlock& b) {
            const drawpipe_tess_eval_block block{b.count,
                                                 b.u,
                                                 b.v,
                                                 b.w,
                                                 b.primitive_id,
                                                 b.instance,
                                                 b.patch_vertices,
                                                 b.cp_stride,
                                                 b.control_points,
                                                 b.patch_in,
                                                 from_levels(b.levels),
                                                 b.out_count,
                                                 b.out};
            const InCallback in(owner, "tess evaluation shader");
            run(user, &block);
        };
        c->ctx.bind_tess_eval(std::move(t));
    });
}

drawpipe_status drawpipe_set_patch_default_levels(drawpipe_context* ctx,
                                                  const drawpipe_tess_levels* levels) {
    return guarded("drawpipe_set_patch_default_levels", [&] {
        CContext* const c = live(ctx);
        need(levels, "levels");
        c->ctx.set_patch_default_levels(to_levels(*levels));
    });
}

drawpipe_status drawpipe_bind_middle_end(drawpipe_context* ctx, const char* name) {
    return guarded("drawpipe_bind_middle_end", [&] {
        CContext* const c = live(ctx);
        need(name, "name");
        c->bind_middle_end(name);
    });
}

const char* drawpipe_counter_name(const drawpipe_context* ctx, uint32_t index) {
    const CContext* c = ctx ? handles().find(handle_value(ctx)) : nullptr;
    if (!c || index >= c->counter_names.size()) return nullptr;
    return c->counter_names[index].c_str();
}

drawpipe_status drawpipe_bind_backend(drawpipe_context* ctx, const drawpipe_backend* backend) {
    return guarded("drawpipe_bind_backend", [&] {
        CContext* const c = live(ctx);
        need(backend, "backend");
        need(reinterpret_cast<const void*>(backend->draw_elements), "backend->draw_elements");
        c->ctx.bind_backend(c->backend); // delivers the queue to the old table first
        c->backend.table = *backend;
    });
}

drawpipe_status drawpipe_set_raster_state(drawpipe_context* ctx,
                                          const drawpipe_raster_state* state) {
    return guarded("drawpipe_set_raster_state", [&] {
        CContext* const c = live(ctx);
        if (!state) return c->ctx.clear_raster_state();
        const drawpipe_raster_state& rs = *state;
        RasterState r;
        r.viewport = {rs.viewport_x,      rs.viewport_y, rs.viewport_width,
                      rs.viewport_height, rs.depth_near, rs.depth_far};
        r.front_face = checked_enum<FrontFace>(rs.front_face, 2, "raster.front_face");
        r.cull = checked_enum<CullFace>(rs.cull, 4, "raster.cull");
        r.front_mode = checked_enum<PolygonMode>(rs.front_mode, 3, "raster.front_mode");
        r.back_mode = checked_enum<PolygonMode>(rs.back_mode, 3, "raster.back_mode");
        r.flatshade = rs.flatshade;
        r.line_stipple = rs.line_stipple;
        r.stipple_factor = rs.stipple_factor;
        r.stipple_pattern = rs.stipple_pattern;
        r.line_width = rs.line_width;
        r.wide_line_threshold = rs.wide_line_threshold;
        r.point_size = rs.point_size;
        r.sprite_coord_varying = rs.sprite_coord_varying;
        r.sprite_origin_lower_left = rs.sprite_origin_lower_left;
        r.offset_factor = rs.offset_factor;
        r.offset_units = rs.offset_units;
        r.offset_fill = rs.offset_fill;
        r.offset_line = rs.offset_line;
        r.offset_point = rs.offset_point;
        r.offset_units_r = rs.offset_units_r;
        r.offset_clamp = rs.offset_clamp;
        r.clip_plane_enable = rs.clip_plane_enable;
        for (uint32_t i = 0; i < kMaxClipDistances; ++i)
            for (int k = 0; k < 4; ++k) r.clip_planes[i][k] = rs.clip_planes[i][k];
        r.edge_flag_varying = rs.edge_flag_varying;
        r.clip_vertex_varying = rs.clip_vertex_varying;
        r.front_face_varying = rs.front_face_varying;
        r.viewport_count = rs.viewport_count ? rs.viewport_count : 1; // zeroed: one viewport
        if (r.viewport_count > kMaxViewports)
            throw Error(ErrorCode::invalid_value,
                        "raster.viewport_count: " + std::to_string(rs.viewport_count) +
                            " is not 1-" + std::to_string(kMaxViewports));
        for (uint32_t i = 0; i + 1 < kMaxViewports; ++i) {
            const drawpipe_viewport& v = rs.extra_viewports[i];
            r.extra_viewports[i] = {v.x, v.y, v.width, v.height, v.depth_near, v.depth_far};
        }
        r.clip_origin = checked_enum<ClipOrigin>(rs.clip_origin, 2, "raster.clip_origin");
        r.clip_depth = checked_enum<ClipDepth>(rs.clip_depth, 2, "raster.clip_depth");
        r.depth_clamp = rs.depth_clamp;
        r.two_side = rs.two_side;
        for (uint32_t i = 0; i < kMaxTwoSideColors; ++i)
            r.two_side_colors[i] = {rs.two_side_colors[i].front, rs.two_side_colors[i].back};
        c->ctx.set_raster_state(r);
    });
}

drawpipe_status drawpipe_set_stream_output(drawpipe_context* ctx,
                                           const drawpipe_stream_output_state* state) {
    return guarded("drawpipe_set_stream_output", [&] {
        CContext* const c = live(ctx);
        if (!state) return c->ctx.clear_stream_output();
        if (state->output_count) need(state->outputs, "state->outputs");
        StreamOutputState s;
        s.mode = checked_enum<CaptureMode>(state->mode, 2, "stream output mode");
        for (uint32_t i = 0; i < state->output_count; ++i) {
            const drawpipe_captured_output& o = state->outputs[i];
            s.outputs.push_back({checked_enum<CaptureSource>(o.source, 11, "output source"),
                                 o.index, o.first_component, o.components, o.buffer, o.offset,
                                 o.stream});
        }
        for (uint32_t b = 0; b < kMaxStreamOutputBuffers; ++b) {
            const drawpipe_stream_output_buffer& c = state->buffers[b];
            s.buffers[b] = {c.data, c.offset, c.size, c.stride};
        }
        c->ctx.set_stream_output(s);
    });
}

drawpipe_status drawpipe_begin_stream_output(drawpipe_context* ctx) {
    return guarded("drawpipe_begin_stream_output", [&] {
        CContext* const c = live(ctx);
        c->ctx.begin_stream_output();
    });
}

drawpipe_status drawpipe_pause_stream_output(drawpipe_context* ctx) {
    return guarded("drawpipe_pause_stream_output", [&] {
        CContext* const c = live(ctx);
        c->ctx.pause_stream_output();
    });
}

drawpipe_status drawpipe_resume_stream_output(drawpipe_context* ctx) {
    return guarded("drawpipe_resume_stream_output", [&] {
        CContext* const c = live(ctx);
        c->ctx.resume_stream_output();
    });
}

static void copy_counts(const StreamOutputCounts& from, drawpipe_stream_output_counts& to) {
    for (uint32_t s = 0; s < kMaxVertexStreams; ++s) {
        to.generated[s] = from.generated[s];
        to.written[s] = from.written[s];
    }
}

drawpipe_status drawpipe_get_stream_output_counts(drawpipe_context* ctx,
                                                  drawpipe_stream_output_counts* counts) {
    return guarded("drawpipe_get_stream_output_counts", [&] {
        CContext* const c = live(ctx);
        need(counts, "counts");
        copy_counts(c->ctx.stream_output_counts(), *counts);
    });
}

drawpipe_status drawpipe_end_stream_output(drawpipe_context* ctx,
                                           drawpipe_stream_output_counts* counts) {
    return guarded("drawpipe_end_stream_output", [&] {
        CContext* const c = live(ctx);
        const StreamOutputCounts n = c->ctx.end_stream_output();
        if (counts) copy_counts(n, *counts);
    });
}

drawpipe_status drawpipe_stream_output_written_bytes(drawpipe_context* ctx, uint32_t buffer,
                                                     size_t* bytes) {
    return guarded("drawpipe_stream_output_written_bytes", [&] {
        CContext* const c = live(ctx);
        need(bytes, "bytes");
        if (buffer >= kMaxStreamOutputBuffers)
            throw Error(ErrorCode::invalid_value,
                        "buffer: " + std::to_string(buffer) + " is past the last (3)");
        *bytes = c->ctx.stream_output_written_bytes(buffer);
    });
}

drawpipe_status drawpipe_set_rasterizer_discard(drawpipe_context* ctx, bool discard) {
    return guarded("drawpipe_set_rasterizer_discard", [&] {
        CContext* const c = live(ctx);
        c->ctx.set_rasterizer_discard(discard);
    });
}

drawpipe_status drawpipe_draw(drawpipe_context* ctx, const drawpipe_draw_info* draw) {
    return guarded("drawpipe_draw", [&] {
        CContext* const c = live(ctx);
        need(draw, "draw");
        c->ctx.draw(to_draw(*draw));
    });
}

drawpipe_status drawpipe_multi_draw(drawpipe_context* ctx, const drawpipe_draw_info* draws,
                                    size_t count) {
    return guarded("drawpipe_multi_draw", [&] {
        CContext* const c = live(ctx);
        if (count > 0) need(draws, "draws");
        std::vector<DrawInfo> d;
        d.reserve(count);
        for (size_t i = 0; i < count; ++i) d.push_back(to_draw(draws[i]));
        c->ctx.draw(std::span<const DrawInfo>(d));
    });
}

drawpipe_status drawpipe_draw_indirect(drawpipe_context* ctx, const drawpipe_draw_info* draw,
                                       const drawpipe_indirect* indirect) {
    return guarded("drawpipe_draw_indirect", [&] {
        CContext* const c = live(ctx);
        need(draw, "draw"), need(indirect, "indirect");
        IndirectDraws in;
        in.buffer = {indirect->buffer, indirect->size};
        in.offset = indirect->offset;
        in.stride = indirect->stride;
        in.draw_count = indirect->draw_count;
        in.count_buffer = {indirect->count_buffer, indirect->count_size};
        in.count_offset = indirect->count_offset;
        c->ctx.draw_indirect(to_draw(*draw), in);
    });
}

drawpipe_status drawpipe_draw_stream_output(drawpipe_context* ctx, const drawpipe_draw_info* draw,
                                            uint32_t stream) {
    return guarded("drawpipe_draw_stream_output", [&] {
        CContext* const c = live(ctx);
        need(draw, "draw");
        c->ctx.draw_stream_output(to_draw(*draw), stream);
    });
}

drawpipe_status drawpipe_flush(drawpipe_context* ctx, drawpipe_draw_stats* stats) {
    return guarded("drawpipe_flush", [&] {
        CContext* const c = live(ctx);
        const DrawStats s = c->ctx.flush();
        if (!stats) return;
        *stats = drawpipe_draw_stats{};
        stats->segments = s.front.segments;
        stats->indices = s.front.indices;
        stats->fetched = s.front.fetched;
        for (uint32_t i = 0; i < kMaxCounters; ++i) stats->counters[i] = s.counters[i];
        copy_counts(s.primitives, stats->primitives);
        stats->shaded = s.front.shaded;
        const PipelineStatistics& p = s.statistics;
        stats->statistics = {p.ia_vertices,    p.ia_primitives, p.vs_invocations,
                             p.gs_invocations, p.gs_primitives, p.clip_invocations,
                             p.clip_primitives};
    });
}

drawpipe_status drawpipe_decompose(drawpipe_prim prim, drawpipe_provoking provoking,
                                   const uint32_t* elts, uint32_t count, drawpipe_decompose_fn emit,
                                   void* user) {
    return guarded("drawpipe_decompose", [&] {
        const Prim p = to_prim(prim, "prim");
        const Provoking pv = checked_enum<Provoking>(provoking, 2, "provoking");
        need(reinterpret_cast<const void*>(emit), "emit");
        if (count) need(elts, "elts");
        decompose_elements(p, pv, std::span<const uint32_t>(elts, count),
                           [&](uint32_t n, const uint32_t* v) { emit(user, n, v); });
    });
}

} // extern "C"
