#include "core/plan/yaml_value.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace reviewer::plan {
namespace {

bool all_of(std::string_view s, std::string_view allowed) {
  return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

// The YAML 1.2 core schema's number spellings; nullopt for anything else (a string).
std::optional<double> core_number(std::string_view s) {
  constexpr std::string_view kDigits = "0123456789";
  std::string_view body = s;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF") {
    return s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o' && all_of(s.substr(2), "01234567")) {
    return static_cast<double>(std::strtoull(std::string(s.substr(2)).c_str(), nullptr, 8));
  }
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x' && all_of(s.substr(2), "0123456789abcdefABCDEF")) {
    return static_cast<double>(std::strtoull(std::string(s.substr(2)).c_str(), nullptr, 16));
  }
  // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
  std::size_t i = 0, int_digits = 0, frac_digits = 0;
  while (i < body.size() && kDigits.find(body[i]) != std::string_view::npos) {
    ++i, ++int_digits;
  }
  bool dot = false;
  if (i < body.size() && body[i] == '.') {
    dot = true;
    ++i;
    while (i < body.size() && kDigits.find(body[i]) != std::string_view::npos) {
      ++i, ++frac_digits;
    }
  }
  if (int_digits == 0 && (!dot || frac_digits == 0)) {
    return std::nullopt;
  }
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '-' || body[i] == '+')) {
      ++i;
    }
    if (!all_of(body.substr(i), kDigits)) {
      return std::nullopt;
    }
    i = body.size();
  }
  if (i != body.size()) {
    return std::nullopt;
  }
  return std::strtod(std::string(s).c_str(), nullptr);
}

}  // namespace

util::Result<expr::Value> to_expression_value(const yaml::Node& node,
                                              const ScalarEvaluator* evaluate) {
  switch (node.kind) {
    case yaml::Node::Kind::kNull:
      return expr::Value();
    case yaml::Node::Kind::kScalar: {
      const std::string& s = node.scalar;
      if (s.find("${{") != std::string::npos && evaluate != nullptr) {
        return (*evaluate)(node);
      }
      if (s.find("${{") != std::string::npos) {
        return util::refusal("expression-in-matrix",
                             "'" + s + "' is an expression; its value is not known before the run",
                             node.location);
      }
      if (!node.plain) {
        return expr::Value::string(s);
      }
      if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") {
        return expr::Value();
      }
      if (s == "true" || s == "True" || s == "TRUE") {
        return expr::Value::boolean(true);
      }
      if (s == "false" || s == "False" || s == "FALSE") {
        return expr::Value::boolean(false);
      }
      if (auto n = core_number(s)) {
        return expr::Value::number(*n);
      }
      return expr::Value::string(s);
    }
    case yaml::Node::Kind::kSequence: {
      expr::Array a;
      for (const auto& item : node.items) {
        auto v = to_expression_value(item, evaluate);
        if (!v) {
          return v;
        }
        a.items.push_back(std::move(*v));
      }
      return expr::Value::array(std::move(a));
    }
    case yaml::Node::Kind::kMapping: {
      expr::Object o;
      for (const auto& [key, value] : node.entries) {
        auto v = to_expression_value(value, evaluate);
        if (!v) {
          return v;
        }
        o.add(key.scalar, std::move(*v));
      }
      return expr::Value::object(std::move(o));
    }
  }
  return expr::Value();
}

}  // namespace reviewer::plan
