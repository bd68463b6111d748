// Strategy names: parsed from and printed as the CLI and benchmarks spell them.
#include "draw/front_end/front_end.hpp"
#include "drawpipe/limits.hpp"

#include <bit>
#include <charconv>

namespace drawpipe {

std::optional<Strategy> Strategy::parse(std::string_view name) {
    if (name == "distinct" || name == "default") return Strategy{Kind::distinct, 0};
    if (name == "vsplit") return Strategy{Kind::vsplit, kVsplitTableEntries};
    if (name == "exact") return Strategy{Kind::exact, 0};
    if (name == "none") return Strategy{Kind::none, 0};
#if DRAWPIPE_WITH_REORDER
    if (name == "reorder") return Strategy{Kind::reorder, 0};
#endif
    if (name.starts_with("direct-")) {
        uint32_t n = 0;
        const auto digits = name.substr(7);
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec == std::errc{} && ptr == digits.data() + digits.size() && n >= 2 &&
            n <= (1u << 24) && std::has_single_bit(n))
            return Strategy{Kind::direct, n};
    }
    return std::nullopt;
}

std::string Strategy::name() const {
    switch (kind) {
    case Kind::distinct:
        return "distinct";
    case Kind::vsplit:
        return "vsplit";
    case Kind::direct:
        return "direct-" + std::to_string(entries);
    case Kind::exact:
        return "exact";
    case Kind::none:
        return "none";
    case Kind::reorder:
        return "reorder";
    }
    return "?";
}

} // namespace drawpipe
