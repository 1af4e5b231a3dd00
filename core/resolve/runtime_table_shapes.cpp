#include "core/resolve/runtime_table_shapes.h"

#include <algorithm>
#include <array>

#include "core/semver/version.h"

namespace reviewer::resolve::shapes {
namespace {

bool lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool lower_digit(char c) { return (c >= 'a' && c <= 'z') || digit(c); }
bool lower(char c) { return c >= 'a' && c <= 'z'; }
bool alnum(char c) { return lower_digit(c) || (c >= 'A' && c <= 'Z'); }

template <class Pred>
bool all_of(std::string_view s, Pred p) {
  return std::all_of(s.begin(), s.end(), p);
}

// Consumes `[class]+` from the front of `s`; false when there is not one.
template <class Pred>
bool eat_run(std::string_view& s, Pred p) {
  const auto n = static_cast<std::size_t>(std::find_if_not(s.begin(), s.end(), p) - s.begin());
  s.remove_prefix(n);
  return n > 0;
}

bool eat(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) {
    return false;
  }
  s.remove_prefix(prefix.size());
  return true;
}

// `[a-z0-9][a-z0-9._-]*` (npm name and scope characters)
bool npm_name(std::string_view s) {
  return !s.empty() && lower_digit(s[0]) && all_of(s.substr(1), [](char c) {
    return lower_digit(c) || c == '.' || c == '_' || c == '-';
  });
}

}  // namespace

bool sha256_hex(std::string_view s) { return s.size() == 64 && all_of(s, lower_hex); }

bool sha256_digest(std::string_view s) { return eat(s, "sha256:") && sha256_hex(s); }

bool sha512_integrity(std::string_view s) {
  return eat(s, "sha512-") && s.size() == 88 && s.ends_with("==") &&
         all_of(s.substr(0, 86), [](char c) { return alnum(c) || c == '+' || c == '/'; });
}

bool debian_name(std::string_view s) {
  return !s.empty() && lower_digit(s[0]) && all_of(s.substr(1), [](char c) {
    return lower_digit(c) || c == '.' || c == '+' || c == '-';
  });
}

bool debian_version(std::string_view s) {
  // ':' is outside the upstream class, so a colon can only end the epoch.
  if (const auto colon = s.find(':'); colon != std::string_view::npos) {
    if (colon == 0 || !all_of(s.substr(0, colon), digit)) {
      return false;
    }
    s.remove_prefix(colon + 1);
  }
  return !s.empty() && digit(s[0]) && all_of(s.substr(1), [](char c) {
    return alnum(c) || c == '.' || c == '+' || c == '~' || c == '-';
  });
}

bool debian_source(std::string_view s) {
  if (!eat(s, "deb http")) {
    return false;
  }
  eat(s, "s");
  if (!eat(s, "://deb.debian.org/debian")) {
    return false;
  }
  eat(s, "-security");
  if (!eat(s, " ") || !eat_run(s, lower)) {
    return false;
  }
  if (eat(s, "-") && !eat_run(s, lower)) {
    return false;
  }
  return eat(s, " ") && !s.empty() && all_of(s, [](char c) { return lower(c) || c == ' '; });
}

bool package_path(std::string_view s) {
  for (;;) {
    const auto slash = s.find('/');
    const std::string_view segment = s.substr(0, slash);
    if (segment.empty() || segment == "." || segment == ".." ||
        !all_of(segment, [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; })) {
      return false;
    }
    if (slash == std::string_view::npos) {
      return true;
    }
    s.remove_prefix(slash + 1);
  }
}

bool image_name(std::string_view s) { return s.size() <= 128 && npm_name(s); }

bool platform(std::string_view s) { return s == "linux/amd64"; }

bool builder(std::string_view s) { return s == "mmdebstrap"; }

bool mmdebstrap_variant(std::string_view s) {
  constexpr std::array<std::string_view, 6> kVariants = {"minbase",  "essential", "apt",
                                                         "required", "important", "standard"};
  return std::find(kVariants.begin(), kVariants.end(), s) != kVariants.end();
}

bool date(std::string_view s) {
  return s.size() == 10 && s[4] == '-' && s[7] == '-' && all_of(s.substr(0, 4), digit) &&
         all_of(s.substr(5, 2), digit) && all_of(s.substr(8, 2), digit);
}

bool canonical_version(std::string_view s) {
  auto parsed = semver::parse_version(s);
  return parsed && parsed->to_string() == s;
}

std::optional<std::string_view> npm_package_version(std::string_view s) {
  std::string_view name = s;
  if (s.starts_with('@')) {  // the scope: its class has no '/', so the first '/' ends it
    const auto slash = s.find('/');
    if (slash == std::string_view::npos || !npm_name(s.substr(1, slash - 1))) {
      return std::nullopt;
    }
    name = s.substr(slash + 1);
  }
  // The name's class has no '@', so the first '@' after it starts the version.
  const auto at = name.find('@');
  if (at == std::string_view::npos || !npm_name(name.substr(0, at))) {
    return std::nullopt;
  }
  const std::string_view version = name.substr(at + 1);
  // `.+`: ECMAScript's `.` matches neither line feed nor carriage return.
  if (version.empty() || version.find_first_of("\n\r") != std::string_view::npos) {
    return std::nullopt;
  }
  return version;
}

}  // namespace reviewer::resolve::shapes
