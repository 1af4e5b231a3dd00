#include "core/expr/js_number.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace reviewer::expr {
namespace {}  // namespace

std::size_t js_space_at(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d)) {
    return 1;
  }
  static constexpr std::string_view kWide[] = {
      "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82",
      "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87",
      "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9",
      "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80", "\xef\xbb\xbf"};
  for (auto w : kWide) {
    if (s.substr(i, w.size()) == w) {
      return w.size();
    }
  }
  return 0;
}

namespace {

std::string_view js_trim(std::string_view s) {
  std::size_t n = 0;
  while (!s.empty() && (n = js_space_at(s, 0)) != 0) {
    s.remove_prefix(n);
  }
  for (bool trimmed = true; trimmed && !s.empty();) {
    trimmed = false;
    for (std::size_t w = 1; w <= 3 && w <= s.size(); ++w) {
      if (js_space_at(s, s.size() - w) == w) {
        s.remove_suffix(w);
        trimmed = true;
        break;
      }
    }
  }
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
bool is_decimal_literal(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < s.size() && is_digit(s[i])) {
    ++i, ++int_digits;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) {
      ++i, ++frac_digits;
    }
  }
  if (int_digits + frac_digits == 0) {
    return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    std::size_t exp_digits = 0;
    while (i < s.size() && is_digit(s[i])) {
      ++i, ++exp_digits;
    }
    if (exp_digits == 0) {
      return false;
    }
  }
  return i == s.size();
}

// 0x, 0o and 0b literals, rounded to the nearest double as JavaScript does: re-spelled as a hex
// literal, which strtod rounds correctly.
double non_decimal(std::string_view digits, int bits_per_digit) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string bits;
  for (char c : digits) {
    const int v = (c >= '0' && c <= '9')   ? c - '0'
                  : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                           : 99;
    if (v >= (1 << bits_per_digit)) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    for (int b = bits_per_digit - 1; b >= 0; --b) {
      bits += ((v >> b) & 1) ? '1' : '0';
    }
  }
  if (bits.empty()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  std::string hex = "0x";
  bits.insert(0, (4 - bits.size() % 4) % 4, '0');
  for (std::size_t i = 0; i < bits.size(); i += 4) {
    hex += kHex[(bits[i] - '0') * 8 + (bits[i + 1] - '0') * 4 + (bits[i + 2] - '0') * 2 +
                (bits[i + 3] - '0')];
  }
  return std::strtod(hex.c_str(), nullptr);
}

}  // namespace

double parse_js_number(std::string_view text) {
  const std::string_view s = js_trim(text);
  if (s.empty()) {
    return 0;
  }
  if (s == "Infinity" || s == "+Infinity") {
    return std::numeric_limits<double>::infinity();
  }
  if (s == "-Infinity") {
    return -std::numeric_limits<double>::infinity();
  }
  if (s.size() > 2 && s[0] == '0') {
    switch (s[1]) {
      case 'x':
      case 'X':
        return non_decimal(s.substr(2), 4);
      case 'o':
      case 'O':
        return non_decimal(s.substr(2), 3);
      case 'b':
      case 'B':
        return non_decimal(s.substr(2), 1);
      default:
        break;
    }
  }
  if (!is_decimal_literal(s)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return std::strtod(std::string(s).c_str(), nullptr);
}

std::string format_js_number(double d) {
  if (std::isnan(d)) {
    return "NaN";
  }
  if (d == 0) {
    return "0";
  }
  if (d < 0) {
    return "-" + format_js_number(-d);
  }
  if (std::isinf(d)) {
    return "Infinity";
  }
  // The shortest round-trip digits and their exponent: d = 0.digits × 10^n.
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const std::string sci(buf, end);
  const auto e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') {
      digits += c;
    }
  }
  const int n = std::atoi(sci.c_str() + e + 1) + 1;
  const int k = static_cast<int>(digits.size());
  if (k <= n && n <= 21) {
    return digits + std::string(static_cast<std::size_t>(n - k), '0');
  }
  if (0 < n && n <= 21) {
    return digits.substr(0, static_cast<std::size_t>(n)) + "." +
           digits.substr(static_cast<std::size_t>(n));
  }
  if (-6 < n && n <= 0) {
    return "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  }
  const std::string exp = (n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
  if (k == 1) {
    return digits + "e" + exp;
  }
  return digits.substr(0, 1) + "." + digits.substr(1) + "e" + exp;
}

std::string format_expression_number(double d) {
  if (d == 0) {
    return "0";
  }
  if (std::isnan(d) || std::isinf(d) || std::fabs(d) >= 1e21) {
    return format_js_number(d);  // toFixed leaves these to toString
  }
  // toFixed(15) on the exact binary value: round half up at the 15th decimal. glibc prints a
  // double's exact decimal expansion (at most 1074 fractional digits).
  char exact[1400];
  std::snprintf(exact, sizeof exact, "%.1100f", std::fabs(d));
  std::string s(exact);
  const auto dot = s.find('.');
  bool up = s[dot + 16] >= '5';
  s.resize(dot + 16);
  if (up) {
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == '.') {
        continue;
      }
      if (s[i] == '9') {
        s[i] = '0';
        continue;
      }
      ++s[i];
      up = false;
      break;
    }
    if (up) {
      s.insert(0, "1");
    }
  }
  const double rounded = std::strtod(s.c_str(), nullptr);
  return format_js_number(d < 0 ? -rounded : rounded);
}

}  // namespace reviewer::expr
