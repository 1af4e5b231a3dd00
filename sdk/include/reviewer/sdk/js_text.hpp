// JavaScript string semantics the reviewed actions apply to their inputs, for plugins that must
// validate a value exactly as the action would (SDK 1.1). Inputs arrive as UTF-8; JavaScript
// counts and trims UTF-16 code units. Header-only, part of the SDK.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace reviewer::sdk::js {

namespace detail {

// Decodes the code point starting at s[i] and its byte length; an invalid byte is taken as one
// code point of its own (it cannot be whitespace).
inline std::uint32_t decode(std::string_view s, std::size_t i, std::size_t& len) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = c < 0x80           ? 1
                  : (c >> 5) == 0x6  ? 2
                  : (c >> 4) == 0xE  ? 3
                  : (c >> 3) == 0x1E ? 4
                                     : 0;
  if (n == 0 || i + n > s.size()) {
    len = 1;
    return 0xFFFD;
  }
  std::uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) {
      len = 1;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  len = n;
  return cp;
}

}  // namespace detail

// ECMAScript WhiteSpace and LineTerminator: what String.prototype.trim and /\s/ match.
constexpr bool is_space(std::uint32_t cp) {
  return cp == 0x09 || cp == 0x0A || cp == 0x0B || cp == 0x0C || cp == 0x0D || cp == 0x20 ||
         cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

// String.prototype.trim().
inline std::string_view trim(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t len = 0;
    if (!is_space(detail::decode(s, begin, len))) {
      break;
    }
    begin += len;
  }
  std::size_t end = begin;
  for (std::size_t i = begin; i < s.size();) {
    std::size_t len = 0;
    bool space = is_space(detail::decode(s, i, len));
    i += len;
    if (!space) {
      end = i;
    }
  }
  return s.substr(begin, end - begin);
}

// String.prototype.length: UTF-16 code units (a code point above U+FFFF counts twice).
inline std::size_t utf16_length(std::string_view s) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 0;
    units += detail::decode(s, i, len) > 0xFFFF ? 2 : 1;
    i += len;
  }
  return units;
}

// parseInt(s) with no radix: leading whitespace, an optional sign, "0x" for hexadecimal, then as
// many digits as there are. nullopt is NaN. Values beyond int64 saturate (out of every range a
// plugin accepts anyway).
inline std::optional<std::int64_t> parse_int(std::string_view s) {
  s = trim(s);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  std::int64_t value = 0;
  std::size_t digits = 0;
  for (char c : s) {
    int d = c >= '0' && c <= '9'                 ? c - '0'
            : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
            : base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
    if (d < 0) {
      break;
    }
    ++digits;
    value = value < (INT64_MAX - d) / base ? value * base + d : INT64_MAX;
  }
  if (digits == 0) {
    return std::nullopt;
  }
  return negative ? -value : value;
}

}  // namespace reviewer::sdk::js
