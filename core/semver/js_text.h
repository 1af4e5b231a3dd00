#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <reviewer/sdk/js_text.hpp>

// String operations with JavaScript's semantics, so the semver port treats whitespace and
// lengths exactly as node-semver does. Text is UTF-8; JavaScript's whitespace set (ASCII
// whitespace plus U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000,
// U+FEFF) is recognised in its UTF-8 encoding.
namespace reviewer::js {

// The byte length of the JavaScript whitespace character starting at `s[i]`, or 0.
std::size_t whitespace_at(std::string_view s, std::size_t i);

// The byte length of the JavaScript line terminator (\n, \r, U+2028, U+2029) at `s[i]`, or 0.
std::size_t line_terminator_at(std::string_view s, std::size_t i);

// Where `$` matches in a multiline (/m) regular expression: the end, or before a line terminator.
bool at_line_end(std::string_view s, std::size_t i);

// Where the next line begins after position `p` for `^` in a multiline regular expression (just
// after the next line terminator), or nullopt when no terminator follows.
std::optional<std::size_t> next_line_start(std::string_view s, std::size_t p);

// The end of the run of non-white-space characters (`[^\s]*`) starting at `s[i]`.
std::size_t non_space_run_end(std::string_view s, std::size_t i);

// `s.trim()`: the SDK's, which plugins use for the same JavaScript semantics.
using sdk::js::trim;

// `s.trim().replace(/\s+/g, ' ')`: trims and collapses each whitespace run to one space.
std::string collapse_whitespace(std::string_view s);

// `s.split(/\s+/)`: empty leading/trailing fields are kept, as JavaScript keeps them.
std::vector<std::string> split_whitespace(std::string_view s);

// `s.split(sep)` for a literal, non-empty separator.
std::vector<std::string> split(std::string_view s, std::string_view sep);

// `s.length`: the number of UTF-16 code units of UTF-8 text.
std::size_t utf16_length(std::string_view s);

// `String(+digits + 1)` for a string of ASCII digits: JavaScript number arithmetic, printed as
// JavaScript prints numbers (exponent form from 1e21).
std::string increment(std::string_view digits);

// Joins `parts` with `sep`.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace reviewer::js
