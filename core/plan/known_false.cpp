#include "core/plan/known_false.h"

#include <vector>

#include "core/expr/evaluator.h"
#include "core/expr/references.h"
#include "core/plan/job_contexts.h"

namespace reviewer::plan {
namespace {

using Type = expr::Node::Type;

const expr::Node* without_groups(const expr::Node* n) {
  while (n->type == Type::kGroup) {
    n = n->args.front().get();
  }
  return n;
}

// `a && (b && c)` is evaluated as `a && b && c`: the operands in the runner's order.
void and_operands(const expr::Node* n, std::vector<const expr::Node*>& out) {
  n = without_groups(n);
  if (n->type != Type::kAnd) {
    out.push_back(n);
    return;
  }
  for (const auto& a : n->args) {
    and_operands(a.get(), out);
  }
}

// Property reads, comparisons and the logical operators yield a value for any input (a missing
// property is null); of the functions, only these three never fail.
bool cannot_fail(const expr::Node& n) {
  if (n.type == Type::kCall && n.name != "contains" && n.name != "startswith" &&
      n.name != "endswith") {
    return false;
  }
  for (const auto& a : n.args) {
    if (!cannot_fail(*a)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool false_whatever_unknown(const expr::Node& condition, const expr::Object& contexts) {
  std::vector<const expr::Node*> operands;
  and_operands(&condition, operands);
  for (const expr::Node* op : operands) {
    if (classify(expr::references(*op), contexts).knowledge == Knowledge::kPlanTime) {
      auto v = expr::evaluate(*op, contexts, nullptr);
      if (!v) {
        return false;
      }
      if (!expr::truthy(*v)) {
        return true;
      }
    } else if (!cannot_fail(*op)) {
      return false;
    }
  }
  return false;
}

}  // namespace reviewer::plan
