#include "core/workflow/scalar_typing.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace reviewer::workflow {
namespace {

bool digits(std::string_view s, bool (*is)(unsigned char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) { return is(c); });
}
bool dec(unsigned char c) { return std::isdigit(c) != 0; }
bool oct(unsigned char c) { return c >= '0' && c <= '7'; }
bool hex(unsigned char c) { return std::isxdigit(c) != 0; }

std::string_view unsigned_part(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    s.remove_prefix(1);
  }
  return s;
}

// [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ (the core schema's int).
bool core_int(std::string_view s) {
  if (s.starts_with("0o")) {
    return digits(s.substr(2), oct);
  }
  if (s.starts_with("0x")) {
    return digits(s.substr(2), hex);
  }
  return digits(unsigned_part(s), dec);
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? and the infinities and NaNs.
bool core_float(std::string_view s) {
  constexpr std::array kSpecial = {".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"};
  std::string_view u = unsigned_part(s);
  if (std::find(kSpecial.begin(), kSpecial.end(), u) != kSpecial.end()) {
    return u.find("nan") == std::string_view::npos || u == s;  // NaN takes no sign
  }
  const std::size_t e = u.find_first_of("eE");
  const std::string_view mantissa = u.substr(0, e);
  if (e != std::string_view::npos && !digits(unsigned_part(u.substr(e + 1)), dec)) {
    return false;
  }
  const std::size_t dot = mantissa.find('.');
  if (dot == std::string_view::npos) {
    return digits(mantissa, dec);
  }
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view frac = mantissa.substr(dot + 1);
  return whole.empty() ? digits(frac, dec)
                       : digits(whole, dec) && (frac.empty() || digits(frac, dec));
}

// Spellings that survive a round trip through a double printed in general format with 15
// significant digits, which is fixed-point only for exponents -4 to 14: 0, -7, 0.5, -12.25,
// 0.0001 (no sign '+', no leading zero, no trailing zero, no exponent, at most 15 digits).
bool canonical_number(std::string_view s) {
  const std::string_view u = s.starts_with('-') ? s.substr(1) : s;
  const std::size_t dot = u.find('.');
  const std::string_view whole = u.substr(0, dot);
  if (!digits(whole, dec) || (whole.size() > 1 && whole[0] == '0') || (u == "0" && s != u)) {
    return false;
  }
  if (dot == std::string_view::npos) {
    return whole.size() <= 15;
  }
  const std::string_view frac = u.substr(dot + 1);
  if (!digits(frac, dec) || frac.back() == '0') {
    return false;
  }
  if (whole != "0") {
    return whole.size() + frac.size() <= 15;
  }
  const std::size_t zeros = frac.find_first_not_of('0');
  return zeros < 4 && frac.size() - zeros <= 15;
}

}  // namespace

PlainScalar read_plain_scalar(std::string_view text) {
  if (text == "True" || text == "TRUE") {
    return {"true", std::nullopt};
  }
  if (text == "False" || text == "FALSE") {
    return {"false", std::nullopt};
  }
  if ((core_int(text) || core_float(text)) && !canonical_number(text)) {
    return {std::string(text),
            "GitHub reads it as a number and passes on the number's own spelling"};
  }
  return {std::string(text), std::nullopt};
}

}  // namespace reviewer::workflow
