// Reading inputs and checking outputs the way every command does: a path that cannot be used
// says why (the OS's reason), and an output path is checked before a long run, not after it.
#pragma once

#include <string>
#include <string_view>

namespace drawpipe::cli {

// The whole file ('-': standard input). Throws Error(not_found) naming `what`, the path and
// the reason ("is a directory", "No such file or directory", "Permission denied").
std::string read_input_file(const std::string& path, const std::string& what);

// The whole file as text for a description: read_input_file, then Error(parse_error) naming
// `what`, the path and the first byte that no text file holds (a NUL, a control character,
// invalid UTF-8), so that a binary file is refused instead of echoed back in a parse error.
std::string read_text_file(const std::string& path, const std::string& what);

// Throws an Error naming `option` and the path when `path` cannot be written: empty, a
// directory, a parent directory that does not exist or is not writable, a place no file can
// be created in (/proc), or, when `extension` is given (".png"), a name with another
// extension, so that a PNG never lands in out.jpg. An existing device or pipe (/dev/stdout,
// /dev/full) is taken whatever its name: it is where the user sends the bytes. Leaves nothing
// behind: a file created to test the place is removed at once.
void check_output_path(const std::string& path, const std::string& option,
                       const std::string& extension = {});

// Writes `bytes` to `path` whole, or throws Error(io_error) naming `option`, the path and the
// OS's reason (a full disk shows when the file is closed, and is reported too).
void write_output_file(const std::string& path, const std::string& option, std::string_view bytes);

// Flushes standard output; throws Error(io_error) when anything written to it was lost.
void finish_stdout();

} // namespace drawpipe::cli
