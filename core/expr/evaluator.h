#pragma once

#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/value.h"
#include "core/util/result.h"

namespace reviewer::expr {

// What only the runner knows when it evaluates: the status functions (success, always,
// cancelled, failure) and hashFiles. The evaluator calls it for every function that is not the
// language's own.
class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual util::Result<Value> call(const std::string& name, const std::vector<Value>& args) = 0;
};

// Evaluates a parsed expression over `contexts` (an object whose keys are context names) as
// GitHub does: && and || return an operand and stop early, comparisons coerce loosely, property
// access ignores case, `.*` filters, missing properties are null. Errors (`expression-error`):
// format() and fromJSON() on bad input, case() with a predicate that is not a boolean, a runtime
// function with no runtime to answer it. `expression-too-large` (budget.h): what it builds, and
// the string it yields, would cross a bound of one value or one evaluation, or of this thread's
// open SharedBudget; the message names the function or filter and its character.
util::Result<Value> evaluate(const Node& root, const Object& contexts, Runtime* runtime = nullptr);

}  // namespace reviewer::expr
