// Middle ends by name: a new middle end is one folder and one registration line.
#pragma once

#include "draw/middle_end.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

using MiddleEndFactory = std::function<std::unique_ptr<MiddleEnd>()>;

class MiddleEndRegistry {
  public:
    // The process-wide registry, holding drawpipe's built-in middle ends once
    // register_builtin_middle_ends() (middle_ends/builtin.hpp) has run.
    static MiddleEndRegistry& global();

    // Adds or replaces a factory. Not thread-safe against concurrent create().
    void add(std::string name, std::string description, MiddleEndFactory factory);
    // Creates a middle end; throws Error(not_found) listing the known names.
    std::unique_ptr<MiddleEnd> create(std::string_view name) const;
    bool contains(std::string_view name) const;
    struct Entry {
        std::string name;
        std::string description;
        MiddleEndFactory factory;
    };
    const std::vector<Entry>& entries() const { return entries_; }

  private:
    std::vector<Entry> entries_;
};

} // namespace drawpipe
