#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/source_location.h"

namespace reviewer::report {

// `s` with every control byte (below 0x20 but tab, and 0x7F) and every Unicode line separator
// (NEL, U+2028, U+2029) written as \xNN (util::append_printable), so that text a hostile
// workflow chose cannot move the cursor, recolour or add lines in a terminal, a log or a
// consumer that splits lines as JavaScript does.
std::string printable(std::string_view s);

// The line of `source` that `at` names and a caret under its column, as compilers print them:
//   runs-on: windows-latest
//            ^
// Columns count characters (UTF-8 sequences as one), as the loader's positions do; a tab in the
// line is kept in the caret line so the caret stays aligned. A line longer than 120 characters
// is shown as a window around the column, marked with "...". Empty when `at` is unknown or
// names no line of `source`.
std::string excerpt(std::string_view source, const util::SourceLocation& at);

// Line `line` (1-based) of `source` without its line break, as written; nullopt past the end.
std::optional<std::string_view> source_line(std::string_view source, std::uint32_t line);

}  // namespace reviewer::report
