// Subcommands of the `drawpipe` program; each file adds one to the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace drawpipe::cli {

void add_trace_command(CLI::App& app);
void add_demo_command(CLI::App& app);
void add_mali_command(CLI::App& app);
void add_gen7_command(CLI::App& app);
void add_bench_command(CLI::App& app);

} // namespace drawpipe::cli
