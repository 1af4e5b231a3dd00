#pragma once

#include <string>
#include <string_view>

#include "core/expr/value.h"
#include "core/util/result.h"

namespace reviewer::expr {

// fromJSON's reading: strict JSON as JavaScript's JSON.parse reads it, into expression values.
// An object's keys come in JavaScript's order (integer-like keys ascending, then the others as
// written; a repeated key keeps its first place and its last value), and a key equal to an
// earlier one but for case is dropped. Errors: `expression-error`, with `max_depth` bounding
// nesting.
util::Result<Value> parse_json(std::string_view text, int max_depth = 512);

// toJSON's writing: JSON.stringify with two-space indentation; numbers as JavaScript prints them
// (NaN and Infinity as null), strings escaped as JSON.stringify escapes them.
std::string to_pretty_json(const Value& v);

// One-line JSON of a value (for `reviewer expression`): the same rules without indentation;
// a number that is not finite is written as null.
std::string to_compact_json(const Value& v);

}  // namespace reviewer::expr
