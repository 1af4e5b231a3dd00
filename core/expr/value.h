#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace reviewer::expr {

class Value;

// An expression array. `filtered` marks the result of a `.*` / `[*]` filter, which a further
// property access maps over instead of indexing.
struct Array {
  std::vector<Value> items;
  bool filtered = false;
};

// An expression object: keys keep their first spelling and their order; lookups ignore case, and
// a key that differs from an earlier one only in case is dropped (GitHub's dictionaries). Adding
// and finding cost the logarithm of the size, so fromJSON of a large object is not quadratic.
class Object {
 public:
  void add(std::string key, Value value);
  const Value* find(std::string_view key) const;
  const std::vector<std::pair<std::string, Value>>& entries() const { return entries_; }
  // A copy with `key` (any case) set to `value`: an entry of that name is replaced, not added
  // twice, as a context bound over another's is.
  Object with(const std::string& key, Value value) const;

  // A closed object's keys are all the review knows, where the real one may hold more (a plugin
  // step's outputs): reading a key it lacks, or all its values, is the refusal `rule` with
  // `why` (the key is appended), never a silent null. docs/fidelity.md, "Steps' outputs".
  void close(std::string rule, std::string why);
  bool closed() const { return !closed_rule_.empty(); }
  const std::string& closed_rule() const { return closed_rule_; }
  const std::string& closed_why() const { return closed_why_; }

 private:
  std::vector<std::pair<std::string, Value>> entries_;
  std::map<std::string, std::size_t, std::less<>> index_;  // lower-cased key -> its entry
  std::string closed_rule_;
  std::string closed_why_;
};

enum class Kind { kNull, kBoolean, kNumber, kString, kArray, kObject };

// A value of GitHub's expression language. Arrays and objects are shared and compared by
// identity, as the language compares them; everything else by value. A string's bytes are
// shared too (they never change): a copy of a value, which the evaluator and the matrix make
// freely, never copies a string of up to a mebibyte (budget.h).
class Value {
 public:
  Value() = default;  // null
  static Value boolean(bool b);
  static Value number(double d);
  static Value string(std::string s);
  static Value array(Array a);
  static Value object(Object o);

  Kind kind() const;
  bool is_primitive() const { return kind() != Kind::kArray && kind() != Kind::kObject; }
  bool as_boolean() const { return std::get<bool>(v_); }
  double as_number() const { return std::get<double>(v_); }
  const std::string& as_string() const { return *std::get<std::shared_ptr<const std::string>>(v_); }
  const Array& as_array() const { return *std::get<std::shared_ptr<const Array>>(v_); }
  const Object& as_object() const { return *std::get<std::shared_ptr<const Object>>(v_); }
  bool same_reference(const Value& other) const;

  // The language's string coercion: null "", booleans "true"/"false", numbers as GitHub prints
  // them (at most 15 significant decimals), arrays "Array", objects "Object".
  std::string coerce_string() const;
  // The language's number coercion: null 0, booleans 0/1, strings as JavaScript's Number(),
  // arrays and objects NaN.
  double coerce_number() const;

 private:
  std::variant<std::monostate, bool, double, std::shared_ptr<const std::string>,
               std::shared_ptr<const Array>, std::shared_ptr<const Object>>
      v_;
};

// Truthiness: null, false, 0, NaN and "" are false; everything else (arrays, objects) true.
bool truthy(const Value& v);

// The operators, with GitHub's loose coercions (numbers and strings meet as numbers, booleans
// and null become numbers) and case-insensitive string comparison; values of different kinds
// after coercion are neither equal nor ordered, and NaN is never equal or ordered.
bool equals(const Value& a, const Value& b);
bool greater_than(const Value& a, const Value& b);
bool less_than(const Value& a, const Value& b);

}  // namespace reviewer::expr
