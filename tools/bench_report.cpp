#include "tools/bench_report.hpp"

#include "drawpipe/error.hpp"
#include "tools/common/files.hpp"

#include <nlohmann/json.hpp>

namespace drawpipe::cli {
namespace {} // namespace

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
    write_output_file(path, "--json", j.dump(2) + "\n");
}

} // namespace drawpipe::cli
