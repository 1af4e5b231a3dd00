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

  // Declared here and defaulted below the class: `entries` holds pairs of Node, which must be
  // complete before their special members are instantiated (clang with libstdc++ insists).
  Node();
  Node(const Node&);
  Node(Node&&) noexcept;
  Node& operator=(const Node&);
  Node& operator=(Node&&) noexcept;
  ~Node();

  bool is_null() const { return kind == Kind::kNull; }
  bool is_scalar() const { return kind == Kind::kScalar; }
  bool is_sequence() const { return kind == Kind::kSequence; }
  bool is_mapping() const { return kind == Kind::kMapping; }

  // The value of key `key` in a mapping, or nullptr (keys are unique: the loader refuses dups).
  const Node* find(std::string_view key) const {
    for (const auto& [k, v] : entries) {
      if (k.scalar == key) {
        return &v;
      }
    }
    return nullptr;
  }
  // The key node of `key`, for positions.
  const Node* find_key(std::string_view key) const {
    for (const auto& [k, v] : entries) {
      if (k.scalar == key) {
        return &k;
      }
    }
    return nullptr;
  }
};

inline Node::Node() = default;
inline Node::Node(const Node&) = default;
inline Node::Node(Node&&) noexcept = default;
inline Node& Node::operator=(const Node&) = default;
inline Node& Node::operator=(Node&&) noexcept = default;
inline Node::~Node() = default;

}  // namespace reviewer::yaml
