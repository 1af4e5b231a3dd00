#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/yaml/node.h"

namespace reviewer::yaml {

// Finds a duplicate key in a large mapping while it is being built. It stores indexes into the
// mapping's entries (not copies of the keys, and not views that a growing vector would leave
// dangling), in one open-addressing table: no allocation per key.
class KeyIndex {
 public:
  // Adds `key`, about to become entry number entries.size(); false if it is already there.
  bool insert(std::string_view key, const std::vector<std::pair<Node, Node>>& entries) {
    if ((entries.size() + 1) * 2 > slots_.size()) {
      rebuild(entries, (entries.size() + 1) * 4);
    }
    std::size_t i = probe(key, entries);
    if (slots_[i] != 0) {
      return false;
    }
    slots_[i] = static_cast<std::uint32_t>(entries.size() + 1);
    return true;
  }

 private:
  std::size_t probe(std::string_view key, const std::vector<std::pair<Node, Node>>& entries) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = std::hash<std::string_view>{}(key)&mask;; i = (i + 1) & mask) {
      if (slots_[i] == 0 || entries[slots_[i] - 1].first.scalar == key) {
        return i;
      }
    }
  }

  void rebuild(const std::vector<std::pair<Node, Node>>& entries, std::size_t at_least) {
    std::size_t size = 64;
    while (size < at_least) {
      size *= 2;
    }
    slots_.assign(size, 0);
    for (std::size_t e = 0; e < entries.size(); ++e) {
      slots_[probe(entries[e].first.scalar, entries)] = static_cast<std::uint32_t>(e + 1);
    }
  }

  std::vector<std::uint32_t> slots_;  // 0 = empty, otherwise entry index + 1
};

}  // namespace reviewer::yaml
