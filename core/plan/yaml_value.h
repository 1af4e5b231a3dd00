#pragma once

#include "core/expr/value.h"
#include "core/util/result.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// A workflow's YAML as the expression language sees it (a matrix, an env block, inputs): plain
// scalars typed by the YAML 1.2 core schema as GitHub's reader types them (null, booleans,
// numbers in every core spelling), quoted and block scalars as strings, sequences as arrays,
// mappings as objects. A scalar holding `${{` is refused (`expression-in-matrix` for now: its
// value is known only once it is evaluated).
util::Result<expr::Value> to_expression_value(const yaml::Node& node);

}  // namespace reviewer::plan
