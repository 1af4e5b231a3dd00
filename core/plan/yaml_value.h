#pragma once

#include <functional>

#include "core/expr/value.h"
#include "core/util/result.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// A workflow's YAML as the expression language sees it (a matrix, an env block, inputs): plain
// scalars typed by the YAML 1.2 core schema as GitHub's reader types them (null, booleans,
// numbers in every core spelling), quoted and block scalars as strings, sequences as arrays,
// mappings as objects. A scalar holding `${{` is given to `evaluate` (its value stands in the
// scalar's place, an array or object included); without one it is refused
// (`expression-in-matrix`: its value is known only once it is evaluated).
using ScalarEvaluator = std::function<util::Result<expr::Value>(const yaml::Node&)>;
util::Result<expr::Value> to_expression_value(const yaml::Node& node,
                                              const ScalarEvaluator* evaluate = nullptr);

}  // namespace reviewer::plan
