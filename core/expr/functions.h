#pragma once

#include <string>
#include <vector>

#include "core/expr/budget.h"
#include "core/expr/value.h"
#include "core/util/result.h"

namespace reviewer::expr {

// True for the language's own functions (lower-case name): contains, startswith, endswith,
// format, join, tojson, fromjson, case.
bool is_language_function(const std::string& name);

// Calls one of them on evaluated arguments (the parser has checked their number), counting what
// it builds in `budget`. Errors (`expression-error`): format() with a bad or out-of-range
// placeholder, fromJSON() of empty or malformed JSON, case() with a predicate that is not a
// boolean; `expression-too-large` when what format(), join(), toJSON() or fromJSON() builds
// would cross the budget's bounds (the refusal names the function, not where it stands).
util::Result<Value> call_language_function(const std::string& name, const std::vector<Value>& args,
                                           Budget& budget);

}  // namespace reviewer::expr
