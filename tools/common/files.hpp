// Reading inputs and checking outputs the way every command does: a path that cannot be used
// says why (the OS's reason), and an output path is checked before a long run, not after it.
#pragma once

#include <string>
#include <string_view>

namespace drawpipe::cli {

// The whole file ('-': standard input). Throws Error(not_found) naming `what`, the path and
// the reason ("is a directory", "No such file or directory", "Permission denied").
std::string read_input_file(const std::string& path, const std::string& what);

// Throws Error(not_found) naming `option` when `path` cannot be written: a directory, or a
// parent directory that does not exist or is not writable. Creates nothing.
void check_output_path(const std::string& path, const std::string& option);

// Writes `bytes` to `path` whole, or throws Error(io_error) naming `option`, the path and the
// OS's reason (a full disk shows when the file is closed, and is reported too).
void write_output_file(const std::string& path, const std::string& option, std::string_view bytes);

// Flushes standard output; throws Error(io_error) when anything written to it was lost.
void finish_stdout();

} // namespace drawpipe::cli
