// Middle ends by name: a new middle end is one folder and one registration line. Middle
// ends are stateless, so the registry holds one shared instance of each.
#pragma once

#include "drawpipe/middle_end.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

class MiddleEndRegistry {
  public:
    struct Entry {
        std::string name;
        std::string description;
        std::shared_ptr<const MiddleEnd> middle;
    };

    // The process-wide registry: "fetch_shade" always, the hardware models once
    // register_builtin_middle_ends() (<drawpipe/middle_ends.hpp>) has run.
    static MiddleEndRegistry& global();

    // Adds, or replaces the entry of the same name. Thread-safe.
    void add(std::string name, std::string description, std::shared_ptr<const MiddleEnd> middle);
    // The middle end registered as `name`; throws Error(not_found) listing the known names.
    std::shared_ptr<const MiddleEnd> find(std::string_view name) const;
    bool contains(std::string_view name) const;
    // A copy of the entries, in registration order.
    std::vector<Entry> entries() const;

  private:
    mutable std::mutex mutex_;
    std::vector<Entry> entries_;
};

} // namespace drawpipe
