#include "core/expr/functions.h"

#include "core/expr/js_number.h"
#include "core/expr/json_value.h"
#include "core/expr/text_case.h"

namespace reviewer::expr {
namespace {

util::Refusal failed(const std::string& message) {
  return util::Refusal{"expression-error", message, std::nullopt};
}

Value contains(const Value& search, const Value& item) {
  if (search.is_primitive()) {
    if (!item.is_primitive()) {
      return Value::boolean(false);
    }
    return Value::boolean(lower(search.coerce_string()).find(lower(item.coerce_string())) !=
                          std::string::npos);
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
util::Result<Value> format(const std::vector<Value>& args) {
  const std::string fs = args[0].coerce_string();
  const auto invalid = [&] { return failed("The following format string is invalid: " + fs); };
  std::string out;
  std::size_t index = 0;
  while (index < fs.size()) {
    const auto lbrace = fs.find('{', index);
    const auto rbrace = fs.find('}', index);
    if (lbrace != std::string::npos && (rbrace == std::string::npos || rbrace > lbrace)) {
      if (lbrace + 1 < fs.size() && fs[lbrace + 1] == '{') {
        out.append(fs, index, lbrace - index + 1);
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
                "The following format string references more arguments than were supplied: " + fs);
          }
          out.append(fs, index, lbrace - index);
          out += args[1 + static_cast<std::size_t>(n)].coerce_string();
          index = rbrace + 1;
          continue;
        }
      }
      return invalid();
    }
    if (rbrace != std::string::npos) {
      if (rbrace + 1 < fs.size() && fs[rbrace + 1] == '}') {
        out.append(fs, index, rbrace - index + 1);
        index = rbrace + 2;
        continue;
      }
      return invalid();
    }
    out.append(fs, index);
    break;
  }
  return Value::string(std::move(out));
}

Value join(const std::vector<Value>& args) {
  if (args[0].is_primitive()) {
    return Value::string(args[0].coerce_string());
  }
  if (args[0].kind() != Kind::kArray) {
    return Value::string("");
  }
  const std::string separator =
      args.size() > 1 && args[1].is_primitive() ? args[1].coerce_string() : ",";
  std::string out;
  bool first = true;
  for (const auto& item : args[0].as_array().items) {
    out += first ? "" : separator;
    first = false;
    out += item.coerce_string();
  }
  return Value::string(std::move(out));
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

util::Result<Value> call_language_function(const std::string& name,
                                           const std::vector<Value>& args) {
  if (name == "contains") {
    return contains(args[0], args[1]);
  }
  if (name == "startswith" || name == "endswith") {
    return starts_or_ends(args[0], args[1], name == "startswith");
  }
  if (name == "format") {
    return format(args);
  }
  if (name == "join") {
    return join(args);
  }
  if (name == "tojson") {
    if (const Object* c = first_closed(args[0])) {
      return util::refusal(c->closed_rule(), c->closed_why() + "every value, for toJSON()");
    }
    return Value::string(to_pretty_json(args[0]));
  }
  if (name == "fromjson") {
    const std::string text = args[0].coerce_string();
    if (js_blank(text)) {
      return failed("fromJSON: empty input");
    }
    return parse_json(text);
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
