// JavaScript string semantics the reviewed actions apply to their inputs, for plugins that must
// validate a value exactly as the action would (SDK 1.1). Inputs arrive as UTF-8; JavaScript
// counts and trims UTF-16 code units. Header-only, part of the SDK.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// SDK 1.11, for plugins that reproduce an action's regular expressions over a file's text.

// The byte length of the JavaScript white space character (/\s/) starting at `s[i]`, or 0.
inline std::size_t whitespace_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) {
    return 0;
  }
  const auto b = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0U;
  };
  const unsigned c = b(0);
  if (c == ' ' || (c >= '\t' && c <= '\r')) {
    return 1;
  }
  if (c == 0xC2 && b(1) == 0xA0) {
    return 2;  // U+00A0
  }
  if (c == 0xE1 && b(1) == 0x9A && b(2) == 0x80) {
    return 3;  // U+1680
  }
  if (c == 0xE2 && b(1) == 0x80) {  // U+2000..U+200A, U+2028/9, U+202F
    const unsigned d = b(2);
    if ((d >= 0x80 && d <= 0x8A) || d == 0xA8 || d == 0xA9 || d == 0xAF) {
      return 3;
    }
  }
  if (c == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) {
    return 3;  // U+205F
  }
  if (c == 0xE3 && b(1) == 0x80 && b(2) == 0x80) {
    return 3;  // U+3000
  }
  if (c == 0xEF && b(1) == 0xBB && b(2) == 0xBF) {
    return 3;  // U+FEFF
  }
  return 0;
}

// The byte length of the JavaScript line terminator (\n, \r, U+2028, U+2029) at `s[i]`, or 0.
inline std::size_t line_terminator_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) {
    return 0;
  }
  if (s[i] == '\n' || s[i] == '\r') {
    return 1;
  }
  const std::string_view three = s.substr(i, 3);
  return three == "\xE2\x80\xA8" || three == "\xE2\x80\xA9" ? 3 : 0;
}

// Where `$` matches in a multiline (/m) regular expression: the end, or before a line terminator.
inline bool at_line_end(std::string_view s, std::size_t i) {
  return i >= s.size() || line_terminator_at(s, i) != 0;
}

// Where the next line begins after position `p` for `^` in a multiline regular expression (just
// after the next line terminator), or nullopt when no terminator follows.
inline std::optional<std::size_t> next_line_start(std::string_view s, std::size_t p) {
  for (std::size_t i = p; i < s.size(); ++i) {
    if (const std::size_t n = line_terminator_at(s, i)) {
      return i + n;
    }
  }
  return std::nullopt;
}

// The end of the run of non-white-space characters (`[^\s]*`) starting at `s[i]`.
inline std::size_t non_space_run_end(std::string_view s, std::size_t i) {
  // Byte by byte: white space begins with an ASCII byte or a UTF-8 lead byte, never with a
  // continuation byte, so stepping inside a multi-byte character cannot find one there.
  while (i < s.size() && whitespace_at(s, i) == 0) {
    ++i;
  }
  return i;
}

// `s.split(sep)` for a literal, non-empty separator.
inline std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = s.find(sep, from);
    if (at == std::string_view::npos) {
      break;
    }
    out.emplace_back(s.substr(from, at - from));
    from = at + sep.size();
  }
  out.emplace_back(s.substr(from));
  return out;
}

}  // namespace reviewer::sdk::js
