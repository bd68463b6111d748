#include "tools/bench_report.hpp"

#include "drawpipe/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace drawpipe::cli {
namespace {

std::ofstream open_out(const std::string& path) {
    std::ofstream out(path);
    if (!out) throw Error(ErrorCode::not_found, "output: cannot write '" + path + "'");
    return out;
}

std::string xml_escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        if (c == '<')
            r += "&lt;";
        else if (c == '>')
            r += "&gt;";
        else if (c == '&')
            r += "&amp;";
        else if (c == '"')
            r += "&quot;";
        else
            r += c;
    }
    return r;
}

std::string fmt(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// A palette that stays readable for the usual colour-vision deficiencies (Okabe-Ito).
constexpr const char* kColours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                    "#56B4E9", "#D55E00", "#F0E442", "#000000"};

} // namespace

void write_bench_json(const BenchReport& report, const std::string& path) {
    nlohmann::json j;
    j["machine"] = report.machine;
    j["command"] = report.command;
    j["proxies"] = {{"memcpy_64MiB_GBps", report.memcpy_gbps},
                    {"index_copy_u32_to_u32_u16_Mips", report.index_copy_mips}};
    if (report.threads) j["context_threads"] = report.threads;
    if (report.cache)
        j["split_cache"] = {
            {"hits", report.cache->hits},           {"misses", report.cache->misses},
            {"evictions", report.cache->evictions}, {"uncacheable", report.cache->uncacheable},
            {"entries", report.cache->entries},     {"bytes", report.cache->bytes}};
    nlohmann::json rows = nlohmann::json::array();
    for (const BenchRow& r : report.rows) {
        nlohmann::json row = {{"input", r.input},
                              {"strategy", r.strategy},
                              {"max_vertices", r.limit},
                              {"indices", r.indices},
                              {"reps", r.reps},
                              {"best_seconds", r.best_seconds},
                              {"mips", r.mips},
                              {"proxy_mips", r.proxy_mips},
                              {"x_proxy", r.x_proxy},
                              {"segments", r.segments},
                              {"fetched_per_index", r.fetched_per_index}};
        row["acmr"] = r.acmr ? nlohmann::json(*r.acmr) : nlohmann::json(nullptr);
        if (r.context_mips) row["context_mips"] = *r.context_mips;
        if (r.first_seconds) row["first_draw_ms"] = *r.first_seconds * 1e3;
        if (r.redraw_seconds) row["redraw_us"] = *r.redraw_seconds * 1e6;
        rows.push_back(std::move(row));
    }
    j["results"] = std::move(rows);
    std::ofstream out = open_out(path);
    out << j.dump(2) << "\n";
}

void write_bench_svg(const BenchReport& report, const std::string& path) {
    // Groups: (input, limit) in first-seen order; bars: strategies in first-seen order.
    std::vector<std::pair<std::string, uint32_t>> groups;
    std::vector<std::string> strategies;
    for (const BenchRow& r : report.rows) {
        const auto g = std::make_pair(r.input, r.limit);
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
        if (std::find(strategies.begin(), strategies.end(), r.strategy) == strategies.end())
            strategies.push_back(r.strategy);
    }
    auto find = [&](size_t g, size_t s) -> const BenchRow* {
        for (const BenchRow& r : report.rows)
            if (r.input == groups[g].first && r.limit == groups[g].second &&
                r.strategy == strategies[s])
                return &r;
        return nullptr;
    };
    const double bar = 14, gap = 18, left = 70, panel_h = 220, top = 50;
    const double group_w = bar * double(strategies.size()) + gap;
    const double width = left + group_w * double(groups.size()) + 170;
    const double height = top + 2 * (panel_h + 90) + 10;
    std::ostringstream svg;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fmt(width, 0) << "\" height=\""
        << fmt(height, 0) << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"" << left
        << "\" y=\"20\" font-size=\"14\">drawpipe front end: " << xml_escape(report.machine)
        << "</text>\n";

    struct Panel {
        const char* title;
        double (*value)(const BenchRow&);
    };
    const Panel panels[] = {
        {"M indices/s (best draw, higher is better)", [](const BenchRow& r) { return r.mips; }},
        {"fetched vertices per index (lower is better)",
         [](const BenchRow& r) { return r.fetched_per_index; }},
    };
    for (size_t p = 0; p < 2; ++p) {
        const double y0 = top + double(p) * (panel_h + 90); // panel top
        double vmax = 0;
        for (const BenchRow& r : report.rows) vmax = std::max(vmax, panels[p].value(r));
        if (vmax <= 0) vmax = 1;
        // A round axis maximum: 1, 2 or 5 times a power of ten.
        const double mag = std::pow(10.0, std::floor(std::log10(vmax)));
        double axis = mag;
        for (double m : {1.0, 2.0, 5.0, 10.0})
            if (m * mag >= vmax) {
                axis = m * mag;
                break;
            }
        svg << "<text x=\"" << left << "\" y=\"" << fmt(y0 + 12, 1) << "\" font-size=\"12\">"
            << panels[p].title << "</text>\n";
        const double base = y0 + 20 + panel_h;
        for (int t = 0; t <= 4; ++t) {
            const double y = base - panel_h * t / 4.0;
            svg << "<line x1=\"" << left << "\" x2=\"" << fmt(width - 160, 1) << "\" y1=\""
                << fmt(y, 1) << "\" y2=\"" << fmt(y, 1) << "\" stroke=\"#ddd\"/>\n"
                << "<text x=\"" << left - 6 << "\" y=\"" << fmt(y + 4, 1)
                << "\" text-anchor=\"end\">" << fmt(axis * t / 4.0, axis < 4 ? 2 : 0)
                << "</text>\n";
        }
        for (size_t g = 0; g < groups.size(); ++g) {
            const double gx = left + gap / 2 + double(g) * group_w;
            for (size_t s = 0; s < strategies.size(); ++s) {
                const BenchRow* r = find(g, s);
                if (!r) continue;
                const double v = panels[p].value(*r), h = panel_h * std::min(v / axis, 1.0);
                svg << "<rect x=\"" << fmt(gx + double(s) * bar, 1) << "\" y=\"" << fmt(base - h, 1)
                    << "\" width=\"" << bar - 1 << "\" height=\"" << fmt(h, 1) << "\" fill=\""
                    << kColours[s % 8] << "\"><title>" << xml_escape(r->input) << " / "
                    << xml_escape(r->strategy) << " / " << r->limit << ": "
                    << fmt(v, v < 10 ? 4 : 1) << "</title></rect>\n";
            }
            const std::string label = groups[g].first + " @" + std::to_string(groups[g].second);
            const double lx = gx + (group_w - gap) / 2;
            svg << "<text transform=\"translate(" << fmt(lx, 1) << "," << fmt(base + 10, 1)
                << ") rotate(30)\">" << xml_escape(label) << "</text>\n";
        }
        svg << "<line x1=\"" << left << "\" x2=\"" << left << "\" y1=\"" << fmt(base - panel_h, 1)
            << "\" y2=\"" << fmt(base, 1) << "\" stroke=\"#333\"/>\n";
    }
    for (size_t s = 0; s < strategies.size(); ++s) {
        const double y = top + 30 + double(s) * 18, x = width - 150;
        svg << "<rect x=\"" << fmt(x, 1) << "\" y=\"" << fmt(y - 10, 1)
            << "\" width=\"12\" height=\"12\" fill=\"" << kColours[s % 8] << "\"/>"
            << "<text x=\"" << fmt(x + 18, 1) << "\" y=\"" << fmt(y, 1) << "\">"
            << xml_escape(strategies[s]) << "</text>\n";
    }
    svg << "</svg>\n";
    std::ofstream out = open_out(path);
    out << svg.str();
}

} // namespace drawpipe::cli
