#include "tools/common/files.hpp"

#include "drawpipe/error.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fcntl.h>
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

std::string read_text_file(const std::string& path, const std::string& what) {
    std::string text = read_input_file(path, what);
    // UTF-8 is checked byte by byte: a lead byte announces how many continuation bytes follow.
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        size_t follow = 0;
        bool bad = false;
        if (c < 0x20)
            bad = c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v';
        else if (c == 0x7F)
            bad = true;
        else if (c >= 0x80)
            follow = c >= 0xC2 && c <= 0xDF   ? 1
                     : c >= 0xE0 && c <= 0xEF ? 2
                     : c >= 0xF0 && c <= 0xF4 ? 3
                                              : 0;
        if (c >= 0x80 && follow == 0) bad = true;
        for (size_t k = 1; !bad && k <= follow; ++k)
            bad = i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80;
        if (bad) {
            char where[64];
            std::snprintf(where, sizeof where, "byte 0x%02X at offset %zu", c, i);
            throw Error(ErrorCode::parse_error, what + " '" + path + "': not a text file (" +
                                                    where + "); a " + what + " is text");
        }
        i += follow;
    }
    return text;
}

void check_output_path(const std::string& path, const std::string& option,
                       const std::string& extension) {
    namespace fs = std::filesystem;
    if (path.empty()) throw Error(ErrorCode::invalid_value, option + ": an empty path");
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw Error(ErrorCode::not_found, option + " '" + path + "': is a directory");
    const fs::file_status st = fs::status(path, ec);
    const bool special = fs::exists(st) && !fs::is_regular_file(st); // a device or a pipe
    if (!extension.empty() && !special) {
        std::string ext = fs::path(path).extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        std::string format = extension.substr(1);
        std::transform(format.begin(), format.end(), format.begin(),
                       [](unsigned char ch) { return char(std::toupper(ch)); });
        if (ext != extension)
            throw Error(ErrorCode::invalid_value, option + " '" + path + "': the file written is " +
                                                      format + ", so its name must end in " +
                                                      extension);
    }
    const fs::path parent = fs::path(path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (!fs::is_directory(dir, ec))
        throw Error(ErrorCode::not_found, option + " '" + path + "': no directory '" + dir + "'");
    if (::access(dir.c_str(), W_OK) != 0 ||
        (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0))
        throw Error(ErrorCode::not_found, option + " '" + path + "': " + std::strerror(errno));
    if (special) return;
    // access() says yes for root everywhere, /proc included: only opening tells. An existing
    // file is opened without truncating it; a new one is created and removed at once.
    const bool existed = fs::exists(path, ec);
    const int fd = ::open(path.c_str(), existed ? O_WRONLY : O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        throw Error(ErrorCode::not_found, option + " '" + path + "': cannot write a file there (" +
                                              std::strerror(errno) + ")");
    ::close(fd);
    if (!existed) ::unlink(path.c_str());
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
