#include "core/expr/value.h"

#include <cmath>
#include <limits>

#include "core/expr/js_number.h"
#include "core/expr/text_case.h"

namespace reviewer::expr {

Object Object::with(const std::string& key, Value value) const {
  Object out;
  const std::string folded = lower(key);
  for (const auto& [k, v] : entries_) {
    if (lower(k) != folded) {
      out.add(k, v);
    }
  }
  out.add(key, std::move(value));
  return out;
}

void Object::add(std::string key, Value value) {
  if (index_.try_emplace(lower(key), entries_.size()).second) {
    entries_.emplace_back(std::move(key), std::move(value));
  }
}

void Object::close(std::string rule, std::string why) {
  closed_rule_ = std::move(rule);
  closed_why_ = std::move(why);
}

const Value* Object::find(std::string_view key) const {
  const auto it = index_.find(lower(key));
  return it != index_.end() ? &entries_[it->second].second : nullptr;
}

Value Value::boolean(bool b) {
  Value v;
  v.v_ = b;
  return v;
}

Value Value::number(double d) {
  Value v;
  v.v_ = d;
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.v_ = std::make_shared<const std::string>(std::move(s));
  return v;
}

Value Value::array(Array a) {
  Value v;
  v.v_ = std::make_shared<const Array>(std::move(a));
  return v;
}

Value Value::object(Object o) {
  Value v;
  v.v_ = std::make_shared<const Object>(std::move(o));
  return v;
}

Kind Value::kind() const {
  switch (v_.index()) {
    case 1:
      return Kind::kBoolean;
    case 2:
      return Kind::kNumber;
    case 3:
      return Kind::kString;
    case 4:
      return Kind::kArray;
    case 5:
      return Kind::kObject;
    default:
      return Kind::kNull;
  }
}

bool Value::same_reference(const Value& other) const {
  if (kind() == Kind::kArray && other.kind() == Kind::kArray) {
    return std::get<4>(v_) == std::get<4>(other.v_);
  }
  if (kind() == Kind::kObject && other.kind() == Kind::kObject) {
    return std::get<5>(v_) == std::get<5>(other.v_);
  }
  return false;
}

std::string Value::coerce_string() const {
  switch (kind()) {
    case Kind::kNull:
      return "";
    case Kind::kBoolean:
      return as_boolean() ? "true" : "false";
    case Kind::kNumber:
      return format_expression_number(as_number());
    case Kind::kString:
      return as_string();
    case Kind::kArray:
      return "Array";
    case Kind::kObject:
      return "Object";
  }
  return "";
}

double Value::coerce_number() const {
  switch (kind()) {
    case Kind::kNull:
      return 0;
    case Kind::kBoolean:
      return as_boolean() ? 1 : 0;
    case Kind::kNumber:
      return as_number();
    case Kind::kString:
      return parse_js_number(as_string());
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

bool truthy(const Value& v) {
  switch (v.kind()) {
    case Kind::kNull:
      return false;
    case Kind::kBoolean:
      return v.as_boolean();
    case Kind::kNumber:
      return v.as_number() != 0 && !std::isnan(v.as_number());
    case Kind::kString:
      return !v.as_string().empty();
    default:
      return true;
  }
}

namespace {

// JavaScript's abstract equality coercions, without turning objects into primitives: a number
// meeting a string makes the string a number; a boolean or null becomes a number and is
// coerced again.
std::pair<Value, Value> coerce_pair(const Value& a, const Value& b) {
  if (a.kind() == b.kind()) {
    return {a, b};
  }
  if (a.kind() == Kind::kNumber && b.kind() == Kind::kString) {
    return {a, Value::number(b.coerce_number())};
  }
  if (a.kind() == Kind::kString && b.kind() == Kind::kNumber) {
    return {Value::number(a.coerce_number()), b};
  }
  if (a.kind() == Kind::kNull || a.kind() == Kind::kBoolean) {
    return coerce_pair(Value::number(a.coerce_number()), b);
  }
  if (b.kind() == Kind::kNull || b.kind() == Kind::kBoolean) {
    return coerce_pair(a, Value::number(b.coerce_number()));
  }
  return {a, b};
}

// -1, 0 or 1 for two values of one primitive kind; nullopt when they are not ordered (NaN).
enum class Order { kLess, kEqual, kGreater, kNone };

Order order(const Value& a, const Value& b) {
  switch (a.kind()) {
    case Kind::kNumber: {
      const double x = a.as_number(), y = b.as_number();
      if (std::isnan(x) || std::isnan(y)) {
        return Order::kNone;
      }
      return x < y ? Order::kLess : x > y ? Order::kGreater : Order::kEqual;
    }
    case Kind::kString: {
      const int c = upper_special(a.as_string()).compare(upper_special(b.as_string()));
      return c < 0 ? Order::kLess : c > 0 ? Order::kGreater : Order::kEqual;
    }
    case Kind::kBoolean: {
      const bool x = a.as_boolean(), y = b.as_boolean();
      return x == y ? Order::kEqual : x ? Order::kGreater : Order::kLess;
    }
    default:
      return Order::kNone;
  }
}

}  // namespace

bool equals(const Value& a, const Value& b) {
  auto [x, y] = coerce_pair(a, b);
  if (x.kind() != y.kind()) {
    return false;
  }
  if (x.kind() == Kind::kNull) {
    return true;
  }
  if (!x.is_primitive()) {
    return x.same_reference(y);
  }
  return order(x, y) == Order::kEqual;
}

bool greater_than(const Value& a, const Value& b) {
  auto [x, y] = coerce_pair(a, b);
  return x.kind() == y.kind() && order(x, y) == Order::kGreater;
}

bool less_than(const Value& a, const Value& b) {
  auto [x, y] = coerce_pair(a, b);
  return x.kind() == y.kind() && order(x, y) == Order::kLess;
}

}  // namespace reviewer::expr
