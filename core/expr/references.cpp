#include "core/expr/references.h"

namespace reviewer::expr {
namespace {

void walk(const Node& n, References& out) {
  if (n.type == Node::Type::kIndex && !n.star && n.args.size() == 2 &&
      n.args[0]->type == Node::Type::kContext && n.args[1]->type == Node::Type::kLiteral &&
      n.args[1]->literal.kind() == Kind::kString) {
    out.contexts.push_back({n.args[0]->name, n.args[1]->literal.as_string()});
    return;
  }
  if (n.type == Node::Type::kContext) {
    out.contexts.push_back({n.name, std::nullopt});
  } else if (n.type == Node::Type::kCall) {
    out.functions.push_back(n.name);
  }
  for (const auto& a : n.args) {
    walk(*a, out);
  }
}

}  // namespace

References references(const Node& root) {
  References out;
  walk(root, out);
  return out;
}

}  // namespace reviewer::expr
