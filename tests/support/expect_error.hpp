// Checks that a call throws drawpipe::Error with a given code and a message naming `needle`
// (the field or rule a user must read to fix the call).
#pragma once

#include "drawpipe/error.hpp"

#include <gtest/gtest.h>

#include <string_view>

namespace drawpipe::test {

template <class F> void expect_error(F&& f, ErrorCode code, std::string_view needle) {
    try {
        f();
        FAIL() << "expected " << error_code_name(code);
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), code) << e.what();
        EXPECT_NE(std::string_view(e.what()).find(needle), std::string_view::npos) << e.what();
    }
}

} // namespace drawpipe::test
