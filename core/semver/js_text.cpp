#include "core/semver/js_text.h"

#include <charconv>
#include <cstdlib>

namespace reviewer::js {

std::string collapse_whitespace(std::string_view s) {
  s = trim(s);
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    if (std::size_t n = whitespace_at(s, i)) {
      while ((n = whitespace_at(s, i)) != 0) {
        i += n;
      }
      out += ' ';
    } else {
      out += s[i++];
    }
  }
  return out;
}

std::vector<std::string> split_whitespace(std::string_view s) {
  std::vector<std::string> out;
  std::string field;
  std::size_t i = 0;
  while (i < s.size()) {
    if (std::size_t n = whitespace_at(s, i)) {
      while ((n = whitespace_at(s, i)) != 0) {
        i += n;
      }
      out.push_back(std::move(field));
      field.clear();
    } else {
      field += s[i++];
    }
  }
  out.push_back(std::move(field));
  return out;
}

std::size_t utf16_length(std::string_view s) {
  std::size_t units = 0;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) != 0x80) {
      ++units;  // each code point starts with a non-continuation byte
    }
    if (c >= 0xF0) {
      ++units;  // outside the BMP: a surrogate pair
    }
  }
  return units;
}

std::string increment(std::string_view digits) {
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) {
    return "1";
  }
  digits.remove_prefix(first);
  if (digits.size() <= 15) {  // exact in a double and well below 2^53
    std::uint64_t v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v);
    return std::to_string(v + 1);
  }
  // Large values: JavaScript rounds to a double; any result is beyond MAX_SAFE_INTEGER, so
  // only its printed shape (decimal below 1e21, exponent form above) matters downstream.
  const double value = std::strtod(std::string(digits).c_str(), nullptr) + 1;
  char buf[64];
  const auto fmt = value < 1e21 ? std::chars_format::fixed : std::chars_format::scientific;
  const auto res = std::to_chars(buf, buf + sizeof buf, value, fmt);
  return std::string(buf, res.ptr);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += sep;
    }
    out += parts[i];
  }
  return out;
}

}  // namespace reviewer::js
