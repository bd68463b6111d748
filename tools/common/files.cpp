#include "tools/common/files.hpp"

#include "drawpipe/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace drawpipe::cli {

std::string read_input_file(const std::string& path, const std::string& what) {
    std::ostringstream s;
    if (path == "-") {
        s << std::cin.rdbuf();
        return s.str();
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(ErrorCode::not_found, what + " '" + path + "': is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::not_found, what + " '" + path + "': " + std::strerror(errno));
    s << in.rdbuf();
    if (in.bad())
        throw Error(ErrorCode::not_found, what + " '" + path + "': " + std::strerror(errno));
    return s.str();
}

void check_output_path(const std::string& path, const std::string& option) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw Error(ErrorCode::not_found, option + " '" + path + "': is a directory");
    const fs::path parent = fs::path(path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (!fs::is_directory(dir, ec))
        throw Error(ErrorCode::not_found, option + " '" + path + "': no directory '" + dir + "'");
    if (::access(dir.c_str(), W_OK) != 0 ||
        (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0))
        throw Error(ErrorCode::not_found, option + " '" + path + "': " + std::strerror(errno));
}

void write_output_file(const std::string& path, const std::string& option, std::string_view bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw Error(ErrorCode::io_error, option + " '" + path + "': " + std::strerror(errno));
    errno = 0;
    const bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    const int write_error = errno;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !closed)
        throw Error(ErrorCode::io_error,
                    option + " '" + path + "': " + std::strerror(wrote ? errno : write_error));
}

void finish_stdout() {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw Error(ErrorCode::io_error,
                    std::string("standard output: ") + std::strerror(errno ? errno : EIO));
}

} // namespace drawpipe::cli
