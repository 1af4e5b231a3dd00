#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::util {

// ASCII whitespace as C's isspace sees it.
inline constexpr std::string_view kAsciiSpace = " \t\n\v\f\r";

// `s` without leading and trailing characters of `space`.
std::string_view trim(std::string_view s, std::string_view space = kAsciiSpace);

// `s` with ASCII letters lower-cased (other bytes, UTF-8 included, unchanged).
std::string lower(std::string_view s);

// `path` split at every '/', empty components kept ("a//b" is "a", "", "b"), so a caller can
// refuse them rather than have them vanish.
std::vector<std::string> split_path(std::string_view path);

// Whether `s` holds a C0 control character (tab included) or DEL.
bool has_control_character(std::string_view s);

// How much of a value a message quotes: enough to recognise it, short enough for one line.
inline constexpr std::size_t kQuoteMax = 120;

// `value` for a message, between `mark`s: cut at kQuoteMax bytes with "..." after; control bytes
// written \xNN as report::printable writes them, `mark` and backslash escaped with a backslash,
// so a value can neither break the line, drive a terminal, nor end the quotation early.
std::string quote(std::string_view value, char mark = '\'');

}  // namespace reviewer::util
