#include "draw/registry.hpp"

#include "draw/error.hpp"

namespace drawpipe {

MiddleEndRegistry& MiddleEndRegistry::global() {
    static MiddleEndRegistry registry;
    return registry;
}

void MiddleEndRegistry::add(std::string name, std::string description, MiddleEndFactory factory) {
    for (Entry& e : entries_)
        if (e.name == name) {
            e = {std::move(name), std::move(description), std::move(factory)};
            return;
        }
    entries_.push_back({std::move(name), std::move(description), std::move(factory)});
}

std::unique_ptr<MiddleEnd> MiddleEndRegistry::create(std::string_view name) const {
    for (const Entry& e : entries_)
        if (e.name == name) return e.factory();
    std::string known;
    for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
    throw Error(ErrorCode::not_found,
                "middle end '" + std::string(name) + "' is not registered (known: " + known + ")");
}

bool MiddleEndRegistry::contains(std::string_view name) const {
    for (const Entry& e : entries_)
        if (e.name == name) return true;
    return false;
}

} // namespace drawpipe
