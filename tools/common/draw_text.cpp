#include "tools/common/draw_text.hpp"

#include "drawpipe/error.hpp"
#include "drawpipe/limits.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <sstream>

namespace drawpipe {

namespace {

[[noreturn]] void bad(int line, std::string_view key, const std::string& what) {
    throw Error(ErrorCode::parse_error,
                "line " + std::to_string(line) + ": " + std::string(key) + ": " + what);
}

std::vector<std::string_view> split_words(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
        const size_t j = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
        if (i > j) out.push_back(s.substr(j, i - j));
    }
    return out;
}

template <class T> T number(int line, std::string_view key, std::string_view word) {
    T v{};
    int base = 10;
    if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
        word.remove_prefix(2);
        base = 16;
    }
    const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v, base);
    if (ec != std::errc{} || ptr != word.data() + word.size())
        bad(line, key, "'" + std::string(word) + "' is not a valid number");
    return v;
}

// Keys that may appear on several lines: their values accumulate.
bool repeatable_key(std::string_view key) {
    return key == "indices" || key == "attrib" || key == "positions" || key == "colors" ||
           key == "back_colors" || key == "edgeflags" || key == "clip_plane" ||
           key == "viewport_array" || key == "multi_draw" || key == "indirect";
}

template <class T>
T pick(int line, std::string_view key, std::string_view word,
       std::initializer_list<std::pair<std::string_view, T>> names) {
    std::string known;
    for (const auto& [name, value] : names) {
        if (name == word) return value;
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    bad(line, key, "'" + std::string(word) + "' is not one of " + known);
}

float real(int line, std::string_view key, std::string_view word) {
    const std::string w(word);
    char* end = nullptr;
    const float v = std::strtof(w.c_str(), &end);
    if (w.empty() || end != w.c_str() + w.size() || !std::isfinite(v))
        bad(line, key, "'" + w + "' is not a valid number");
    return v;
}

// A tessellation level: any float, NaN and infinities included (GL defines what they do).
float level(int line, std::string_view key, std::string_view word) {
    const std::string w(word);
    char* end = nullptr;
    const float v = std::strtof(w.c_str(), &end);
    if (w.empty() || end != w.c_str() + w.size()) bad(line, key, "'" + w + "' is not a number");
    return v;
}

// The keys of `drawpipe render`; false for a key that is not one of them.
bool parse_render_key(int line, std::string_view key, const std::vector<std::string_view>& w,
                      RenderDesc& r) {
    auto values = [&](size_t n) {
        if (w.size() != n + 1) bad(line, key, "expects " + std::to_string(n) + " values");
    };
    auto reals = [&](std::vector<float>& out, size_t group) {
        if ((w.size() - 1) % group != 0)
            bad(line, key, "expects groups of " + std::to_string(group) + " values");
        for (size_t i = 1; i < w.size(); ++i) out.push_back(real(line, key, w[i]));
    };
    RasterState& s = r.raster;
    const std::initializer_list<std::pair<std::string_view, PolygonMode>> modes = {
        {"fill", PolygonMode::fill}, {"line", PolygonMode::line}, {"point", PolygonMode::point}};
    if (key == "positions") {
        reals(r.positions, 4);
    } else if (key == "colors") {
        reals(r.colors, 4);
    } else if (key == "back_colors") {
        reals(r.back_colors, 4);
    } else if (key == "two_side") {
        values(1);
        r.raster.two_side = pick<bool>(line, key, w[1], {{"0", false}, {"1", true}});
    } else if (key == "edgeflags") {
        for (size_t i = 1; i < w.size(); ++i)
            r.edgeflags.push_back(float(number<uint32_t>(line, key, w[i]) != 0));
    } else if (key == "viewport") {
        values(4);
        s.viewport.x = real(line, key, w[1]);
        s.viewport.y = real(line, key, w[2]);
        s.viewport.width = real(line, key, w[3]);
        s.viewport.height = real(line, key, w[4]);
        r.viewport_given = true;
    } else if (key == "viewport_array") {
        if (w.size() != 6 && w.size() != 8) bad(line, key, "expects I X Y W H [NEAR FAR]");
        RenderDesc::IndexedViewport e;
        e.index = number<uint32_t>(line, key, w[1]);
        if (e.index >= kMaxViewports)
            bad(line, key,
                "index " + std::to_string(e.index) + " is not below " +
                    std::to_string(kMaxViewports));
        for (const auto& given : r.viewport_array)
            if (given.index == e.index)
                bad(line, key, "viewport " + std::to_string(e.index) + " given twice");
        e.viewport.x = real(line, key, w[2]);
        e.viewport.y = real(line, key, w[3]);
        e.viewport.width = real(line, key, w[4]);
        e.viewport.height = real(line, key, w[5]);
        if (w.size() == 8) {
            e.viewport.near = real(line, key, w[6]);
            e.viewport.far = real(line, key, w[7]);
            e.depth_given = true;
        }
        r.viewport_array.push_back(e);
    } else if (key == "depth_clamp") {
        values(1);
        s.depth_clamp = pick<bool>(line, key, w[1], {{"1", true}, {"0", false}});
    } else if (key == "clip_control") {
        values(2);
        s.clip_origin = pick<ClipOrigin>(
            line, key, w[1],
            {{"lower_left", ClipOrigin::lower_left}, {"upper_left", ClipOrigin::upper_left}});
        s.clip_depth = pick<ClipDepth>(line, key, w[2],
                                       {{"negative_one_to_one", ClipDepth::negative_one_to_one},
                                        {"zero_to_one", ClipDepth::zero_to_one}});
    } else if (key == "depth_range") {
        values(2);
        s.viewport.near = real(line, key, w[1]);
        s.viewport.far = real(line, key, w[2]);
    } else if (key == "polygon_mode") {
        values(2);
        s.front_mode = pick(line, key, w[1], modes);
        s.back_mode = pick(line, key, w[2], modes);
    } else if (key == "cull") {
        values(1);
        s.cull = pick<CullFace>(line, key, w[1],
                                {{"none", CullFace::none},
                                 {"front", CullFace::front},
                                 {"back", CullFace::back},
                                 {"front_and_back", CullFace::front_and_back}});
    } else if (key == "front_face") {
        values(1);
        s.front_face =
            pick<FrontFace>(line, key, w[1], {{"ccw", FrontFace::ccw}, {"cw", FrontFace::cw}});
    } else if (key == "shade") {
        values(1);
        s.flatshade = pick<bool>(line, key, w[1], {{"smooth", false}, {"flat", true}});
    } else if (key == "line_stipple") {
        values(2);
        s.line_stipple = true;
        s.stipple_factor = number<uint32_t>(line, key, w[1]);
        const std::string pattern(w[2]);
        char* end = nullptr;
        const unsigned long v = std::strtoul(pattern.c_str(), &end, 0);
        if (end != pattern.c_str() + pattern.size() || v > 0xFFFF)
            bad(line, key, "pattern '" + pattern + "' is not a 16-bit number");
        s.stipple_pattern = uint16_t(v);
    } else if (key == "line_width") {
        values(1);
        s.line_width = real(line, key, w[1]);
    } else if (key == "point_size") {
        values(1);
        s.point_size = real(line, key, w[1]);
    } else if (key == "point_sprite") {
        values(1);
        r.point_sprite = true;
        s.sprite_origin_lower_left =
            pick<bool>(line, key, w[1], {{"upper_left", false}, {"lower_left", true}});
    } else if (key == "clip_plane") {
        values(4);
        uint32_t i = 0;
        while (i < kMaxClipDistances && (s.clip_plane_enable >> i & 1)) ++i;
        if (i == kMaxClipDistances)
            bad(line, key, "at most " + std::to_string(kMaxClipDistances) + " planes");
        for (uint32_t c = 0; c < 4; ++c) s.clip_planes[i][c] = real(line, key, w[c + 1]);
        s.clip_plane_enable |= 1u << i;
    } else if (key == "clip_style") {
        values(1);
        r.clip_vertex_swapped = pick<bool>(
            line, key, w[1], {{"vertex", false}, {"position", false}, {"swapped", true}});
    } else if (key == "depth_test") {
        values(1);
        r.depth_test = pick<bool>(line, key, w[1], {{"less", true}, {"off", false}});
    } else if (key == "polygon_offset") {
        values(2);
        s.offset_factor = real(line, key, w[1]);
        s.offset_units = real(line, key, w[2]);
        s.offset_fill = s.offset_line = s.offset_point = true;
    } else {
        return false;
    }
    return true;
}

} // namespace

DrawDesc parse_draw_text(std::string_view text) {
    DrawDesc d;
    int line_no = 0;
    bool have_prim = false;
    std::vector<int> index_line; // the line each index came from, for errors found later
    std::vector<std::pair<std::string, int>> seen; // single-valued keys and their lines
    while (!text.empty()) {
        ++line_no;
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (const size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        const auto words = split_words(line);
        if (words.empty()) continue;
        const std::string_view key = words[0];
        // A key given twice is a mistake to report, not a value to overwrite silently.
        if (!repeatable_key(key)) {
            for (const auto& [k, at] : seen)
                if (k == key)
                    bad(line_no, key, "given twice (first on line " + std::to_string(at) + ")");
            seen.emplace_back(std::string(key), line_no);
        }
        auto one = [&]() {
            if (words.size() != 2) bad(line_no, key, "expects exactly one value");
            return words[1];
        };
        if (key == "prim") {
            const auto p = parse_prim(one());
            if (!p) bad(line_no, key, "unknown primitive type '" + std::string(words[1]) + "'");
            d.prim = *p;
            have_prim = true;
        } else if (key == "index") {
            const auto t = parse_index_type(one());
            if (!t)
                bad(line_no, key,
                    "unknown index type '" + std::string(words[1]) + "' (none, u8, u16, u32)");
            d.index_type = *t;
        } else if (key == "indices") {
            for (size_t i = 1; i < words.size(); ++i) {
                d.indices.push_back(number<uint32_t>(line_no, key, words[i]));
                index_line.push_back(line_no);
            }
        } else if (key == "restart") {
            d.restart = true;
            d.restart_index = number<uint32_t>(line_no, key, one());
        } else if (key == "start") {
            d.start = number<uint32_t>(line_no, key, one());
        } else if (key == "count") {
            d.count = number<uint32_t>(line_no, key, one());
            d.count_given = true;
        } else if (key == "base_vertex") {
            d.base_vertex = number<int32_t>(line_no, key, one());
        } else if (key == "instances") {
            d.instances = number<uint32_t>(line_no, key, one());
        } else if (key == "base_instance") {
            d.base_instance = number<uint32_t>(line_no, key, one());
        } else if (key == "provoking") {
            const auto v = one();
            if (v == "first")
                d.provoking = Provoking::first;
            else if (v == "last")
                d.provoking = Provoking::last;
            else
                bad(line_no, key, "must be first or last");
        } else if (key == "attrib") {
            if (d.attrib_divisors.size() == kMaxAttribs)
                bad(line_no, key, "at most " + std::to_string(kMaxAttribs) + " attributes");
            d.attrib_divisors.push_back(number<uint32_t>(line_no, key, one()));
        } else if (key == "gs") {
            d.gs = std::string(one());
        } else if (key == "vs") {
            d.vs = std::string(one());
        } else if (key == "patch_vertices") {
            d.patch_vertices = number<uint32_t>(line_no, key, one());
        } else if (key == "tess") {
            if (words.size() != 4 && words.size() != 5)
                bad(line_no, key, "expects MODE SPACING WINDING [point_mode]");
            TessState t;
            t.mode = pick<TessMode>(line_no, key, words[1],
                                    {{"triangles", TessMode::triangles},
                                     {"quads", TessMode::quads},
                                     {"isolines", TessMode::isolines}});
            t.spacing = pick<TessSpacing>(line_no, key, words[2],
                                          {{"equal", TessSpacing::equal},
                                           {"fractional_even", TessSpacing::fractional_even},
                                           {"fractional_odd", TessSpacing::fractional_odd}});
            t.winding = pick<TessWinding>(line_no, key, words[3],
                                          {{"ccw", TessWinding::ccw}, {"cw", TessWinding::cw}});
            if (words.size() == 5) {
                if (words[4] != "point_mode")
                    bad(line_no, key, "the fifth word may only be point_mode");
                t.point_mode = true;
            }
            d.tess = t;
        } else if (key == "tess_levels") {
            if (words.size() != 7) bad(line_no, key, "expects 6 levels: O0 O1 O2 O3 I0 I1");
            for (size_t i = 0; i < 4; ++i)
                d.tess_levels.outer[i] = level(line_no, key, words[1 + i]);
            for (size_t i = 0; i < 2; ++i)
                d.tess_levels.inner[i] = level(line_no, key, words[5 + i]);
        } else if (key == "tcs") {
            d.tcs = std::string(one());
        } else if (parse_render_key(line_no, key, words, d.render)) {
        } else if (parse_multi_draw_key(line_no, key, words, d.multi)) {
        } else {
            bad(line_no, key, "unknown key");
        }
    }
    if (!have_prim)
        throw Error(ErrorCode::parse_error, "prim: missing (every draw names its primitive type)");
    if (d.index_type == IndexType::none && !d.indices.empty())
        bad(index_line[0], "indices", "given but index is none");
    check_multi_draw(d, seen);
    if (!d.count_given && !d.multi.any()) {
        if (d.index_type == IndexType::none)
            throw Error(ErrorCode::parse_error, "count: missing (required for non-indexed draws)");
        d.count = d.indices.size() > d.start ? uint32_t(d.indices.size() - d.start) : 0;
    }
    const uint32_t max_value = d.index_type == IndexType::u8    ? 0xFFu
                               : d.index_type == IndexType::u16 ? 0xFFFFu
                                                                : 0xFFFFFFFFu;
    for (size_t i = 0; i < d.indices.size(); ++i)
        if (d.indices[i] > max_value)
            bad(index_line[i], "indices",
                "value " + std::to_string(d.indices[i]) + " does not fit " +
                    std::string(index_type_name(d.index_type)));
    return d;
}

std::string format_draw_text(const DrawDesc& d) {
    std::ostringstream o;
    o << "prim " << prim_name(d.prim) << "\nindex " << index_type_name(d.index_type) << "\n";
    for (size_t i = 0; i < d.indices.size(); i += 32) {
        o << "indices";
        for (size_t j = i; j < std::min(d.indices.size(), i + 32); ++j) o << ' ' << d.indices[j];
        o << "\n";
    }
    if (d.restart) o << "restart " << d.restart_index << "\n";
    if (!d.multi.any())
        o << "start " << d.start << "\ncount " << d.count << "\nbase_vertex " << d.base_vertex
          << "\n";
    if (!d.multi.indirect())
        o << "instances " << d.instances << "\nbase_instance " << d.base_instance << "\n";
    o << "provoking " << (d.provoking == Provoking::first ? "first" : "last") << "\n";
    format_multi_draw(o, d.multi, d.index_type != IndexType::none);
    for (uint32_t div : d.attrib_divisors) o << "attrib " << div << "\n";
    if (!d.vs.empty()) o << "vs " << d.vs << "\n";
    if (!d.gs.empty()) o << "gs " << d.gs << "\n";
    if (d.patch_vertices != 3) o << "patch_vertices " << d.patch_vertices << "\n";
    if (d.tess) {
        static constexpr const char* kModes[] = {"triangles", "quads", "isolines"};
        static constexpr const char* kSpacings[] = {"equal", "fractional_even", "fractional_odd"};
        o << "tess " << kModes[int(d.tess->mode)] << ' ' << kSpacings[int(d.tess->spacing)]
          << (d.tess->winding == TessWinding::cw ? " cw" : " ccw")
          << (d.tess->point_mode ? " point_mode" : "") << "\n";
    }
    const TessLevels defaults;
    if (d.tess_levels.outer != defaults.outer || d.tess_levels.inner != defaults.inner) {
        char buf[32];
        o << "tess_levels";
        for (float f : d.tess_levels.outer)
            std::snprintf(buf, sizeof buf, " %.9g", double(f)), o << buf;
        for (float f : d.tess_levels.inner)
            std::snprintf(buf, sizeof buf, " %.9g", double(f)), o << buf;
        o << "\n";
    }
    if (!d.tcs.empty()) o << "tcs " << d.tcs << "\n";
    return o.str();
}

std::unique_ptr<BoundDraw> bind_draw(const DrawDesc& d) {
    auto b = std::make_unique<BoundDraw>();
    const uint32_t isize = index_size(d.index_type);
    b->index_bytes.resize(d.indices.size() * isize);
    for (size_t i = 0; i < d.indices.size(); ++i) {
        const uint32_t v = d.indices[i];
        std::memcpy(b->index_bytes.data() + i * isize, &v, isize); // little-endian narrowing
    }
    DrawInfo& info = b->info;
    info.prim = d.prim;
    info.index_type = d.index_type;
    info.indices = b->index_bytes.empty() ? nullptr : b->index_bytes.data();
    info.index_buffer_count = uint32_t(d.indices.size());
    info.start = d.start;
    info.count = d.count;
    info.base_vertex = d.base_vertex;
    info.primitive_restart = d.restart;
    info.restart_index = d.restart_index;
    info.instance_count = d.instances;
    info.base_instance = d.base_instance;
    info.provoking = d.provoking;
    info.patch_vertices = d.patch_vertices;

    // Largest element any attribute can read, capped: past the cap reads are robust zeros.
    constexpr uint64_t kCap = uint64_t(1) << 24;
    uint64_t max_vertex = 0;
    const std::vector<DrawRange> ranges = draw_ranges(d); // the draw, or each sub-draw
    for (const DrawRange& r : ranges) {
        if (d.index_type == IndexType::none) {
            if (r.count) max_vertex = std::max(max_vertex, uint64_t(r.start) + r.count - 1);
            continue;
        }
        const uint64_t end = std::min<uint64_t>(d.indices.size(), uint64_t(r.start) + r.count);
        for (uint64_t i = r.start; i < end; ++i) {
            const int64_t v = int64_t(d.indices[i]) + r.base_vertex;
            if (v >= 0) max_vertex = std::max<uint64_t>(max_vertex, uint64_t(v));
        }
    }
    if (d.attrib_divisors.size() > kMaxAttribs) // before allocating anything for them
        throw Error(ErrorCode::invalid_value,
                    "attrib: " + std::to_string(d.attrib_divisors.size()) +
                        " attributes, at most " + std::to_string(kMaxAttribs));
    // Every attribute's element k holds k: one buffer serves them all, each seeing as many
    // elements as it can read.
    std::vector<uint64_t> elements;
    for (const uint32_t div : d.attrib_divisors) {
        uint64_t last = max_vertex;
        if (div != 0) {
            last = 0;
            for (const DrawRange& r : ranges)
                last = std::max(last, uint64_t(r.base_instance) +
                                          (r.instances ? (r.instances - 1) / div : 0));
        }
        elements.push_back(std::min(last + 1, kCap));
    }
    if (!elements.empty()) {
        std::vector<uint32_t>& data =
            b->attrib_data.emplace_back(*std::max_element(elements.begin(), elements.end()));
        for (size_t k = 0; k < data.size(); ++k) data[k] = uint32_t(k);
    }
    for (size_t a = 0; a < d.attrib_divisors.size(); ++a) {
        b->buffers.push_back({b->attrib_data[0].data(), elements[a] * 4, 4, 0});
        b->attribs.push_back({uint32_t(a), 0, Format::uint32x1, d.attrib_divisors[a]});
    }
    bind_multi_draw(d, *b);
    return b;
}

} // namespace drawpipe
