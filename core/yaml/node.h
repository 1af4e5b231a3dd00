#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/util/source_location.h"

namespace reviewer::yaml {

// A YAML node as the bounded loader built it: scalars stay text (no type guessing: GitHub's
// own reader decides meaning, and the planner only accepts literal strings), every node knows
// where it was written.
struct Node {
  enum class Kind { kNull, kScalar, kSequence, kMapping };

  Kind kind = Kind::kNull;
  std::string scalar;                          // kScalar only
  bool plain = false;                          // kScalar written without quotes or block style
  std::vector<Node> items;                     // kSequence
  std::vector<std::pair<Node, Node>> entries;  // kMapping, in document order
  util::SourceLocation location;

  bool is_null() const { return kind == Kind::kNull; }
  bool is_scalar() const { return kind == Kind::kScalar; }
  bool is_sequence() const { return kind == Kind::kSequence; }
  bool is_mapping() const { return kind == Kind::kMapping; }

  // The value of key `key` in a mapping, or nullptr (keys are unique: the loader refuses dups).
  const Node* find(std::string_view key) const {
    for (const auto& [k, v] : entries) {
      if (k.scalar == key) return &v;
    }
    return nullptr;
  }
  // The key node of `key`, for positions.
  const Node* find_key(std::string_view key) const {
    for (const auto& [k, v] : entries) {
      if (k.scalar == key) return &k;
    }
    return nullptr;
  }
};

}  // namespace reviewer::yaml
