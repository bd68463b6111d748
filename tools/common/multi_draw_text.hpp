// The multi-draw and indirect keys of the draw description format (issue 30):
//
//   multi_draw START COUNT [BASE_VERTEX]     one line per sub-draw; replaces
//   start/count/base_vertex indirect COUNT INSTANCES FIRST BASE_VERTEX BASE_INSTANCE   one line per
//   record (indexed) indirect COUNT INSTANCES FIRST BASE_INSTANCE               (non-indexed)
//   indirect_count N MAX                     the draw count read from a buffer, at most MAX
//
// Sub-draw i has draw id i (gl_DrawID). The indirect records are laid out tightly packed in
// one buffer, in GL's layout, and drawn as glMultiDraw*Indirect[Count] would.
#pragma once

#include "drawpipe/indirect.hpp"
#include "drawpipe/types.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drawpipe {

class Context;
struct DrawDesc;
struct BoundDraw;
struct DrawState;
class MiddleEnd;
struct DrawOptions;

// The keys, for help texts.
inline constexpr const char* kMultiDrawKeysHelp =
    "Multi-draw and indirect keys: 'multi_draw START COUNT [BASE_VERTEX]', one line per sub-draw "
    "(replaces start, count, base_vertex; sub-draw i has gl_DrawID i); 'indirect COUNT INSTANCES "
    "FIRST BASE_VERTEX BASE_INSTANCE' (indexed) or 'indirect COUNT INSTANCES FIRST "
    "BASE_INSTANCE', one line per record of a glMultiDraw*Indirect buffer (replaces start, "
    "count, base_vertex, instances, base_instance); 'indirect_count N MAX': the draw count N "
    "is read from a buffer and clamped to MAX (MAX records must fit, else an error). With more "
    "than one sub-draw or record, the trace prints each vertex as vertexid/instanceid/drawid.";

struct SubDrawDesc {
    uint32_t start = 0, count = 0;
    int32_t base_vertex = 0;
};

struct IndirectDesc {
    uint32_t count = 0, instances = 0, first = 0;
    int32_t base_vertex = 0;
    uint32_t base_instance = 0;
    uint32_t values = 0; // 4 or 5 as written: checked against the index type at the end
    int line = 0;
};

struct MultiDrawDesc {
    std::vector<SubDrawDesc> draws;    // multi_draw lines
    std::vector<IndirectDesc> records; // indirect lines
    bool count_given = false;          // indirect_count
    uint32_t count_n = 0, count_max = 0;

    bool indirect() const { return !records.empty() || count_given; }
    bool any() const { return !draws.empty() || indirect(); }
    // More than one sub-draw: traces print each vertex's draw id.
    bool draw_ids() const { return draws.size() > 1 || records.size() > 1; }
};

// The key parser's part: false for a key that is not one of the three. Throws
// Error(parse_error) naming the line.
bool parse_multi_draw_key(int line, std::string_view key, const std::vector<std::string_view>& w,
                          MultiDrawDesc& m);
// After every line: the keys the sub-draws replace must be absent (`seen`: single-valued keys
// and their lines), indirect records must match the index type.
void check_multi_draw(const DrawDesc& d, const std::vector<std::pair<std::string, int>>& seen);
void format_multi_draw(std::ostream& o, const MultiDrawDesc& m, bool indexed);

// What each sub-draw reads: its first index or vertex, count, base vertex and instances.
struct DrawRange {
    uint32_t start = 0, count = 0;
    int32_t base_vertex = 0;
    uint32_t instances = 1, base_instance = 0;
};
// The description's one draw, or each sub-draw or record (drawn or not).
std::vector<DrawRange> draw_ranges(const DrawDesc& d);

// The buffers a bound description's sub-draws are drawn from.
struct BoundMultiDraw {
    std::vector<DrawInfo> draws;   // multi_draw: each sub-draw, draw_id its index
    std::vector<uint32_t> records; // indirect: the record buffer, as dwords
    uint32_t draw_count_value = 0; // indirect_count's N, in its own buffer
    IndirectDraws indirect;        // over `records` (and draw_count_value)
    bool indirect_given = false;   // the draws are `indirect`'s records
};
// Fills b.multi from d (after b.info is set).
void bind_multi_draw(const DrawDesc& d, BoundDraw& b);

// The draws a bound description makes, as Context draws them: its one draw, its sub-draws, or
// its indirect records resolved (throws as resolve_indirect does).
std::vector<DrawInfo> described_draws(const BoundDraw& b);
// Prepares each of them against `state` (its draw replaced) with prepare_draw, so that a bad
// one is an Error before anything is drawn; errors name the sub-draw or record as Context's do.
void check_described_draws(const BoundDraw& b, DrawState state, const MiddleEnd& middle,
                           const DrawOptions& options);
// Queues the description's draws on `ctx`: draw, draw(span) or draw_indirect.
void submit_draw(Context& ctx, const BoundDraw& b);

} // namespace drawpipe
