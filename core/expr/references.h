#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/expr/ast.h"

namespace reviewer::expr {

// One use of a context: `github.sha` is {github, sha}; `github[x]` or a bare `github` name no
// property (the whole context may be read).
struct ContextUse {
  std::string context;  // as written (names are compared without regard to case)
  std::optional<std::string> property;
};

// What an expression reads, so a caller can tell before evaluating whether every value it needs
// is known where it stands.
struct References {
  std::vector<ContextUse> contexts;
  std::vector<std::string> functions;  // lower case, each call once per use
};

References references(const Node& root);

}  // namespace reviewer::expr
