#include "core/expr/evaluator.h"

#include <cmath>

#include "core/expr/functions.h"

namespace reviewer::expr {
namespace {

struct Stop {
  util::Refusal error;
};

// An index as GitHub reads it: a string key for objects (any primitive, coerced), an integer
// position for arrays (a number >= 0, floored), or the `*` filter.
struct Index {
  bool star = false;
  std::optional<std::string> key;
  std::optional<std::size_t> position;
};

Index read_index(const Value& v) {
  Index i;
  if (v.is_primitive()) {
    i.key = v.coerce_string();
  }
  const double f = v.coerce_number();
  if (!std::isnan(f) && std::isfinite(f) && f >= 0) {
    const double floored = std::floor(f);
    if (floored < 1e15) {
      i.position = static_cast<std::size_t>(floored);
    }
  }
  return i;
}

// A closed object (value.h) answers only for the keys it holds.
[[noreturn]] void refuse_unknown(const Object& o, const std::string& what) {
  throw Stop{util::Refusal{o.closed_rule(), o.closed_why() + what, std::nullopt}};
}

const Value* find_key(const Object& o, const std::string& key) {
  const Value* v = o.find(key);
  if (v == nullptr && o.closed()) {
    refuse_unknown(o, "'" + key + "'");
  }
  return v;
}

Value filtered(std::vector<Value> items) {
  Array a;
  a.items = std::move(items);
  a.filtered = true;
  return Value::array(std::move(a));
}

Value access(const Value& target, const Index& idx) {
  switch (target.kind()) {
    case Kind::kArray: {
      const Array& a = target.as_array();
      if (a.filtered) {  // map the access over every item
        std::vector<Value> out;
        for (const auto& item : a.items) {
          if (item.kind() == Kind::kObject) {
            if (idx.star) {
              if (item.as_object().closed()) {
                refuse_unknown(item.as_object(), "'*' (every value)");
              }
              for (const auto& [k, v] : item.as_object().entries()) {
                out.push_back(v);
              }
            } else if (idx.key) {
              if (const Value* v = find_key(item.as_object(), *idx.key)) {
                out.push_back(*v);
              }
            }
          } else if (item.kind() == Kind::kArray) {
            const auto& inner = item.as_array().items;
            if (idx.star) {
              out.insert(out.end(), inner.begin(), inner.end());
            } else if (idx.position && *idx.position < inner.size()) {
              out.push_back(inner[*idx.position]);
            }
          }
        }
        return filtered(std::move(out));
      }
      if (idx.star) {
        return filtered(a.items);
      }
      if (idx.position && *idx.position < a.items.size()) {
        return a.items[*idx.position];
      }
      return Value();
    }
    case Kind::kObject: {
      const Object& o = target.as_object();
      if (idx.star) {
        if (o.closed()) {
          refuse_unknown(o, "'*' (every value)");
        }
        std::vector<Value> out;
        for (const auto& [k, v] : o.entries()) {
          out.push_back(v);
        }
        return filtered(std::move(out));
      }
      if (idx.key) {
        if (const Value* v = find_key(o, *idx.key)) {
          return *v;
        }
      } else if (o.closed()) {
        refuse_unknown(o, "a key that is not a string");
      }
      return Value();
    }
    default:
      return idx.star ? filtered({}) : Value();
  }
}

class Evaluator {
 public:
  Evaluator(const Object& contexts, Runtime* runtime) : contexts_(contexts), runtime_(runtime) {}

  Value eval(const Node& n) {
    switch (n.type) {
      case Node::Type::kLiteral:
        return n.literal;
      case Node::Type::kGroup:
        return eval(*n.args[0]);
      case Node::Type::kContext: {
        const Value* v = contexts_.find(n.name);
        return v != nullptr ? *v : Value();
      }
      case Node::Type::kNot:
        return Value::boolean(!truthy(eval(*n.args[0])));
      case Node::Type::kAnd:
      case Node::Type::kOr: {
        Value result;
        for (const auto& arg : n.args) {
          result = eval(*arg);
          if (truthy(result) == (n.type == Node::Type::kOr)) {
            break;
          }
        }
        return result;
      }
      case Node::Type::kCompare:
        return compare(n);
      case Node::Type::kIndex: {
        // The index first, then the target, as GitHub evaluates them.
        Index idx;
        idx.star = n.star;
        if (!n.star) {
          idx = read_index(eval(*n.args[1]));
        }
        return access(eval(*n.args[0]), idx);
      }
      case Node::Type::kCall:
        return call(n);
    }
    return Value();
  }

 private:
  Value compare(const Node& n) {
    const Value a = eval(*n.args[0]);
    const Value b = eval(*n.args[1]);
    switch (n.op) {
      case Node::Op::kEq:
        return Value::boolean(equals(a, b));
      case Node::Op::kNe:
        return Value::boolean(!equals(a, b));
      case Node::Op::kGt:
        return Value::boolean(greater_than(a, b));
      case Node::Op::kGe:
        return Value::boolean(equals(a, b) || greater_than(a, b));
      case Node::Op::kLt:
        return Value::boolean(less_than(a, b));
      case Node::Op::kLe:
        return Value::boolean(equals(a, b) || less_than(a, b));
    }
    return Value();
  }

  Value call(const Node& n) {
    std::vector<Value> args;
    args.reserve(n.args.size());
    for (const auto& a : n.args) {
      args.push_back(eval(*a));
    }
    util::Result<Value> r =
        is_language_function(n.name) ? call_language_function(n.name, args)
        : runtime_ != nullptr
            ? runtime_->call(n.name, args)
            : util::Result<Value>(
                  util::Refusal{"expression-error", n.name + "() has no value here", std::nullopt});
    if (!r) {
      throw Stop{r.error()};
    }
    return std::move(*r);
  }

  const Object& contexts_;
  Runtime* runtime_;
};

}  // namespace

util::Result<Value> evaluate(const Node& root, const Object& contexts, Runtime* runtime) {
  try {
    return Evaluator(contexts, runtime).eval(root);
  } catch (const Stop& stop) {
    return stop.error;
  }
}

}  // namespace reviewer::expr
