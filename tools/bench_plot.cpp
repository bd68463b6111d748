// `drawpipe bench --plot`: the report as panels of horizontal bars, one panel per figure, one
// bar per row, its value printed beside it. Horizontal bars keep every label level and let
// the canvas grow with the number of rows, so nothing is clipped or overlaps however many
// inputs, limits and strategies were run. Every element's extent is computed here (text
// from a conservative width per character), and the canvas is sized to hold them all.
#include "tools/bench_report.hpp"

#include "drawpipe/error.hpp"
#include "tools/common/files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

namespace drawpipe::cli {
namespace {

// Wider than the average sans-serif glyph (about 0.55 em), so text never outgrows its box.
constexpr double kCharWidth = 0.62;
constexpr double kFont = 11, kTitleFont = 14, kPanelFont = 12, kTickFont = 9;
constexpr double kMargin = 12;
constexpr double kBarH = 11, kBarPitch = 14, kGroupHead = 18;
constexpr double kBarArea = 180, kValueW = 64; // bar length at the axis maximum; value text
constexpr double kGap = 28;                    // between panels

// Okabe-Ito: readable with the common colour-vision deficiencies.
constexpr const char* kColours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                    "#56B4E9", "#D55E00", "#F0E442", "#000000"};

double text_width(const std::string& s, double font) {
    return double(s.size()) * font * kCharWidth;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// Three significant digits, as a reader compares them.
std::string value_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 ? "%.0f" : "%.3g", v);
    return buf;
}

// An axis label: 0.01, 0.5, 20, 1k, 10M.
std::string tick_text(double v) {
    char buf[32];
    const char* unit = "";
    for (const char* u : {"k", "M", "G"})
        if (v >= 1000) v /= 1000, unit = u;
    std::snprintf(buf, sizeof buf, "%g%s", v, unit);
    return buf;
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

struct Svg {
    std::ostringstream body;
    void text(double x, double y, double font, const std::string& s, const char* anchor = "start",
              const char* fill = "#000") {
        body << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(font)
             << "\" text-anchor=\"" << anchor << "\" fill=\"" << fill << "\">" << xml_escape(s)
             << "</text>\n";
    }
    void rect(double x, double y, double w, double h, const char* fill,
              const std::string& title = {}) {
        body << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
             << "\" height=\"" << num(h) << "\" fill=\"" << fill << "\">";
        if (!title.empty()) body << "<title>" << xml_escape(title) << "</title>";
        body << "</rect>\n";
    }
    void line(double x1, double y1, double x2, double y2, const char* stroke) {
        body << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2)
             << "\" y2=\"" << num(y2) << "\" stroke=\"" << stroke << "\"/>\n";
    }
};

// One figure per row; a row without it draws no bar. A second series (redraw beside first
// draw) is drawn as a lighter bar under the first.
struct Panel {
    std::string title;
    std::function<std::optional<double>(const BenchRow&)> value;
    std::function<std::optional<double>(const BenchRow&)> second = {}; // may be empty
    std::string second_label = {};
};

// Maps values to bar lengths: linear from 0 to a round maximum, or, when the values span
// more than 30x, logarithmic over whole decades.
struct Scale {
    bool log = false;
    double lo = 0, hi = 1; // linear: [0, hi]; log: decades [lo, hi] as exponents

    static Scale fit(double vmin, double vmax) {
        Scale s;
        if (vmax <= 0) return s;
        if (vmin > 0 && vmax / vmin > 30) {
            s.log = true;
            s.lo = std::floor(std::log10(vmin));
            s.hi = std::max(s.lo + 1, std::ceil(std::log10(vmax)));
            return s;
        }
        const double mag = std::pow(10.0, std::floor(std::log10(vmax)));
        s.hi = 10 * mag;
        for (double m : {1.0, 2.0, 5.0})
            if (m * mag >= vmax) {
                s.hi = m * mag;
                break;
            }
        return s;
    }
    double length(double v) const {
        if (log) {
            if (v <= 0) return 0;
            return kBarArea * std::clamp((std::log10(v) - lo) / (hi - lo), 0.0, 1.0);
        }
        return kBarArea * std::clamp(v / hi, 0.0, 1.0);
    }
    // Tick values and their labels.
    std::vector<std::pair<double, std::string>> ticks() const {
        std::vector<std::pair<double, std::string>> t;
        if (log) {
            // Every decade, or every n-th when their labels would touch.
            size_t longest = 0;
            for (double e = lo; e <= hi; ++e)
                longest = std::max(longest, tick_text(std::pow(10.0, e)).size());
            double step = 1;
            while (kBarArea / (hi - lo) * step < double(longest) * kTickFont * kCharWidth + 12)
                ++step;
            for (double e = lo; e <= hi; e += step)
                t.push_back({std::pow(10.0, e), tick_text(std::pow(10.0, e))});
        } else {
            for (int i = 0; i <= 4; ++i) t.push_back({hi * i / 4, tick_text(hi * i / 4)});
        }
        return t;
    }
};

} // namespace

void write_bench_svg(const BenchReport& report, const std::string& path) {
    // Groups (input, limit) and strategies in first-seen order.
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
    auto colour = [&](const std::string& strategy) {
        const size_t s =
            size_t(std::find(strategies.begin(), strategies.end(), strategy) - strategies.begin());
        return kColours[s % 8];
    };

    std::vector<Panel> panels = {
        {"M indices/s (best draw; more is better)",
         [](const BenchRow& r) { return std::optional<double>(r.mips); }},
        {"x proxy (of the index copy; more is better)",
         [](const BenchRow& r) { return std::optional<double>(r.x_proxy); }},
        {"fetched vertices per index (fewer is better)",
         [](const BenchRow& r) { return std::optional<double>(r.fetched_per_index); }},
    };
    const bool repeat = std::any_of(report.rows.begin(), report.rows.end(),
                                    [](const BenchRow& r) { return r.redraw_seconds.has_value(); });
    if (repeat)
        panels.push_back({"first draw (colour) / redraw (grey), us",
                          [](const BenchRow& r) {
                              return r.first_seconds ? std::optional<double>(*r.first_seconds * 1e6)
                                                     : std::nullopt;
                          },
                          [](const BenchRow& r) {
                              return r.redraw_seconds
                                         ? std::optional<double>(*r.redraw_seconds * 1e6)
                                         : std::nullopt;
                          },
                          "redraw"});

    // The label column holds the group headings (input @ limit) and the strategy names.
    double label_w = 0;
    for (const std::string& s : strategies) label_w = std::max(label_w, text_width(s, kFont));
    for (const auto& g : groups)
        label_w = std::max(label_w, text_width(g.first + " @" + std::to_string(g.second), kFont));
    label_w += 8;
    // Each panel's scale fits its values; a log scale says so in the title.
    std::vector<Scale> scales;
    std::vector<double> panel_w;
    for (Panel& panel : panels) {
        double vmin = 0, vmax = 0;
        bool any = false;
        for (const BenchRow& r : report.rows)
            for (const auto* f : {&panel.value, &panel.second})
                if (*f)
                    if (const auto v = (*f)(r); v && *v > 0) {
                        vmin = any ? std::min(vmin, *v) : *v;
                        vmax = std::max(vmax, *v);
                        any = true;
                    }
        scales.push_back(Scale::fit(vmin, vmax));
        if (scales.back().log) panel.title += " [log]";
        panel_w.push_back(std::max(kBarArea + kValueW, text_width(panel.title, kPanelFont)));
    }

    const std::string title = "drawpipe bench: the front end alone, one thread";
    const std::string machine = "machine: " + report.machine;
    const std::string command = report.command;
    double width = kMargin + label_w;
    for (double w : panel_w) width += w + kGap;
    width += kMargin - kGap;
    for (const std::string* s : {&machine, &command})
        width = std::max(width, 2 * kMargin + text_width(*s, kFont));
    width = std::max(width, 2 * kMargin + text_width(title, kTitleFont));

    Svg svg;
    double y = kMargin + kTitleFont;
    svg.text(kMargin, y, kTitleFont, title);
    y += kFont + 6;
    svg.text(kMargin, y, kFont, machine, "start", "#444");
    y += kFont + 4;
    if (!command.empty()) {
        svg.text(kMargin, y, kFont, command, "start", "#444");
        y += kFont + 4;
    }
    y += 10;
    const double titles_y = y + kPanelFont; // panel titles
    const double ticks_y = titles_y + kTickFont + 6;
    const double rows_top = ticks_y + 6;

    // Each row's bar band: per group a heading, then one band per strategy present.
    std::vector<std::pair<size_t, double>> headings; // group, baseline y
    struct Band {
        const BenchRow* row;
        double top;
    };
    std::vector<Band> bands;
    double yy = rows_top;
    for (size_t g = 0; g < groups.size(); ++g) {
        headings.push_back({g, yy + kFont + 2});
        yy += kGroupHead;
        for (size_t s = 0; s < strategies.size(); ++s)
            if (const BenchRow* r = find(g, s)) {
                bands.push_back({r, yy});
                yy += repeat ? 2 * kBarPitch : kBarPitch;
            }
        yy += 6;
    }
    const double height = yy + kMargin;

    for (const auto& [g, base] : headings)
        svg.text(kMargin, base, kFont, groups[g].first + " @" + std::to_string(groups[g].second),
                 "start", "#222");
    for (const Band& b : bands)
        svg.text(kMargin + label_w - 8, b.top + kBarH - 2, kFont, b.row->strategy, "end");

    double x0 = kMargin + label_w;
    for (size_t p = 0; p < panels.size(); ++p) {
        const Panel& panel = panels[p];
        const Scale& scale = scales[p];
        svg.text(x0, titles_y, kPanelFont, panel.title);
        for (const auto& [v, label] : scale.ticks()) {
            const double x = x0 + scale.length(v);
            svg.line(x, rows_top, x, yy, "#e4e4e4");
            // The first tick starts at the axis, the last ends at it, the rest are centred.
            const char* anchor = x == x0 ? "start" : x >= x0 + kBarArea - 0.5 ? "end" : "middle";
            svg.text(x, ticks_y, kTickFont, label, anchor, "#666");
        }
        svg.line(x0, rows_top, x0, yy, "#333");
        for (const Band& b : bands) {
            const BenchRow& r = *b.row;
            const std::string who = r.input + " / " + r.strategy + " / " + std::to_string(r.limit);
            auto bar = [&](double top, double v, const char* fill, const std::string& what) {
                const double len = scale.length(v);
                svg.rect(x0, top, std::max(len, 0.5), kBarH, fill, who + ": " + what);
                svg.text(x0 + len + 3, top + kBarH - 2, kFont, value_text(v));
            };
            if (const auto v = panel.value(r)) bar(b.top, *v, colour(r.strategy), value_text(*v));
            if (panel.second)
                if (const auto v = panel.second(r))
                    bar(b.top + kBarPitch, *v, "#999999",
                        panel.second_label + " " + value_text(*v));
        }
        x0 += panel_w[p] + kGap;
    }

    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << std::ceil(width)
        << "\" height=\"" << std::ceil(height) << "\" viewBox=\"0 0 " << std::ceil(width) << ' '
        << std::ceil(height) << "\" font-family=\"sans-serif\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << svg.body.str() << "</svg>\n";
    write_output_file(path, "--plot", out.str());
}

} // namespace drawpipe::cli
