#pragma once

#include <string>
#include <string_view>

namespace reviewer::expr {

// The length of the JavaScript white space or line terminator at s[i] (UTF-8), or 0.
std::size_t js_space_at(std::string_view s, std::size_t i);

// JavaScript's Number(text): surrounding white space ignored, "" is 0, decimal literals with an
// optional sign and exponent, unsigned 0x/0o/0b literals, [+-]Infinity; anything else NaN.
double parse_js_number(std::string_view text);

// JavaScript's Number.prototype.toString(): the shortest digits that read back as `d`, in fixed
// notation from 1e-7 to 1e21 and exponent notation ("1e+21", "1.5e-7") outside it.
std::string format_js_number(double d);

// How the expression language prints a number: at most 15 decimals (JavaScript's toFixed(15),
// rounding half up), then printed as JavaScript prints the number that reads back; 0 and -0
// are "0".
std::string format_expression_number(double d);

}  // namespace reviewer::expr
