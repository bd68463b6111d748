#include "tools/common/multi_draw_text.hpp"

#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/serial.hpp"
#include "tools/common/draw_text.hpp"

#include <charconv>
#include <cstring>

namespace drawpipe {

namespace {

[[noreturn]] void bad(int line, std::string_view key, const std::string& what) {
    throw Error(ErrorCode::parse_error,
                "line " + std::to_string(line) + ": " + std::string(key) + ": " + what);
}

template <class T> T value(int line, std::string_view key, std::string_view word) {
    T v{};
    const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    if (ec != std::errc{} || ptr != word.data() + word.size())
        bad(line, key, "'" + std::string(word) + "' is not a valid number");
    return v;
}

} // namespace

bool parse_multi_draw_key(int line, std::string_view key, const std::vector<std::string_view>& w,
                          MultiDrawDesc& m) {
    if (key == "multi_draw") {
        if (w.size() != 3 && w.size() != 4) bad(line, key, "expects START COUNT [BASE_VERTEX]");
        SubDrawDesc s;
        s.start = value<uint32_t>(line, key, w[1]);
        s.count = value<uint32_t>(line, key, w[2]);
        if (w.size() == 4) s.base_vertex = value<int32_t>(line, key, w[3]);
        m.draws.push_back(s);
    } else if (key == "indirect") {
        if (w.size() != 5 && w.size() != 6)
            bad(line, key,
                "expects COUNT INSTANCES FIRST BASE_VERTEX BASE_INSTANCE (indexed) or COUNT "
                "INSTANCES FIRST BASE_INSTANCE");
        IndirectDesc r;
        r.count = value<uint32_t>(line, key, w[1]);
        r.instances = value<uint32_t>(line, key, w[2]);
        r.first = value<uint32_t>(line, key, w[3]);
        if (w.size() == 6) r.base_vertex = value<int32_t>(line, key, w[4]);
        r.base_instance = value<uint32_t>(line, key, w.back());
        r.values = uint32_t(w.size() - 1);
        r.line = line;
        m.records.push_back(r);
    } else if (key == "indirect_count") {
        if (w.size() != 3) bad(line, key, "expects N MAX");
        m.count_given = true;
        m.count_n = value<uint32_t>(line, key, w[1]);
        m.count_max = value<uint32_t>(line, key, w[2]);
    } else {
        return false;
    }
    return true;
}

void check_multi_draw(const DrawDesc& d, const std::vector<std::pair<std::string, int>>& seen) {
    const MultiDrawDesc& m = d.multi;
    if (!m.any()) return;
    if (!m.draws.empty() && m.indirect())
        throw Error(ErrorCode::parse_error, "multi_draw: not with indirect or indirect_count");
    // The keys each form replaces.
    const bool indirect = m.indirect();
    for (const auto& [key, line] : seen)
        if (key == "start" || key == "count" || key == "base_vertex" ||
            (indirect && (key == "instances" || key == "base_instance")))
            bad(line, key,
                std::string("given with ") + (indirect ? "indirect" : "multi_draw") +
                    ", whose lines replace it");
    const bool indexed = d.index_type != IndexType::none;
    for (const IndirectDesc& r : m.records)
        if (r.values != (indexed ? 5u : 4u))
            bad(r.line, "indirect",
                indexed ? "an indexed draw's record is COUNT INSTANCES FIRST BASE_VERTEX "
                          "BASE_INSTANCE"
                        : "a non-indexed draw's record is COUNT INSTANCES FIRST BASE_INSTANCE");
}

void format_multi_draw(std::ostream& o, const MultiDrawDesc& m, bool indexed) {
    for (const SubDrawDesc& s : m.draws)
        o << "multi_draw " << s.start << ' ' << s.count << ' ' << s.base_vertex << "\n";
    for (const IndirectDesc& r : m.records) {
        o << "indirect " << r.count << ' ' << r.instances << ' ' << r.first;
        if (indexed) o << ' ' << r.base_vertex;
        o << ' ' << r.base_instance << "\n";
    }
    if (m.count_given) o << "indirect_count " << m.count_n << ' ' << m.count_max << "\n";
}

std::vector<DrawRange> draw_ranges(const DrawDesc& d) {
    std::vector<DrawRange> out;
    if (!d.multi.draws.empty()) {
        for (const SubDrawDesc& s : d.multi.draws)
            out.push_back({s.start, s.count, s.base_vertex, d.instances, d.base_instance});
    } else if (d.multi.indirect()) {
        for (const IndirectDesc& r : d.multi.records)
            out.push_back({r.first, r.count, r.base_vertex, r.instances, r.base_instance});
    } else {
        out.push_back({d.start, d.count, d.base_vertex, d.instances, d.base_instance});
    }
    return out;
}

void bind_multi_draw(const DrawDesc& d, BoundDraw& b) {
    const MultiDrawDesc& m = d.multi;
    BoundMultiDraw& bm = b.multi;
    for (size_t i = 0; i < m.draws.size(); ++i) {
        DrawInfo s = b.info;
        s.start = m.draws[i].start;
        s.count = m.draws[i].count;
        s.base_vertex = m.draws[i].base_vertex;
        s.draw_id = uint32_t(i);
        bm.draws.push_back(s);
    }
    if (!m.indirect()) return;
    bm.indirect_given = true;
    const bool indexed = d.index_type != IndexType::none;
    for (const IndirectDesc& r : m.records) {
        bm.records.insert(bm.records.end(), {r.count, r.instances, r.first});
        if (indexed) bm.records.push_back(uint32_t(r.base_vertex));
        bm.records.push_back(r.base_instance);
    }
    IndirectDraws& in = bm.indirect;
    in.buffer = {bm.records.data(), bm.records.size() * 4};
    in.draw_count = m.count_given ? m.count_max : uint32_t(m.records.size());
    if (m.count_given) {
        bm.draw_count_value = m.count_n;
        in.count_buffer = {&bm.draw_count_value, 4};
    }
}

std::vector<DrawInfo> described_draws(const BoundDraw& b) {
    if (b.multi.indirect_given) return resolve_indirect(b.info, b.multi.indirect);
    if (!b.multi.draws.empty()) return b.multi.draws;
    return {b.info};
}

void check_described_draws(const BoundDraw& b, DrawState state, const MiddleEnd& middle,
                           const DrawOptions& options) {
    const bool indirect = b.multi.indirect_given;
    const bool multi = indirect || !b.multi.draws.empty();
    for (const DrawInfo& d : described_draws(b)) {
        state.draw = d;
        try {
            check_draw(state, middle, options);
        } catch (const Error& e) {
            if (!multi) throw;
            throw Error(e.code(), (indirect ? "indirect record " : "draw ") +
                                      std::to_string(d.draw_id) + ": " + e.what());
        }
    }
}

void submit_draw(Context& ctx, const BoundDraw& b) {
    if (b.multi.indirect_given)
        ctx.draw_indirect(b.info, b.multi.indirect);
    else if (!b.multi.draws.empty())
        ctx.draw(std::span<const DrawInfo>(b.multi.draws));
    else
        ctx.draw(b.info);
}

} // namespace drawpipe
