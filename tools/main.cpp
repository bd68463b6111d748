// drawpipe: trace draws, run the demo, benchmark the front end.
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "tools/commands.hpp"

#include <cstdio>
#include <exception>
#include <new>

int main(int argc, char** argv) {
    drawpipe::register_builtin_middle_ends();
    CLI::App app{"drawpipe: a Gallium-style draw module (front end, middle ends, backends)"};
    app.require_subcommand(1);
    drawpipe::cli::add_trace_command(app);
    drawpipe::cli::add_demo_command(app);
    drawpipe::cli::add_mali_command(app);
    drawpipe::cli::add_gen7_command(app);
    drawpipe::cli::add_bench_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const drawpipe::Error& e) {
        std::fprintf(stderr, "drawpipe: error (%s): %s\n", drawpipe::error_code_name(e.code()),
                     e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "drawpipe: error: out of memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "drawpipe: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
