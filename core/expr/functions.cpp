#include "core/expr/functions.h"

#include <cstring>

#include "core/expr/js_number.h"
#include "core/expr/json_value.h"
#include "core/expr/text_case.h"

namespace reviewer::expr {
namespace {

util::Refusal failed(const std::string& message) {
  return util::Refusal{"expression-error", message, std::nullopt};
}

// A string a function builds: every piece counted before it is appended.
class Text {
 public:
  explicit Text(Budget& budget) : budget_(budget) {}

  bool append(std::string_view piece) {
    if (!budget_.add_string(out_.size() + piece.size(), piece.size())) {
      return false;
    }
    out_ += piece;
    return true;
  }
  std::string take() { return std::move(out_); }

 private:
  Budget& budget_;
  std::string out_;
};

// A value's text as the language coerces it, without copying a string that is one already.
std::string_view text_of(const Value& v, std::string& scratch) {
  if (v.kind() == Kind::kString) {
    return v.as_string();
  }
  scratch = v.coerce_string();
  return scratch;
}

Value contains(const Value& search, const Value& item) {
  if (search.is_primitive()) {
    if (!item.is_primitive()) {
      return Value::boolean(false);
    }
    // glibc's memmem is linear (the two-way algorithm), where std::string::find compares the
    // needle at every position: a mebibyte of 'a' searched for half a mebibyte of 'a' then a 'b'
    // took 5 seconds a call, 3 milliseconds with memmem.
    const std::string haystack = lower(search.coerce_string());
    const std::string needle = lower(item.coerce_string());
    return Value::boolean(
        ::memmem(haystack.data(), haystack.size(), needle.data(), needle.size()) != nullptr);
  }
  if (search.kind() == Kind::kArray) {
    for (const auto& v : search.as_array().items) {
      if (equals(item, v)) {
        return Value::boolean(true);
      }
    }
  }
  return Value::boolean(false);
}

Value starts_or_ends(const Value& text, const Value& affix, bool starts) {
  if (!text.is_primitive() || !affix.is_primitive()) {
    return Value::boolean(false);
  }
  const std::string t = upper_special(text.coerce_string());
  const std::string a = upper_special(affix.coerce_string());
  if (a.size() > t.size()) {
    return Value::boolean(false);
  }
  return Value::boolean(starts ? t.compare(0, a.size(), a) == 0
                               : t.compare(t.size() - a.size(), a.size(), a) == 0);
}

// format('{0} and {{literal}}', x): {N} (digits, then anything up to the closing brace) is
// argument N; {{ and }} are braces.
util::Result<Value> format(const std::vector<Value>& args, Budget& budget) {
  std::string scratch;
  const std::string_view fs = text_of(args[0], scratch);
  const auto invalid = [&] {
    return failed("The following format string is invalid: " + std::string(fs));
  };
  const auto too_large = [&] { return budget.refusal("format()"); };
  Text out(budget);
  std::size_t index = 0;
  // The next brace of each kind at or after `index`, found again only once passed: searching
  // from `index` every time is quadratic in a string of braces.
  std::size_t lbrace = fs.find('{');
  std::size_t rbrace = fs.find('}');
  while (index < fs.size()) {
    if (lbrace != std::string::npos && lbrace < index) {
      lbrace = fs.find('{', index);
    }
    if (rbrace != std::string::npos && rbrace < index) {
      rbrace = fs.find('}', index);
    }
    if (lbrace != std::string::npos && (rbrace == std::string::npos || rbrace > lbrace)) {
      if (lbrace + 1 < fs.size() && fs[lbrace + 1] == '{') {
        if (!out.append(fs.substr(index, lbrace - index + 1))) {
          return too_large();
        }
        index = lbrace + 2;
        continue;
      }
      if (rbrace != std::string::npos && rbrace > lbrace + 1) {
        std::size_t digits = 0;
        while (lbrace + 1 + digits < fs.size() && fs[lbrace + 1 + digits] >= '0' &&
               fs[lbrace + 1 + digits] <= '9') {
          ++digits;
        }
        if (digits > 0) {
          const double n = parse_js_number(fs.substr(lbrace + 1, digits));
          if (1 + n > static_cast<double>(args.size()) - 1) {
            return failed(
                "The following format string references more arguments than were supplied: " +
                std::string(fs));
          }
          std::string arg_scratch;
          if (!out.append(fs.substr(index, lbrace - index)) ||
              !out.append(text_of(args[1 + static_cast<std::size_t>(n)], arg_scratch))) {
            return too_large();
          }
          index = rbrace + 1;
          continue;
        }
      }
      return invalid();
    }
    if (rbrace != std::string::npos) {
      if (rbrace + 1 < fs.size() && fs[rbrace + 1] == '}') {
        if (!out.append(fs.substr(index, rbrace - index + 1))) {
          return too_large();
        }
        index = rbrace + 2;
        continue;
      }
      return invalid();
    }
    if (!out.append(fs.substr(index))) {
      return too_large();
    }
    break;
  }
  return Value::string(out.take());
}

util::Result<Value> join(const std::vector<Value>& args, Budget& budget) {
  Text out(budget);
  if (args[0].is_primitive()) {
    std::string scratch;
    if (!out.append(text_of(args[0], scratch))) {
      return budget.refusal("join()");
    }
    return Value::string(out.take());
  }
  if (args[0].kind() != Kind::kArray) {
    return Value::string("");
  }
  std::string separator_scratch;
  const std::string_view separator = args.size() > 1 && args[1].is_primitive()
                                         ? text_of(args[1], separator_scratch)
                                         : std::string_view(",");
  bool first = true;
  for (const auto& item : args[0].as_array().items) {
    std::string scratch;
    if (!out.append(first ? "" : separator) || !out.append(text_of(item, scratch))) {
      return budget.refusal("join()");
    }
    first = false;
  }
  return Value::string(out.take());
}

bool js_blank(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = js_space_at(s, i);
    if (n == 0) {
      return false;
    }
    i += n;
  }
  return true;
}

// toJSON writes every value: of a closed object (value.h) the review knows only some.
const Object* first_closed(const Value& v) {
  if (v.kind() == Kind::kObject) {
    if (v.as_object().closed()) {
      return &v.as_object();
    }
    for (const auto& [k, item] : v.as_object().entries()) {
      if (const Object* c = first_closed(item)) {
        return c;
      }
    }
  } else if (v.kind() == Kind::kArray) {
    for (const auto& item : v.as_array().items) {
      if (const Object* c = first_closed(item)) {
        return c;
      }
    }
  }
  return nullptr;
}

}  // namespace

bool is_language_function(const std::string& name) {
  return name == "contains" || name == "startswith" || name == "endswith" || name == "format" ||
         name == "join" || name == "tojson" || name == "fromjson" || name == "case";
}

util::Result<Value> call_language_function(const std::string& name, const std::vector<Value>& args,
                                           Budget& budget) {
  if (name == "contains") {
    return contains(args[0], args[1]);
  }
  if (name == "startswith" || name == "endswith") {
    return starts_or_ends(args[0], args[1], name == "startswith");
  }
  if (name == "format") {
    return format(args, budget);
  }
  if (name == "join") {
    return join(args, budget);
  }
  if (name == "tojson") {
    if (const Object* c = first_closed(args[0])) {
      return util::refusal(util::RefusalKind::kUnknowable, c->closed_rule(),
                           c->closed_why() + "every value, for toJSON()");
    }
    auto text = to_pretty_json(args[0], budget);
    if (!text) {
      return text.refusals();
    }
    return Value::string(std::move(*text));
  }
  if (name == "fromjson") {
    const std::string text = args[0].coerce_string();
    if (js_blank(text)) {
      return failed("fromJSON: empty input");
    }
    return parse_json(text, kMaxJsonDepth, &budget);
  }
  // case(pred1, value1, ..., default)
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i].kind() != Kind::kBoolean) {
      return failed("case predicate must evaluate to a boolean value");
    }
    if (args[i].as_boolean()) {
      return args[i + 1];
    }
  }
  return args.back();
}

}  // namespace reviewer::expr
