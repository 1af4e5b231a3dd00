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

// How many bytes at `s[i]` must be written \xNN so that no reader of our output sees a line
// break or a terminal control that the text's author put there: 1 for a C0 control byte other
// than the tab, or DEL; 2 for NEL (U+0085) and 3 for LINE SEPARATOR and PARAGRAPH SEPARATOR
// (U+2028, U+2029) in UTF-8, at which JavaScript, Python's splitlines and many log viewers
// break lines; 0 otherwise.
std::size_t unsafe_bytes_at(std::string_view s, std::size_t i);

// Appends `s` to `out` with every unsafe_bytes_at() byte written \xNN (upper-case hex), tabs
// kept: the one way text a pull request chose reaches a line of ours.
void append_printable(std::string& out, std::string_view s);

// How much of a value a message quotes: enough to recognise it, short enough for one line.
inline constexpr std::size_t kQuoteMax = 120;

// `value` for a message, between `mark`s: cut at kQuoteMax bytes with "..." after; tabs and
// unsafe_bytes_at() bytes written \xNN as append_printable writes them, `mark` and backslash
// escaped with a backslash, so a value can neither break the line, drive a terminal, nor end the
// quotation early.
std::string quote(std::string_view value, char mark = '\'');

}  // namespace reviewer::util
