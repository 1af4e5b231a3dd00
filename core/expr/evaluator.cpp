#include "core/expr/evaluator.h"

#include <cmath>

#include "core/expr/budget.h"
#include "core/expr/functions.h"

namespace reviewer::expr {
namespace {

struct Stop {
  util::Refusal error;
};

// `expression-too-large` from `budget`, naming `what` and where in the expression it stands (as
// the parser names characters: from 1).
[[noreturn]] void too_large(const Budget& budget, const std::string& what, std::size_t offset) {
  util::Refusal r = budget.refusal(what);
  r.message += " (at character " + std::to_string(offset + 1) + ")";
  throw Stop{std::move(r)};
}

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
  // A closed object holds values only the real run has (run_contexts.h).
  throw Stop{util::Refusal{o.closed_rule(), o.closed_why() + what, std::nullopt,
                           util::RefusalKind::kUnknowable}};
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

// A filter's result, counted item by item before each is added: `[*]` over arrays of arrays
// flattens them into one.
class FilterItems {
 public:
  FilterItems(Budget& budget, std::size_t offset) : budget_(budget), offset_(offset) {}

  void add(const Value& v) {
    if (!budget_.add_item(items_.size() + 1, kItemBytes)) {  // a Value, and the list's slack
      too_large(budget_, "the filter '*'", offset_);
    }
    items_.push_back(v);
  }
  Value take() { return filtered(std::move(items_)); }

 private:
  Budget& budget_;
  std::size_t offset_;
  std::vector<Value> items_;
};

Value access(const Value& target, const Index& idx, FilterItems out) {
  switch (target.kind()) {
    case Kind::kArray: {
      const Array& a = target.as_array();
      if (a.filtered) {  // map the access over every item
        for (const auto& item : a.items) {
          if (item.kind() == Kind::kObject) {
            if (idx.star) {
              if (item.as_object().closed()) {
                refuse_unknown(item.as_object(), "'*' (every value)");
              }
              for (const auto& [k, v] : item.as_object().entries()) {
                out.add(v);
              }
            } else if (idx.key) {
              if (const Value* v = find_key(item.as_object(), *idx.key)) {
                out.add(*v);
              }
            }
          } else if (item.kind() == Kind::kArray) {
            const auto& inner = item.as_array().items;
            if (idx.star) {
              for (const auto& v : inner) {
                out.add(v);
              }
            } else if (idx.position && *idx.position < inner.size()) {
              out.add(inner[*idx.position]);
            }
          }
        }
        return out.take();
      }
      if (idx.star) {
        for (const auto& v : a.items) {
          out.add(v);
        }
        return out.take();
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
        for (const auto& [k, v] : o.entries()) {
          out.add(v);
        }
        return out.take();
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
      return idx.star ? out.take() : Value();
  }
}

class Evaluator {
 public:
  Evaluator(const Object& contexts, Runtime* runtime) : contexts_(contexts), runtime_(runtime) {}

  // The value of `root`. What the caller keeps is counted once more (the planner keeps a
  // field's text): a context's string read by one field that YAML aliases repeat is kept as
  // many times, though reading it builds nothing.
  Value run(const Node& root) {
    Value v = eval(root);
    if (v.kind() == Kind::kString && !budget_.add_bytes(v.as_string().size())) {
      too_large(budget_, "the expression's value", root.offset);
    }
    return v;
  }

 private:
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
        return access(eval(*n.args[0]), idx, FilterItems(budget_, n.offset));
      }
      case Node::Type::kCall:
        return call(n);
    }
    return Value();
  }

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
    const bool own = is_language_function(n.name);
    util::Result<Value> r =
        own ? call_language_function(n.name, args, budget_)
        : runtime_ != nullptr
            ? runtime_->call(n.name, args)
            : util::Result<Value>(
                  util::Refusal{"expression-error", n.name + "() has no value here", std::nullopt});
    if (!r) {
      if (r.error().kind == util::RefusalKind::kBound) {  // named by the function; placed here
        util::Refusal e = r.error();
        e.message += " (at character " + std::to_string(n.offset + 1) + ")";
        throw Stop{std::move(e)};
      }
      throw Stop{r.error()};
    }
    // The runner's answer (hashFiles' digest) was built outside the budget: counted now.
    if (!own && r->kind() == Kind::kString && !budget_.add_bytes(r->as_string().size())) {
      too_large(budget_, n.name + "()", n.offset);
    }
    return std::move(*r);
  }

  const Object& contexts_;
  Runtime* runtime_;
  Budget budget_;
};

}  // namespace

util::Result<Value> evaluate(const Node& root, const Object& contexts, Runtime* runtime) {
  try {
    return Evaluator(contexts, runtime).run(root);
  } catch (const Stop& stop) {
    return stop.error;
  }
}

}  // namespace reviewer::expr
