// drawpipe: trace draws, run the demo, benchmark the front end.
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "tools/commands.hpp"
#include "tools/common/files.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#ifndef DRAWPIPE_VERSION
#define DRAWPIPE_VERSION "unknown"
#endif

namespace {

// A middle end that broke its contract, or an output that could not be written, is a
// failure while running; every other Error is about what the user asked for (a bad option,
// file, description or draw).
int exit_code_of(const drawpipe::Error& e) {
    return e.code() == drawpipe::ErrorCode::middle_end_failure ||
                   e.code() == drawpipe::ErrorCode::io_error
               ? drawpipe::cli::kExitFailure
               : drawpipe::cli::kExitBadInput;
}

} // namespace

int main(int argc, char** argv) {
    using namespace drawpipe::cli;
    drawpipe::register_builtin_middle_ends();
    CLI::App app{"drawpipe: a Gallium-style draw module (front end, middle ends, backends)"};
    app.set_version_flag("--version", "drawpipe " DRAWPIPE_VERSION);
    app.require_subcommand(1);
    app.footer(kExitCodeHelp);
    add_trace_command(app);
    add_render_command(app);
    add_demo_command(app);
    add_mali_command(app);
    add_gen7_command(app);
    add_bench_command(app);
    // CLI11 would only say "a subcommand is required" for a misspelt one: name it.
    if (argc > 1 && argv[1][0] != '-') {
        std::string known;
        bool found = false;
        for (const CLI::App* sub : app.get_subcommands({})) {
            found = found || sub->get_name() == argv[1];
            known += (known.empty() ? "" : ", ") + sub->get_name();
        }
        if (!found) {
            std::fprintf(stderr, "drawpipe: unknown command '%s' (commands: %s; see --help)\n",
                         argv[1], known.c_str());
            return kExitBadInput;
        }
    }
    try {
        app.parse(argc, argv);
        drawpipe::cli::finish_stdout(); // a trace or table lost on a full disk is no success
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kExitOk : kExitBadInput; // help
        // An option CLI11 refused (a value out of range, an unknown option) reads like every
        // other error: the same prefix, the option and the value.
        std::fprintf(stderr, "drawpipe: error (usage): %s\nRun with --help for more information.\n",
                     e.what());
        return kExitBadInput;
    } catch (const drawpipe::Error& e) {
        std::fprintf(stderr, "drawpipe: error (%s): %s\n", drawpipe::error_code_name(e.code()),
                     e.what());
        return exit_code_of(e);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "drawpipe: error: out of memory\n");
        return kExitFailure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "drawpipe: error: %s\n", e.what());
        return kExitFailure;
    }
    return kExitOk;
}
