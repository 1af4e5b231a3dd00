#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/expr/value.h"

namespace reviewer::expr {

// One node of a parsed expression. `offset` is the byte offset in the expression text of the
// token that made the node, for messages.
struct Node {
  enum class Type {
    kLiteral,  // literal
    kContext,  // name: a context (github, matrix, ...)
    kIndex,    // args[0][args[1]], or args[0].* / args[0][*] when star
    kCall,     // name(args...), name lower-cased
    kNot,      // !args[0]
    kCompare,  // args[0] op args[1]
    kAnd,      // args[0] && args[1] && ...
    kOr,       // args[0] || args[1] || ...
    kGroup,    // (args[0])
  };
  enum class Op { kEq, kNe, kGt, kGe, kLt, kLe };

  Type type = Type::kLiteral;
  Op op = Op::kEq;
  bool star = false;
  Value literal;
  std::string name;
  std::vector<std::unique_ptr<Node>> args;
  std::size_t offset = 0;
};

}  // namespace reviewer::expr
