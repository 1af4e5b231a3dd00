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
  JsonReader(std::string_view s, int max_depth, Budget* budget)
      : s_(s), max_depth_(max_depth), budget_(budget) {}

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
    // Every value costs kItemBytes (`[[],[],...]` is three characters a value), a string its
    // text besides.
    if (budget_ != nullptr && !budget_->add_bytes(kItemBytes)) {
      return too_large();
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
      // Counted once read: a string is never longer than the text it is read from, which was
      // itself counted when it was built.
      if (budget_ != nullptr && !budget_->add_string(str->size(), str->size())) {
        return too_large();
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
      if (!counted(a.items.size() + 1, 0)) {
        return too_large();
      }
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
      // An entry is held three times while the object is read (the reader's list and index, the
      // object's entries and index): about 250 bytes beyond its key, measured.
      if (!counted(entries.size() + 1, 3 * kItemBytes + 2 * key->size())) {
        return too_large();
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

  // Counts one more item of a collection then `count` long, costing `bytes`.
  bool counted(std::size_t count, std::size_t bytes) {
    return budget_ == nullptr || budget_->add_item(count, bytes);
  }

  util::Refusal too_large() const { return budget_->refusal("fromJSON()"); }

  std::string_view s_;
  std::size_t at_ = 0;
  int max_depth_;
  Budget* budget_;  // null: not bounded (the host's own files, bounded where they are read)
};

// The length of `s` as quote() writes it, so that a budget can count it before it is written.
std::size_t quoted_size(const std::string& s) {
  std::size_t n = 2;
  for (unsigned char c : s) {
    n += c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t' ? 2
         : c < 0x20                                                                             ? 6
                                                                                                : 1;
  }
  return n;
}

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

// The text being written. With a budget, a piece that would cross a bound is not appended and
// writing stops (every write returns false from then on up).
class Sink {
 public:
  Sink(std::string& out, Budget* budget) : out_(out), budget_(budget) {}

  bool put(std::string_view piece) {
    if (budget_ != nullptr && !budget_->add_string(out_.size() + piece.size(), piece.size())) {
      return false;
    }
    out_ += piece;
    return true;
  }

  bool put_quoted(const std::string& s) {
    if (budget_ != nullptr) {
      const std::size_t n = quoted_size(s);
      if (!budget_->add_string(out_.size() + n, n)) {
        return false;
      }
    }
    quote(s, out_);
    return true;
  }

 private:
  std::string& out_;
  Budget* budget_;
};

// JSON.stringify writes a JavaScript object's integer-like keys first, ascending.
std::vector<std::size_t> key_order(const std::vector<std::pair<std::string, Value>>& entries) {
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
  return order;
}

bool write(const Value& v, const std::string& indent, const std::string& step, Sink& out) {
  const bool pretty = !step.empty();
  switch (v.kind()) {
    case Kind::kNull:
      return out.put("null");
    case Kind::kBoolean:
      return out.put(v.as_boolean() ? "true" : "false");
    case Kind::kNumber:
      return out.put(std::isfinite(v.as_number()) ? format_js_number(v.as_number()) : "null");
    case Kind::kString:
      return out.put_quoted(v.as_string());
    case Kind::kArray: {
      const auto& items = v.as_array().items;
      if (items.empty()) {
        return out.put("[]");
      }
      const std::string inner = indent + step;
      const std::string line = pretty ? "\n" + inner : "";
      if (!out.put("[")) {
        return false;
      }
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (!out.put(i == 0 ? "" : ",") || !out.put(line) || !write(items[i], inner, step, out)) {
          return false;
        }
      }
      return out.put(pretty ? "\n" + indent + "]" : "]");
    }
    case Kind::kObject: {
      const auto& entries = v.as_object().entries();
      if (entries.empty()) {
        return out.put("{}");
      }
      const std::string inner = indent + step;
      const std::string line = pretty ? "\n" + inner : "";
      if (!out.put("{")) {
        return false;
      }
      bool first = true;
      for (std::size_t i : key_order(entries)) {
        if (!out.put(first ? "" : ",") || !out.put(line) || !out.put_quoted(entries[i].first) ||
            !out.put(pretty ? ": " : ":") || !write(entries[i].second, inner, step, out)) {
          return false;
        }
        first = false;
      }
      return out.put(pretty ? "\n" + indent + "}" : "}");
    }
  }
  return true;
}

}  // namespace

util::Result<Value> parse_json(std::string_view text, int max_depth, Budget* budget) {
  return JsonReader(text, max_depth, budget).run();
}

std::string to_pretty_json(const Value& v) {
  std::string out;
  Sink sink(out, nullptr);
  write(v, "", "  ", sink);
  return out;
}

util::Result<std::string> to_pretty_json(const Value& v, Budget& budget) {
  std::string out;
  Sink sink(out, &budget);
  if (!write(v, "", "  ", sink)) {
    return budget.refusal("toJSON()");
  }
  return out;
}

std::string to_compact_json(const Value& v) {
  std::string out;
  Sink sink(out, nullptr);
  write(v, "", "", sink);
  return out;
}

}  // namespace reviewer::expr
