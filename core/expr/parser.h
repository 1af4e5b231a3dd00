#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr/ast.h"
#include "core/util/result.h"

namespace reviewer::expr {

// The deepest nesting the language accepts.
inline constexpr int kMaxDepth = 50;

// A function beyond the language's own (contains, startsWith, endsWith, format, join, toJSON,
// fromJSON, case): the runner's status functions and hashFiles, allowed only where the runner
// allows them.
struct FunctionSignature {
  std::string name;  // lower case
  std::size_t min_args = 0;
  std::size_t max_args = 0;
};

// Where an expression stands decides what it may name.
struct Scope {
  std::vector<std::string> contexts;         // lower case: github, env, matrix, ...
  std::vector<FunctionSignature> functions;  // beyond the language's own
};

// The runner's status functions (success, always, cancelled, failure) and hashFiles.
std::vector<FunctionSignature> status_functions();
FunctionSignature hash_files_function();

// Parses `text` once into a tree, with GitHub's precedence (! then comparisons then ==/!= then
// && then ||), case-insensitive context and function names, and argument counts checked.
// Errors (`expression-invalid`): the lexer's, an unexpected symbol or end, an unknown context
// or function, too few or too many arguments, nesting deeper than kMaxDepth, an empty text.
util::Result<std::unique_ptr<Node>> parse(std::string_view text, const Scope& scope);

}  // namespace reviewer::expr
