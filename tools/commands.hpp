// Subcommands of the `drawpipe` program; each file adds one to the CLI11 app.
#pragma once

#include "drawpipe/error.hpp"
#include "drawpipe/strategy.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace drawpipe::cli {

// Exit codes, the same for every command whatever parses its arguments.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // something failed while running
inline constexpr int kExitBadInput = 2; // a bad option, file, draw description or draw
inline constexpr const char* kExitCodeHelp =
    "Exit codes: 0 done; 2 bad input (an unknown command or option, an unusable file or "
    "output path, a malformed description, an invalid draw); 1 a failure while running (a "
    "middle end broke its contract, an output that could not be written, out of memory).";

// What --max-vertices means, the same in every command.
inline constexpr const char* kMaxVerticesHelp =
    "Vertices per segment: 0 (the default) for the middle end's own limit; below what a "
    "primitive type needs, or above the middle end's limit, is an error naming both numbers";

// The names --strategy accepts, for help texts and errors.
inline constexpr const char* kStrategyNames =
    "distinct (default), vsplit, direct-N (N a power of two, 2..2^24), exact, none, reorder";

// What --strategy means, the same in every command.
inline std::string strategy_help() {
    return std::string("Splitting strategy: ") + kStrategyNames;
}

// Strategy::parse, or Error(not_found) naming --strategy and the names it accepts.
inline Strategy parse_strategy_option(const std::string& name) {
    if (const auto s = Strategy::parse(name)) return *s;
    throw Error(ErrorCode::not_found,
                "--strategy: unknown strategy '" + name + "' (" + kStrategyNames + ")");
}

// How a command that draws splits: the middle end, its vertices per segment and the
// strategy, as --middle-end, --max-vertices and --strategy give them.
struct SplitArgs {
    std::string middle_end = "fetch_shade"; // a registered name
    uint32_t max_vertices = 0;              // 0: the middle end's own limit
    std::string strategy = "distinct";      // parse_strategy_option's input
};

// Whether a command lets --middle-end choose the middle end, or draws with its own.
enum class MiddleEndOption { chosen, fixed };

// Adds the split options to `cmd`, the same in every command: --middle-end (unless the
// command's middle end is fixed), --max-vertices (its help followed by `max_vertices_note`)
// and --strategy.
inline void add_split_options(CLI::App& cmd, SplitArgs& args,
                              MiddleEndOption middle_end = MiddleEndOption::chosen,
                              const std::string& max_vertices_note = "") {
    if (middle_end == MiddleEndOption::chosen)
        cmd.add_option("--middle-end", args.middle_end, "Middle end by registered name");
    cmd.add_option("--max-vertices", args.max_vertices, kMaxVerticesHelp + max_vertices_note);
    cmd.add_option("--strategy", args.strategy, strategy_help());
}

// --threads, the same range and help in every command: 1..1024, checked before any work.
inline CLI::Option* add_threads_option(
    CLI::App& cmd, uint32_t& threads,
    const std::string& help =
        "Pipeline threads, 1..1024 (default: $DRAWPIPE_THREADS or every hardware thread)") {
    return cmd.add_option("--threads", threads, help)->check(CLI::Range(1u, 1024u));
}

// An output path: std::nullopt when the option is not given, and what was given otherwise,
// even "" (CLI11 reads an empty value into a std::optional as a missing one, with a message
// that names the wrong thing; an empty path is check_output_path's error to report).
inline CLI::Option* add_output_option(CLI::App& cmd, const std::string& name,
                                      std::optional<std::string>& out, const std::string& help) {
    return cmd
        .add_option(
            name,
            [&out](const CLI::results_t& r) {
                out = r.empty() ? std::string() : r.back();
                return true;
            },
            help)
        ->type_name("FILE")
        ->expected(1);
}

void add_trace_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_mali_command(CLI::App& app);
void add_gen7_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_render_command(CLI::App& app);

} // namespace drawpipe::cli
