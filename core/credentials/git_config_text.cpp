#include "core/credentials/git_config_text.h"

#include <optional>

namespace reviewer::credentials {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_alpha(c) || (c >= '0' && c <= '9'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// A cursor over the text that counts lines as it goes.
class Reader {
 public:
  explicit Reader(std::string_view t) : t_(t) {}

  bool done() const { return i_ >= t_.size(); }
  char peek() const { return done() ? '\0' : t_[i_]; }
  char take() {
    char c = t_[i_++];
    if (c == '\n') {
      ++line_;
    }
    return c;
  }
  void skip_blanks() {
    while (!done() && is_space(peek())) {
      take();
    }
  }
  void skip_line() {
    while (!done() && take() != '\n') {
    }
  }
  std::uint32_t line() const { return line_; }

 private:
  std::string_view t_;
  std::size_t i_ = 0;
  std::uint32_t line_ = 1;
};

struct Section {
  std::string name;
  std::string subsection;
};

// After '[': `name]`, `name "sub"]` or the legacy `name.sub]`; nullopt if git would reject it.
std::optional<Section> read_section(Reader& r) {
  Section s;
  while (!r.done() && (is_alnum(r.peek()) || r.peek() == '-' || r.peek() == '.')) {
    s.name += lower(r.take());
  }
  if (r.peek() == ']') {
    r.take();
    if (auto dot = s.name.find('.'); dot != std::string::npos) {
      s.subsection = s.name.substr(dot + 1);
      s.name.resize(dot);
    }
    return s.name.empty() ? std::nullopt : std::optional(s);
  }
  r.skip_blanks();
  if (s.name.empty() || r.peek() != '"') {
    return std::nullopt;
  }
  r.take();
  while (!r.done() && r.peek() != '"') {
    char c = r.take();
    if (c == '\n') {
      return std::nullopt;
    }
    if (c == '\\' && !r.done() && r.peek() != '\n') {
      c = r.take();
    }
    s.subsection += c;
  }
  if (r.done()) {
    return std::nullopt;
  }
  r.take();
  if (r.peek() != ']') {
    return std::nullopt;
  }
  r.take();
  return s;
}

// After '=': the value up to the end of the line (or a comment), as git's parse_value reads it;
// nullopt, with the line consumed, where git would reject it.
std::optional<std::string> read_value(Reader& r) {
  std::string value;
  std::size_t pending_spaces = 0;
  bool quoted = false;
  bool started = false;
  while (!r.done()) {
    char c = r.take();
    if (c == '\n') {
      return quoted ? std::nullopt : std::optional(value);
    }
    if (!quoted && (c == ';' || c == '#')) {
      r.skip_line();
      return value;
    }
    if (!quoted && is_space(c)) {
      pending_spaces += started ? 1 : 0;
      continue;
    }
    value.append(pending_spaces, ' ');
    pending_spaces = 0;
    started = true;
    if (c == '"') {
      quoted = !quoted;
      continue;
    }
    if (c != '\\') {
      value += c;
      continue;
    }
    if (r.done()) {
      return std::nullopt;
    }
    switch (char e = r.take()) {
      case '\n':
        break;  // a continuation line
      case 't':
        value += '\t';
        break;
      case 'b':
        value += '\b';
        break;
      case 'n':
        value += '\n';
        break;
      case '\\':
      case '"':
        value += e;
        break;
      default:
        r.skip_line();
        return std::nullopt;
    }
  }
  return quoted ? std::nullopt : std::optional(value);
}

}  // namespace

std::vector<GitConfigEntry> parse_git_config(std::string_view text) {
  std::vector<GitConfigEntry> out;
  Reader r(text);
  std::optional<Section> section;
  if (text.starts_with("\xEF\xBB\xBF")) {  // git skips a UTF-8 byte order mark
    for (int i = 0; i < 3; ++i) {
      r.take();
    }
  }
  while (!r.done()) {
    char c = r.peek();
    if (c == '\n' || is_space(c)) {
      r.take();
      continue;
    }
    if (c == '#' || c == ';') {
      r.skip_line();
      continue;
    }
    if (c == '[') {
      r.take();
      section = read_section(r);
      if (!section) {
        r.skip_line();
      }
      continue;  // git reads a key on the same line as its section header
    }
    if (!is_alpha(c) || !section) {
      r.skip_line();
      continue;
    }
    GitConfigEntry e{section->name, section->subsection, "", "", r.line()};
    while (!r.done() && (is_alnum(r.peek()) || r.peek() == '-')) {
      e.key += lower(r.take());
    }
    r.skip_blanks();
    if (r.done() || r.peek() == '\n' || r.peek() == '#' || r.peek() == ';') {
      r.skip_line();
      out.push_back(std::move(e));
      continue;
    }
    if (r.peek() != '=') {
      r.skip_line();
      continue;
    }
    r.take();
    if (auto value = read_value(r)) {
      e.value = std::move(*value);
      out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace reviewer::credentials
