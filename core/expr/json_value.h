#pragma once

#include <string>
#include <string_view>

#include "core/expr/budget.h"
#include "core/expr/value.h"
#include "core/util/result.h"

namespace reviewer::expr {

// fromJSON's reading: strict JSON as JavaScript's JSON.parse reads it, into expression values.
// An object's keys come in JavaScript's order (integer-like keys ascending, then the others as
// written; a repeated key keeps its first place and its last value), and a key equal to an
// earlier one but for case is dropped. Errors: `expression-error`, with `max_depth` bounding
// nesting; with a `budget` (fromJSON's), `expression-too-large` once the values made cross its
// bounds (each array or object item counted before it is read, each string once read).
inline constexpr int kMaxJsonDepth = 512;
util::Result<Value> parse_json(std::string_view text, int max_depth = kMaxJsonDepth,
                               Budget* budget = nullptr);

// toJSON's writing: JSON.stringify with two-space indentation; numbers as JavaScript prints them
// (NaN and Infinity as null), strings escaped as JSON.stringify escapes them.
std::string to_pretty_json(const Value& v);
// The same within `budget`: `expression-too-large` before a piece of text would cross its
// bounds (each toJSON() of a string doubles its backslashes: nesting them is exponential).
util::Result<std::string> to_pretty_json(const Value& v, Budget& budget);

// One-line JSON of a value (for `reviewer expression`): the same rules without indentation;
// a number that is not finite is written as null.
std::string to_compact_json(const Value& v);

}  // namespace reviewer::expr
