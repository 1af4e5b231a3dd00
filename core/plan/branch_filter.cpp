#include "core/plan/branch_filter.h"

#include <cctype>

namespace reviewer::plan {
namespace {

// One element of a pattern: a literal character, `*`, `**` or a character class.
struct Token {
  enum class Kind { kChar, kStar, kGlobstar, kClass };
  Kind kind = Kind::kChar;
  char c = 0;
  std::string set;  // kClass: the characters admitted, ranges expanded
};

bool range_end(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// `[...]` at `p[i]` (i at '['): alphanumerics and ranges within a-z, A-Z or 0-9 only.
std::optional<Token> parse_class(std::string_view p, std::size_t& i) {
  Token t{Token::Kind::kClass, 0, {}};
  std::size_t j = i + 1;
  for (; j < p.size() && p[j] != ']'; ++j) {
    char lo = p[j];
    if (!range_end(lo)) {
      return std::nullopt;
    }
    if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
      char hi = p[j + 2];
      bool same_kind = (std::isdigit(static_cast<unsigned char>(lo)) &&
                        std::isdigit(static_cast<unsigned char>(hi))) ||
                       (std::islower(static_cast<unsigned char>(lo)) &&
                        std::islower(static_cast<unsigned char>(hi))) ||
                       (std::isupper(static_cast<unsigned char>(lo)) &&
                        std::isupper(static_cast<unsigned char>(hi)));
      if (!same_kind || hi < lo) {
        return std::nullopt;
      }
      for (char c = lo; c <= hi; ++c) {
        t.set.push_back(c);
      }
      j += 2;
    } else {
      t.set.push_back(lo);
    }
  }
  if (j >= p.size() || t.set.empty()) {
    return std::nullopt;
  }
  i = j;
  return t;
}

std::optional<std::vector<Token>> tokenize(std::string_view p) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '*') {
      bool globstar = i + 1 < p.size() && p[i + 1] == '*';
      out.push_back({globstar ? Token::Kind::kGlobstar : Token::Kind::kStar, 0, {}});
      if (globstar) {
        ++i;
      }
    } else if (p[i] == '[') {
      auto t = parse_class(p, i);
      if (!t) {
        return std::nullopt;
      }
      out.push_back(std::move(*t));
    } else if (p[i] == '?' || p[i] == '+' || p[i] == '\\' || p[i] == ']') {
      return std::nullopt;
    } else {
      out.push_back({Token::Kind::kChar, p[i], {}});
    }
  }
  return out;
}

// Dynamic programming over (token, position): linear in pattern times name, so no pattern can
// make matching exponential.
bool match_tokens(const std::vector<Token>& t, std::string_view n) {
  std::vector<char> cur(n.size() + 1, 0);
  std::vector<char> next(n.size() + 1, 0);
  cur[0] = 1;
  for (const Token& tok : t) {
    std::fill(next.begin(), next.end(), 0);
    for (std::size_t i = 0; i <= n.size(); ++i) {
      if (!cur[i]) {
        continue;
      }
      switch (tok.kind) {
        case Token::Kind::kChar:
          if (i < n.size() && n[i] == tok.c) {
            next[i + 1] = 1;
          }
          break;
        case Token::Kind::kClass:
          if (i < n.size() && tok.set.find(n[i]) != std::string::npos) {
            next[i + 1] = 1;
          }
          break;
        case Token::Kind::kStar:
          for (std::size_t j = i; j <= n.size(); ++j) {
            next[j] = 1;
            if (j < n.size() && n[j] == '/') {
              break;
            }
          }
          break;
        case Token::Kind::kGlobstar:
          for (std::size_t j = i; j <= n.size(); ++j) {
            next[j] = 1;
          }
          break;
      }
    }
    std::swap(cur, next);
  }
  return cur[n.size()] != 0;
}

}  // namespace

std::optional<bool> glob_match(std::string_view pattern, std::string_view name) {
  if (auto tokens = tokenize(pattern)) {
    return match_tokens(*tokens, name);
  }
  // Undecidable syntax: still exact when the literal head (before the first special
  // character, less the one a `?` may make optional) is not a prefix of the name, or, without
  // escapes or brackets, the literal tail (after the last special character) is not a suffix.
  constexpr std::string_view kSpecial = "*[?+\\]";
  std::size_t first = pattern.find_first_of(kSpecial);
  std::size_t head = first;
  if (pattern[first] == '?') {
    head = first == 0 ? 0 : first - 1;
  }
  if (!name.starts_with(pattern.substr(0, head))) {
    return false;
  }
  if (pattern.find_first_of("\\[]") == std::string_view::npos) {
    std::string_view tail = pattern.substr(pattern.find_last_of(kSpecial) + 1);
    if (!name.ends_with(tail)) {
      return false;
    }
  }
  return std::nullopt;
}

std::optional<bool> branches_admit(const std::vector<std::string>& patterns,
                                   std::string_view base) {
  // The last pattern that matches decides; an undecidable pattern after the last certain
  // match could change the answer, one before it cannot.
  std::optional<bool> admitted = false;
  for (const auto& raw : patterns) {
    bool negate = raw.starts_with("!");
    std::string_view p = negate ? std::string_view(raw).substr(1) : std::string_view(raw);
    auto m = glob_match(p, base);
    if (!m) {
      if (!(admitted && *admitted == !negate)) {
        admitted = std::nullopt;  // could change it
      }
    } else if (*m) {
      admitted = !negate;
    }
  }
  return admitted;
}

}  // namespace reviewer::plan
