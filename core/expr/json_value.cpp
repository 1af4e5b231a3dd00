#include "core/expr/json_value.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>

#include "core/expr/js_number.h"
#include "core/util/utf8.h"

namespace reviewer::expr {
namespace {

util::Refusal bad(const std::string& why, std::size_t at) {
  return util::Refusal{
      "expression-error",
      "Error parsing JSON when evaluating fromJson: " + why + " at position " + std::to_string(at),
      std::nullopt};
}

// A canonical array index as JavaScript orders object keys: "0", "1", ... below 2^32 - 1.
bool is_array_index(const std::string& k) {
  if (k.empty() || k.size() > 10 || (k.size() > 1 && k[0] == '0')) {
    return false;
  }
  for (char c : k) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return std::stoull(k) < 4294967295ULL;
}

class JsonReader {
 public:
  JsonReader(std::string_view s, int max_depth) : s_(s), max_depth_(max_depth) {}

  util::Result<Value> run() {
    auto v = value(0);
    if (!v) {
      return v;
    }
    space();
    if (at_ != s_.size()) {
      return bad("unexpected text after the value", at_);
    }
    return v;
  }

 private:
  void space() {
    while (at_ < s_.size() &&
           (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) {
      ++at_;
    }
  }

  bool literal(std::string_view word) {
    if (s_.substr(at_, word.size()) == word) {
      at_ += word.size();
      return true;
    }
    return false;
  }

  util::Result<Value> value(int depth) {
    if (depth > max_depth_) {
      return bad("nesting too deep", at_);
    }
    space();
    if (at_ >= s_.size()) {
      return bad("unexpected end", at_);
    }
    const char c = s_[at_];
    if (c == '{') {
      return object(depth);
    }
    if (c == '[') {
      return array(depth);
    }
    if (c == '"') {
      auto str = string();
      if (!str) {
        return str.error();
      }
      return Value::string(std::move(*str));
    }
    if (literal("true")) {
      return Value::boolean(true);
    }
    if (literal("false")) {
      return Value::boolean(false);
    }
    if (literal("null")) {
      return Value();
    }
    return number();
  }

  util::Result<Value> number() {
    const std::size_t start = at_;
    auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9') {
        ++at_;
      }
      return at_ - from;
    };
    if (at_ < s_.size() && s_[at_] == '-') {
      ++at_;
    }
    if (at_ < s_.size() && s_[at_] == '0') {
      ++at_;
    } else if (digits() == 0) {
      return bad("unexpected character", start);
    }
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      if (digits() == 0) {
        return bad("unexpected character", at_);
      }
    }
    if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
      if (at_ < s_.size() && (s_[at_] == '+' || s_[at_] == '-')) {
        ++at_;
      }
      if (digits() == 0) {
        return bad("unexpected character", at_);
      }
    }
    return Value::number(std::strtod(std::string(s_.substr(start, at_ - start)).c_str(), nullptr));
  }

  util::Result<std::string> string() {
    ++at_;  // the opening quote
    std::string out;
    while (at_ < s_.size() && s_[at_] != '"') {
      const auto c = static_cast<unsigned char>(s_[at_]);
      if (c < 0x20) {
        return bad("control character in a string", at_);
      }
      if (c != '\\') {
        out += s_[at_++];
        continue;
      }
      if (++at_ >= s_.size()) {
        break;
      }
      const char e = s_[at_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          auto unit = hex4();
          if (!unit) {
            return unit.error();
          }
          std::uint32_t cp = *unit;
          // A surrogate pair is one character; a lone surrogate is kept as its own code.
          if (cp >= 0xd800 && cp < 0xdc00 && s_.substr(at_, 2) == "\\u") {
            const std::size_t save = at_;
            at_ += 2;
            auto low = hex4();
            if (low && *low >= 0xdc00 && *low < 0xe000) {
              cp = 0x10000 + ((cp - 0xd800) << 10) + (*low - 0xdc00);
            } else {
              at_ = save;
            }
          }
          util::append_utf8(cp, out);
          break;
        }
        default:
          return bad("bad escape", at_ - 1);
      }
    }
    if (at_ >= s_.size()) {
      return bad("unterminated string", at_);
    }
    ++at_;
    return out;
  }

  util::Result<std::uint32_t> hex4() {
    if (at_ + 4 > s_.size()) {
      return bad("bad unicode escape", at_);
    }
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[at_++];
      v <<= 4;
      if (h >= '0' && h <= '9') {
        v |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        v |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        v |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        return bad("bad unicode escape", at_ - 1);
      }
    }
    return v;
  }

  util::Result<Value> array(int depth) {
    ++at_;
    Array a;
    space();
    if (at_ < s_.size() && s_[at_] == ']') {
      ++at_;
      return Value::array(std::move(a));
    }
    for (;;) {
      auto item = value(depth + 1);
      if (!item) {
        return item;
      }
      a.items.push_back(std::move(*item));
      space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == ']') {
        ++at_;
        return Value::array(std::move(a));
      }
      return bad("expected ',' or ']'", at_);
    }
  }

  util::Result<Value> object(int depth) {
    ++at_;
    // JavaScript's own object first (a repeated key keeps its place, takes the last value).
    std::vector<std::pair<std::string, Value>> entries;
    std::map<std::string, std::size_t> where;
    space();
    if (at_ < s_.size() && s_[at_] == '}') {
      ++at_;
      return Value::object(Object());
    }
    for (;;) {
      space();
      if (at_ >= s_.size() || s_[at_] != '"') {
        return bad("expected a string key", at_);
      }
      auto key = string();
      if (!key) {
        return key.error();
      }
      space();
      if (at_ >= s_.size() || s_[at_] != ':') {
        return bad("expected ':'", at_);
      }
      ++at_;
      auto item = value(depth + 1);
      if (!item) {
        return item;
      }
      if (auto it = where.find(*key); it != where.end()) {
        entries[it->second].second = std::move(*item);
      } else {
        where.emplace(*key, entries.size());
        entries.emplace_back(std::move(*key), std::move(*item));
      }
      space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == '}') {
        ++at_;
        break;
      }
      return bad("expected ',' or '}'", at_);
    }
    std::vector<std::pair<std::uint64_t, std::size_t>> indexed;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (is_array_index(entries[i].first)) {
        indexed.emplace_back(std::stoull(entries[i].first), i);
      }
    }
    std::sort(indexed.begin(), indexed.end());
    Object o;
    for (const auto& [n, i] : indexed) {
      o.add(entries[i].first, entries[i].second);
    }
    for (auto& [k, v] : entries) {
      if (!is_array_index(k)) {
        o.add(k, v);
      }
    }
    return Value::object(std::move(o));
  }

  std::string_view s_;
  std::size_t at_ = 0;
  int max_depth_;
};

void quote(const std::string& s, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void write(const Value& v, const std::string& indent, const std::string& step, std::string& out) {
  const bool pretty = !step.empty();
  switch (v.kind()) {
    case Kind::kNull:
      out += "null";
      return;
    case Kind::kBoolean:
      out += v.as_boolean() ? "true" : "false";
      return;
    case Kind::kNumber:
      out += std::isfinite(v.as_number()) ? format_js_number(v.as_number()) : "null";
      return;
    case Kind::kString:
      quote(v.as_string(), out);
      return;
    case Kind::kArray: {
      const auto& items = v.as_array().items;
      if (items.empty()) {
        out += "[]";
        return;
      }
      const std::string inner = indent + step;
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        out += i == 0 ? "" : ",";
        out += pretty ? "\n" + inner : "";
        write(items[i], inner, step, out);
      }
      out += pretty ? "\n" + indent + "]" : "]";
      return;
    }
    case Kind::kObject: {
      const auto& entries = v.as_object().entries();
      if (entries.empty()) {
        out += "{}";
        return;
      }
      // JSON.stringify writes a JavaScript object's integer-like keys first, ascending.
      std::vector<std::size_t> order;
      std::vector<std::pair<std::uint64_t, std::size_t>> indexed;
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (is_array_index(entries[i].first)) {
          indexed.emplace_back(std::stoull(entries[i].first), i);
        }
      }
      std::sort(indexed.begin(), indexed.end());
      for (const auto& [n, i] : indexed) {
        order.push_back(i);
      }
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (!is_array_index(entries[i].first)) {
          order.push_back(i);
        }
      }
      const std::string inner = indent + step;
      out += '{';
      bool first = true;
      for (std::size_t i : order) {
        out += first ? "" : ",";
        first = false;
        out += pretty ? "\n" + inner : "";
        quote(entries[i].first, out);
        out += pretty ? ": " : ":";
        write(entries[i].second, inner, step, out);
      }
      out += pretty ? "\n" + indent + "}" : "}";
      return;
    }
  }
}

}  // namespace

util::Result<Value> parse_json(std::string_view text, int max_depth) {
  return JsonReader(text, max_depth).run();
}

std::string to_pretty_json(const Value& v) {
  std::string out;
  write(v, "", "  ", out);
  return out;
}

std::string to_compact_json(const Value& v) {
  std::string out;
  write(v, "", "", out);
  return out;
}

}  // namespace reviewer::expr
