// Splitting strategies: how the front end forms indexed segments and de-duplicates their
// vertices. Chosen per context (ContextOptions::draw) or per CLI run (--strategy).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace drawpipe {

// How indexed segments are formed and de-duplicated.
struct Strategy {
    enum class Kind : uint8_t {
        distinct, // default: segments bounded by distinct vertices, hashed sparse-set table
        vsplit,   // Mesa's: 1024-index segments, direct-mapped on index mod 256
        direct,   // direct-mapped on index mod `entries`, segments bounded by distinct vertices
        exact,    // exact de-duplication (open addressing), bounded by distinct vertices
        none,     // no de-duplication: every index fetched
        reorder,  // triangle lists put in vertex-cache order first (draw/front_end/reorder.cpp),
                  // then exact
    };
    Kind kind = Kind::distinct;
    uint32_t entries = 0; // direct-N

    // "distinct", "vsplit", "direct-N" (N a power of two), "exact", "none", "reorder".
    static std::optional<Strategy> parse(std::string_view name);
    std::string name() const;
};

} // namespace drawpipe
