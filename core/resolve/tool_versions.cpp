#include "core/resolve/tool_versions.h"

#include <cstdio>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/resolve/safe_file.h"
#include "core/resolve/text_lines.h"
#include "core/semver/js_text.h"

namespace reviewer::resolve {
namespace {

constexpr const char* kFile = ".tool-versions";
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Go's unicode.IsSpace, which asdf's strings.TrimSpace applies: JavaScript's white space
// without U+FEFF, plus U+0085. The byte length of the character at `s[i]`, or 0.
std::size_t go_space_at(std::string_view s, std::size_t i) {
  if (s.substr(i, 2) == "\xC2\x85") {
    return 2;
  }
  if (s.substr(i, 3) == kByteOrderMark) {
    return 0;
  }
  return js::whitespace_at(s, i);
}

std::string_view go_trim(std::string_view s) {
  std::size_t begin = 0;
  while (std::size_t n = go_space_at(s, begin)) {
    begin += n;
  }
  std::size_t end = begin;
  for (std::size_t i = begin; i < s.size();) {
    const std::size_t n = go_space_at(s, i);
    i += n == 0 ? 1 : n;
    end = n == 0 ? i : end;
  }
  return s.substr(begin, end - begin);
}

// asdf's parseLine: strings.Split(line, " "), each piece trimmed, empty pieces dropped.
std::vector<std::string_view> fields_of(std::string_view content) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t sp = content.find(' ');
    if (std::string_view f = go_trim(content.substr(0, sp)); !f.empty()) {
      out.push_back(f);
    }
    if (sp == std::string_view::npos) {
      return out;
    }
    content.remove_prefix(sp + 1);
  }
}

std::optional<std::string> tool_of(std::string_view name) {
  if (name == "nodejs" || name == "node") {
    return "node";
  }
  if (name == "bun") {
    return "bun";
  }
  return std::nullopt;
}

// "the tab (U+0009)" for the white space character of `n` bytes at `s[i]`.
std::string describe_space(std::string_view s, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) {
    return static_cast<unsigned>(static_cast<unsigned char>(s[i + k]));
  };
  const unsigned cp = n == 1   ? b(0)
                      : n == 2 ? ((b(0) & 0x1FU) << 6) | (b(1) & 0x3FU)
                               : ((b(0) & 0x0FU) << 12) | ((b(1) & 0x3FU) << 6) | (b(2) & 0x3FU);
  const char* name = cp == 0x09   ? "tab"
                     : cp == 0x0B ? "vertical tab"
                     : cp == 0x0C ? "form feed"
                     : cp == 0x0D ? "carriage return"
                     : cp == 0x85 ? "next-line character"
                     : cp == 0xA0 ? "no-break space"
                                  : "white space character";
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", cp);
  return std::string("the ") + name + " (" + code + ")";
}

// Refuses a Node or Bun line that asdf would misread: a white space character other than a
// space inside a field (asdf does not split there), or the file's byte-order mark glued to the
// tool name. Whoever wrote such a line meant the split that setup-node's reader makes, so it
// is refused rather than ignored the way asdf ignores it.
util::Status check_misread(const Line& line, const std::vector<std::string_view>& fields) {
  std::string_view name = fields[0];
  const std::string where = std::string(kFile) + " line " + std::to_string(line.number);
  const util::SourceLocation at{kFile, line.number, column_of(line.text, name)};
  const bool bom = name.substr(0, kByteOrderMark.size()) == kByteOrderMark;
  if (bom) {
    name.remove_prefix(kByteOrderMark.size());
  }
  std::size_t cut = 0;
  while (cut < name.size() && go_space_at(name, cut) == 0) {
    ++cut;
  }
  if (!tool_of(name.substr(0, cut))) {
    return util::ok_status();
  }
  if (bom) {
    return invalid_declaration(where +
                                   " begins with a byte-order mark (U+FEFF), which asdf reads as "
                                   "part of the tool name, so it ignores the line; save the "
                                   "file without it",
                               at);
  }
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::string_view field = fields[f];
    for (std::size_t i = 0; i < field.size(); ++i) {
      if (const std::size_t n = go_space_at(field, i)) {
        return invalid_declaration(
            where + ": asdf separates fields with spaces only; " + describe_space(field, i, n) +
                " after " + quote(field.substr(0, i)) + " makes " + quote(field) +
                " one field, which asdf reads as " +
                (f == 0 ? "a tool name, so it ignores the line" : "one version") +
                "; put a space there",
            util::SourceLocation{kFile, line.number, column_of(line.text, field)});
      }
    }
  }
  return util::ok_status();
}

DeclarationSet read_version(const std::string& tool, std::string_view name,
                            std::string_view version, const Line& line) {
  // A full or partial version as asdf and mise write them: no operators, no ranges.
  static const std::regex kPartial(
      R"(v?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?)?)?)");
  const util::SourceLocation where{kFile, line.number, column_of(line.text, version)};
  const std::string source = std::string(kFile) + " " + std::string(name);
  const std::string value(version);
  // make_declaration words an alias or a non-version the same way for every file.
  DeclarationSet made = make_declaration(tool, value, source, where);
  if (std::regex_match(value, kPartial) || !made.refusals.empty()) {
    return made;
  }
  return DeclarationSet{{},
                        {invalid_declaration(source + " declares " + tool + " " + quote(value) +
                                                 "; .tool-versions takes versions such as "
                                                 "22.22.1 or 22, not ranges",
                                             where)}};
}

}  // namespace

DeclarationSet parse_tool_versions(std::string_view text) {
  DeclarationSet out;
  std::set<std::string_view> seen;  // the names whose first line has been read
  for (const Line& line : lines_of(text)) {
    const std::vector<std::string_view> fields =
        fields_of(line.text.substr(0, line.text.find('#')));
    if (fields.empty()) {
      continue;
    }
    if (auto read = check_misread(line, fields); !read) {
      util::append_refusals(out.refusals, read);
      continue;
    }
    const auto tool = tool_of(fields[0]);
    if (fields.size() < 2 || !tool || !seen.insert(fields[0]).second) {
      continue;  // asdf ignores a tool without a version, and every line after a tool's first
    }
    out.add(read_version(*tool, fields[0], fields[1], line));
  }
  return out;
}

}  // namespace reviewer::resolve
