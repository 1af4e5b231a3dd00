#include "core/plan/matrix.h"

#include <algorithm>
#include <optional>

#include "core/expr/json_value.h"
#include "core/expr/text_case.h"
#include "core/util/text.h"

namespace reviewer::plan {
namespace {

util::Refusal refuse(const std::string& rule, const std::string& message) {
  return util::Refusal{rule, message, std::nullopt};
}

bool same(const expr::Value& a, const expr::Value& b) {
  if (a.kind() != b.kind()) {
    return false;
  }
  switch (a.kind()) {
    case expr::Kind::kNull:
      return true;
    case expr::Kind::kBoolean:
      return a.as_boolean() == b.as_boolean();
    case expr::Kind::kNumber:
      return a.as_number() == b.as_number();
    case expr::Kind::kString:
      return a.as_string() == b.as_string();
    case expr::Kind::kArray: {
      const auto& x = a.as_array().items;
      const auto& y = b.as_array().items;
      return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), same);
    }
    case expr::Kind::kObject: {
      const auto& x = a.as_object().entries();
      const auto& y = b.as_object().entries();
      if (x.size() != y.size()) {
        return false;
      }
      for (const auto& [k, v] : x) {
        const expr::Value* w = b.as_object().find(k);
        if (w == nullptr || !same(v, *w)) {
          return false;
        }
      }
      return true;
    }
  }
  return false;
}

std::string shown(const expr::Value& v) {
  return v.is_primitive() ? v.coerce_string() : expr::to_compact_json(v);
}

// `text` in a message: as it is when short, else cut as util::quote cuts any quoted value. A
// matrix value may be a mebibyte, and a listing names up to 32 combinations of them.
std::string cut(const std::string& text) {
  return text.size() <= util::kQuoteMax ? text : util::quote(text);
}

// How much of the combinations a refusal lists: enough to choose from, a few KiB whatever the
// matrix holds (256 combinations of a 960 KiB value made a 240 MB message, issue 37).
constexpr std::size_t kListedCombinations = 32;
constexpr std::size_t kListingBytes = 4096;

// A combination's label with long keys and values cut, and cut itself past kListingBytes.
std::string cut_label(const MatrixCombination& c) {
  std::string out;
  for (const auto& [k, v] : c.values.entries()) {
    if (out.size() >= kListingBytes) {
      return out + ", ...";
    }
    out += (out.empty() ? "" : ", ") + cut(k) + "=" + cut(shown(v));
  }
  return out;
}

// The matrix's values in all combinations together: 256 combinations of 256 keys. Without it an
// `include` entry of 12,000 keys, merged into each of 256 combinations, made three million
// values (430 MB, 24 s) from a 110 KB workflow (issue 37).
constexpr std::size_t kMaxMatrixValues = 256 * 256;

util::Refusal too_many_values() {
  return refuse("matrix-too-large", "the matrix's combinations hold more than " +
                                        std::to_string(kMaxMatrixValues) +
                                        " values together; the review expands at most that many "
                                        "(256 combinations of 256 keys)");
}

// The keys of `entry` that `combination` lacks (what merging it adds).
std::size_t added_keys(const expr::Object& combination, const expr::Object& entry) {
  std::size_t n = 0;
  for (const auto& [k, v] : entry.entries()) {
    n += combination.find(k) == nullptr ? 1 : 0;
  }
  return n;
}

// Every key of `entry` that the combination has holds the same value there.
bool matches(const expr::Object& combination, const expr::Object& entry) {
  for (const auto& [k, v] : entry.entries()) {
    const expr::Value* have = combination.find(k);
    if (have == nullptr || !same(*have, v)) {
      return false;
    }
  }
  return true;
}

util::Result<std::vector<expr::Object>> entries_of(const expr::Object& matrix, const char* key) {
  std::vector<expr::Object> out;
  const expr::Value* list = matrix.find(key);
  if (list == nullptr || list->kind() == expr::Kind::kNull) {
    return out;
  }
  if (list->kind() != expr::Kind::kArray) {
    return refuse("matrix-invalid", std::string("matrix '") + key + "' must be a list of mappings");
  }
  for (const auto& item : list->as_array().items) {
    if (item.kind() != expr::Kind::kObject) {
      return refuse("matrix-invalid", std::string("matrix '") + key + "' entry " +
                                          cut(shown(item)) + " is not a mapping");
    }
    out.push_back(item.as_object());
  }
  return out;
}

std::string listing(const std::vector<MatrixCombination>& combinations) {
  std::string out;
  std::size_t listed = 0;
  for (const auto& c : combinations) {
    if (listed == kListedCombinations || out.size() >= kListingBytes) {
      break;
    }
    // One line: messages are printed with control characters escaped.
    out += (out.empty() ? " " : " | ") + cut_label(c);
    ++listed;
  }
  if (listed < combinations.size()) {
    out += " | and " + std::to_string(combinations.size() - listed) + " more";
  }
  return out;
}

// The original dimensions, in the order written: each key (but include and exclude) and its
// values.
using Dimensions = std::vector<std::pair<std::string, const expr::Array*>>;

util::Result<Dimensions> dimensions_of(const expr::Object& matrix) {
  Dimensions dims;
  for (const auto& [k, v] : matrix.entries()) {
    const std::string folded = expr::lower(k);
    if (folded == "include" || folded == "exclude") {
      continue;
    }
    if (v.kind() != expr::Kind::kArray) {
      return refuse("matrix-invalid", "matrix key " + util::quote(k) +
                                          " must be a list of values, not " + cut(shown(v)));
    }
    if (v.as_array().items.empty()) {
      return refuse("matrix-invalid", "matrix key " + util::quote(k) + " has no values");
    }
    dims.emplace_back(k, &v.as_array());
  }
  return dims;
}

// The cartesian product of the dimensions, the first varying slowest; bounded before it is built.
util::Result<std::vector<expr::Object>> product_of(const Dimensions& dims) {
  std::size_t product = dims.empty() ? 0 : 1;
  for (const auto& [k, values] : dims) {
    product *= values->items.size();
    if (product > kMaxMatrixCombinations * 16) {
      return refuse("matrix-too-large", "the matrix makes more than " +
                                            std::to_string(kMaxMatrixCombinations) +
                                            " combinations; GitHub runs at most that many");
    }
  }
  // One-valued keys do not grow the product but every combination of it.
  if (product * dims.size() > kMaxMatrixValues) {
    return too_many_values();
  }
  std::vector<expr::Object> base;
  for (std::size_t n = 0; n < product; ++n) {
    expr::Object combination;
    std::size_t rest = n;
    std::size_t stride = product;
    for (const auto& [k, values] : dims) {
      stride /= values->items.size();
      combination.add(k, values->items[rest / stride]);
      rest %= stride;
    }
    base.push_back(std::move(combination));
  }
  return base;
}

// Removes from `base` the combinations each exclude entry matches; refuses an entry naming a key
// the matrix does not have (none is removed then).
std::optional<util::Refusal> apply_excludes(const std::vector<expr::Object>& excludes,
                                            const Dimensions& dims,
                                            std::vector<expr::Object>& base) {
  for (const auto& ex : excludes) {
    for (const auto& [k, v] : ex.entries()) {
      const bool known = std::any_of(dims.begin(), dims.end(), [&key = k](const auto& d) {
        return expr::lower(d.first) == expr::lower(key);
      });
      if (!known) {
        return refuse("matrix-invalid", "matrix 'exclude' names " + util::quote(k) +
                                            ", which is not a key of the matrix");
      }
    }
    base.erase(std::remove_if(base.begin(), base.end(),
                              [&](const expr::Object& c) { return matches(c, ex); }),
               base.end());
  }
  return std::nullopt;
}

// Whether `include` keeps every key `original` has (then it is merged into that combination).
bool fits(const expr::Object& original, const expr::Object& include) {
  for (const auto& [k, v] : include.entries()) {
    const expr::Value* have = original.find(k);
    if (have != nullptr && !same(*have, v)) {
      return false;
    }
  }
  return true;
}

// `merged` with `include` over it: a value an earlier include added (not in `original`) is
// replaced in place, and keys it adds come after.
expr::Object merge_include(const expr::Object& merged, const expr::Object& original,
                           const expr::Object& include) {
  expr::Object updated;
  for (const auto& [k, v] : merged.entries()) {
    const expr::Value* replacement = original.find(k) == nullptr ? include.find(k) : nullptr;
    updated.add(k, replacement != nullptr ? *replacement : v);
  }
  for (const auto& [k, v] : include.entries()) {
    updated.add(k, v);  // keys it adds (a key already there is kept as updated above)
  }
  return updated;
}

// Includes: merged into the original combinations they fit, else combinations of their own;
// every value they add is counted against kMaxMatrixValues as it is added.
util::Result<std::vector<expr::Object>> apply_includes(const std::vector<expr::Object>& base,
                                                       std::size_t keys,
                                                       const std::vector<expr::Object>& includes) {
  std::vector<expr::Object> merged = base;
  std::vector<expr::Object> extra;
  std::size_t values = base.size() * keys;
  for (const auto& inc : includes) {
    bool fitted = false;
    for (std::size_t i = 0; i < base.size(); ++i) {
      if (!fits(base[i], inc)) {
        continue;
      }
      fitted = true;
      values += added_keys(merged[i], inc);
      if (values > kMaxMatrixValues) {
        return too_many_values();
      }
      merged[i] = merge_include(merged[i], base[i], inc);
    }
    if (!fitted) {
      values += inc.entries().size();
      if (values > kMaxMatrixValues) {
        return too_many_values();
      }
      extra.push_back(inc);
    }
  }
  merged.insert(merged.end(), extra.begin(), extra.end());
  return merged;
}

// The combinations numbered in order, once there is at least one and no more than GitHub runs.
util::Result<std::vector<MatrixCombination>> numbered(std::vector<expr::Object> merged) {
  if (merged.empty()) {
    return refuse("matrix-empty", "the matrix has no combination left to run");
  }
  if (merged.size() > kMaxMatrixCombinations) {
    return refuse("matrix-too-large", "the matrix makes " + std::to_string(merged.size()) +
                                          " combinations; GitHub runs at most " +
                                          std::to_string(kMaxMatrixCombinations));
  }
  std::vector<MatrixCombination> out;
  for (auto& m : merged) {
    out.push_back({std::move(m), out.size()});
  }
  return out;
}

}  // namespace

std::string MatrixCombination::label() const {
  std::string out;
  for (const auto& [k, v] : values.entries()) {
    out += (out.empty() ? "" : ", ") + k + "=" + shown(v);
  }
  return out;
}

util::Result<std::vector<MatrixCombination>> expand_matrix(const expr::Object& matrix) {
  auto dims = dimensions_of(matrix);
  if (!dims) {
    return dims.error();
  }
  auto excludes = entries_of(matrix, "exclude");
  if (!excludes) {
    return excludes.error();
  }
  auto includes = entries_of(matrix, "include");
  if (!includes) {
    return includes.error();
  }
  auto base = product_of(*dims);
  if (!base) {
    return base.error();
  }
  if (auto refused = apply_excludes(*excludes, *dims, *base)) {
    return *refused;
  }
  auto merged = apply_includes(*base, dims->size(), *includes);
  if (!merged) {
    return merged.error();
  }
  return numbered(std::move(*merged));
}

util::Result<MatrixCombination> choose_combination(
    const std::vector<MatrixCombination>& combinations,
    const std::vector<std::pair<std::string, std::string>>& choice) {
  if (choice.empty()) {
    if (combinations.size() == 1) {
      return combinations.front();
    }
    return refuse("matrix-combination-required",
                  "the job runs in " + std::to_string(combinations.size()) +
                      " matrix combinations and the review runs one: choose it with --matrix "
                      "NAME=VALUE ...; the combinations are:" +
                      listing(combinations));
  }
  std::vector<const MatrixCombination*> hits;
  for (const auto& c : combinations) {
    const bool all = std::all_of(choice.begin(), choice.end(), [&](const auto& kv) {
      const expr::Value* v = c.values.find(kv.first);
      return v != nullptr && shown(*v) == kv.second;
    });
    if (all) {
      hits.push_back(&c);
    }
  }
  std::string asked;
  for (const auto& [k, v] : choice) {
    asked += (asked.empty() ? "" : ", ") + cut(k) + "=" + cut(v);
  }
  if (hits.empty()) {
    return refuse(
        "matrix-combination-missing",
        "no matrix combination has " + asked + "; the combinations are:" + listing(combinations));
  }
  if (hits.size() > 1) {
    std::vector<MatrixCombination> matched;
    for (const auto* h : hits) {
      matched.push_back(*h);
    }
    return refuse("matrix-combination-ambiguous",
                  std::to_string(hits.size()) + " matrix combinations have " + asked +
                      "; name more keys to choose one of:" + listing(matched));
  }
  return *hits.front();
}

}  // namespace reviewer::plan

namespace reviewer::plan {

util::Result<std::vector<std::pair<std::string, std::string>>> parse_matrix_choice(
    const std::vector<std::string>& pairs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : pairs) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      return refuse("matrix-choice-invalid",
                    "a matrix choice is NAME=VALUE, got " + util::quote(p));
    }
    if (util::has_control_character(p)) {
      return refuse("matrix-choice-invalid",
                    "a matrix choice holds a control character: " + util::quote(p));
    }
    std::string name = p.substr(0, eq);
    for (const auto& [n, v] : out) {
      if (expr::lower(n) == expr::lower(name)) {
        return refuse("matrix-choice-invalid",
                      "the matrix key " + util::quote(name) + " is chosen twice");
      }
    }
    out.emplace_back(std::move(name), p.substr(eq + 1));
  }
  return out;
}

}  // namespace reviewer::plan
