#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/expr/value.h"
#include "core/util/result.h"

namespace reviewer::plan {

// GitHub's limit on the jobs one matrix may make.
inline constexpr std::size_t kMaxMatrixCombinations = 256;

// One job of a matrix: the `matrix` context it runs with.
struct MatrixCombination {
  expr::Object values;
  std::size_t index = 0;  // its place among the combinations (strategy.job-index)
  // "node=22, os=ubuntu-latest": every key=value in order, for logs, reports and the host's
  // --matrix choice.
  std::string label() const;
};

// Expands `strategy.matrix` (an object: keys to arrays of values, plus `include` and `exclude`
// arrays of objects) exactly as GitHub does: the cartesian product with the first key varying
// slowest; then every `exclude` entry removes the combinations it matches (all its keys equal);
// then every `include` entry is merged into each original combination whose original keys it
// does not change (overwriting only values earlier includes added), or appended as a combination
// of its own when it fits none. Values compare by kind and value (strings exactly).
// Errors: matrix-invalid (a key's values not an array, include/exclude not arrays of objects,
// an exclude naming a key the matrix does not have), matrix-empty (no combination left),
// matrix-too-large (over kMaxMatrixCombinations, or more than 65,536 values in all the
// combinations together, counted before the product is built and as each include is merged).
util::Result<std::vector<MatrixCombination>> expand_matrix(const expr::Object& matrix);

// The one combination the host chose: each NAME=VALUE must name a key of the combination and
// equal its value as a string (GitHub's coercion: 22 is "22"). No choice selects the only
// combination of a one-job matrix. Errors, each listing the combinations (at most 32 of them or
// about 4 KiB, then "and N more"; a key or value over util::kQuoteMax bytes cut as util::quote
// cuts it):
// matrix-combination-required (several and no choice), matrix-combination-missing (none
// matches), matrix-combination-ambiguous (several match: name more keys).
util::Result<MatrixCombination> choose_combination(
    const std::vector<MatrixCombination>& combinations,
    const std::vector<std::pair<std::string, std::string>>& choice);

// Reads the host's `--matrix NAME=VALUE` arguments (also the assignment's
// REVIEWER_CI_MATRIX, one pair a line). Error: matrix-choice-invalid (no '=', an empty name, a
// name given twice, a control character).
util::Result<std::vector<std::pair<std::string, std::string>>> parse_matrix_choice(
    const std::vector<std::string>& pairs);

}  // namespace reviewer::plan
