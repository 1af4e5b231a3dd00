#include "core/report/source_excerpt.h"

#include <fmt/format.h>

#include <cstddef>
#include <vector>

#include "core/util/text.h"

namespace reviewer::report {
namespace {

constexpr std::size_t kWidth = 120;
constexpr std::size_t kBefore = 60;  // characters kept before the column in a long line

// The line numbered `n` (1-based) without its line break; false if `source` has no such line.
// A file ending in a newline has an empty last line, where end-of-file complaints point.
bool nth_line(std::string_view source, std::uint32_t n, std::string_view& line) {
  std::size_t start = 0;
  for (std::uint32_t i = 1; i < n; ++i) {
    const std::size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) {
      return false;
    }
    start = nl + 1;
  }
  std::size_t end = source.find('\n', start);
  if (end == std::string_view::npos) {
    end = source.size();
  }
  line = source.substr(start, end - start);
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  return true;
}

// The byte offsets where the characters of `line` start.
std::vector<std::size_t> character_starts(std::string_view line) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) {
      starts.push_back(i);
    }
  }
  return starts;
}

}  // namespace

std::optional<std::string_view> source_line(std::string_view source, std::uint32_t line) {
  std::string_view text;
  if (line == 0 || !nth_line(source, line, text)) {
    return std::nullopt;
  }
  return text;
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  util::append_printable(out, s);
  return out;
}

std::string excerpt(std::string_view source, const util::SourceLocation& at) {
  std::string_view line;
  if (!at.known() || at.column == 0 || !nth_line(source, at.line, line)) {
    return {};
  }
  const std::vector<std::size_t> starts = character_starts(line);
  const std::size_t chars = starts.size();
  const std::size_t column = std::min<std::size_t>(at.column - 1, chars);  // past the end: EOL
  std::size_t first = 0;
  std::size_t last = chars;
  if (chars > kWidth) {
    first = column > kBefore ? column - kBefore : 0;
    last = std::min(chars, first + kWidth);
    first = last - kWidth < first ? last - kWidth : first;
  }
  const auto byte = [&](std::size_t c) { return c < chars ? starts[c] : line.size(); };
  std::string shown = first > 0 ? "..." : "";
  std::string caret(shown.size(), ' ');
  for (std::size_t c = first; c < last; ++c) {
    const std::string piece = printable(line.substr(byte(c), byte(c + 1) - byte(c)));
    shown += piece;
    if (c < column) {
      caret += piece == "\t" ? "\t" : std::string(piece[0] == '\\' ? piece.size() : 1, ' ');
    }
  }
  if (last < chars) {
    shown += "...";
  }
  return shown + "\n" + caret + "^";
}

}  // namespace reviewer::report
