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

// White space, line ends and runs as the SDK reads them, so plugins and the core agree.
using sdk::js::at_line_end;
using sdk::js::line_terminator_at;
using sdk::js::next_line_start;
using sdk::js::non_space_run_end;
using sdk::js::whitespace_at;

// `s.trim()`: the SDK's, which plugins use for the same JavaScript semantics.
using sdk::js::trim;

// `s.trim().replace(/\s+/g, ' ')`: trims and collapses each whitespace run to one space.
std::string collapse_whitespace(std::string_view s);

// `s.split(/\s+/)`: empty leading/trailing fields are kept, as JavaScript keeps them.
std::vector<std::string> split_whitespace(std::string_view s);

// `s.split(sep)` for a literal, non-empty separator.
using sdk::js::split;

// `s.length`: the number of UTF-16 code units of UTF-8 text.
std::size_t utf16_length(std::string_view s);

// `String(+digits + 1)` for a string of ASCII digits: JavaScript number arithmetic, printed as
// JavaScript prints numbers (exponent form from 1e21).
std::string increment(std::string_view digits);

// Joins `parts` with `sep`.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace reviewer::js
