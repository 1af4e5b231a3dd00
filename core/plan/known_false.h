#pragma once

#include "core/expr/ast.h"
#include "core/expr/value.h"

namespace reviewer::plan {

// Whether an `if:` that reads what the review cannot know is false whatever those values are:
// it is a chain of `&&` whose operands the runner evaluates left to right, stopping at the first
// falsy one, and an operand known at plan time is falsy, with every operand before it unable to
// fail (no function call but contains, startsWith and endsWith, so no operand before it can end
// the evaluation with an error). picomatch's upload step: `startsWith(matrix.os, 'ubuntu') &&
// matrix.node == 25 && (github.event_name != 'pull_request' || github.event...)` is false for
// every other node, whatever the event holds.
bool false_whatever_unknown(const expr::Node& condition, const expr::Object& contexts);

}  // namespace reviewer::plan
