#include "core/deps/platform.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace reviewer::deps {
namespace {

// npm-install-checks' checkList.
bool admits(const std::vector<std::string>& list, const std::string& value) {
  if (list.empty() || (list.size() == 1 && list.front() == "any")) {
    return true;
  }
  bool positive = false;
  bool named = false;
  for (const auto& entry : list) {
    if (entry.starts_with("!")) {
      if (entry.substr(1) == value) {
        return false;
      }
    } else {
      positive = true;
      named = named || entry == value;
    }
  }
  return !positive || named;
}

// Berry's condition grammar: `a | b`, `a & b` (binding tighter), `(...)`, `field=value`.
class Conditions {
 public:
  explicit Conditions(std::string_view text) : text_(text) {}

  // The verdict, or nullopt when the text is not that grammar.
  std::optional<bool> evaluate() {
    auto v = any();
    skip();
    if (!v || at_ != text_.size()) {
      return std::nullopt;
    }
    return v;
  }

 private:
  void skip() {
    while (at_ < text_.size() && text_[at_] == ' ') {
      ++at_;
    }
  }
  bool eat(char c) {
    skip();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  std::optional<bool> any() {
    auto v = all();
    while (v && eat('|')) {
      auto next = all();
      v = next ? std::optional<bool>(*v || *next) : std::nullopt;
    }
    return v;
  }
  std::optional<bool> all() {
    auto v = one();
    while (v && eat('&')) {
      auto next = one();
      v = next ? std::optional<bool>(*v && *next) : std::nullopt;
    }
    return v;
  }
  std::optional<bool> one() {
    if (depth_ > 16) {
      return std::nullopt;
    }
    if (eat('(')) {
      ++depth_;
      auto v = any();
      --depth_;
      return v && eat(')') ? v : std::nullopt;
    }
    skip();
    const std::size_t start = at_;
    while (at_ < text_.size() &&
           std::string_view("&|() ").find(text_[at_]) == std::string_view::npos) {
      ++at_;
    }
    const std::string_view word = text_.substr(start, at_ - start);
    const std::size_t eq = word.find('=');
    if (eq == std::string_view::npos) {
      return std::nullopt;
    }
    const std::string_view field = word.substr(0, eq);
    const std::string_view value = word.substr(eq + 1);
    if (field == "os") {
      return value == "linux";
    }
    if (field == "cpu") {
      return value == "x64";
    }
    if (field == "libc") {
      return value == "glibc";
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

bool berry_conditions_met(std::string_view conditions) {
  return Conditions(conditions).evaluate().value_or(true);
}

bool installs_here(const LockedPackage& p) {
  return admits(p.os, "linux") && admits(p.cpu, "x64") && admits(p.libc, "glibc");
}

}  // namespace reviewer::deps
