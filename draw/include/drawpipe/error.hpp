// Errors for bad input. Programmer errors are assertions; anything a caller can get wrong
// in a draw description or draw call is reported as a drawpipe::Error naming the field.
#pragma once

#include <stdexcept>
#include <string>

namespace drawpipe {

enum class ErrorCode {
    invalid_value,        // a field holds a value outside its domain (unknown prim, bad enum)
    index_buffer_overrun, // start + count reaches past the index buffer
    count_overflow,       // start + count (or a derived size) overflows 32 bits
    base_vertex_overflow, // index + base vertex leaves [0, 2^32)
    limit_too_small,      // middle end's max vertices below the primitive's minimum
    index_range_mismatch, // a supplied index range does not bound the indices (debug check)
    middle_end_failure,   // a middle end broke its contract (e.g. reported 0 vertices)
    unsupported,          // a legal request this component does not handle
    parse_error,          // malformed draw description text
    not_found,            // unknown middle end, backend, shader or strategy name
    invalid_operation,    // a call the current state does not allow (GL_INVALID_OPERATION)
    io_error,             // a file could not be written (the OS's reason in the message)
};

class Error : public std::runtime_error {
  public:
    Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
    ErrorCode code() const noexcept { return code_; }

  private:
    ErrorCode code_;
};

const char* error_code_name(ErrorCode code);

} // namespace drawpipe
