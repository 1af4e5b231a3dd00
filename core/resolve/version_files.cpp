#include "core/resolve/version_files.h"

#include <algorithm>
#include <regex>
#include <string>

#include "core/resolve/js_text.h"
#include "core/resolve/safe_file.h"

namespace reviewer::resolve {
namespace {

struct Line {
  std::string_view text;
  std::uint32_t number = 0;
};

// Lines without their terminators ("\n" or "\r\n").
std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> out;
  std::uint32_t number = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    out.push_back({line, ++number});
    if (nl == std::string_view::npos) {
      break;
    }
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::uint32_t column_of(std::string_view whole, std::string_view part) {
  return static_cast<std::uint32_t>(part.data() - whole.data()) + 1;
}

// .node-version and .bun-version: one trimmed line, nothing else.
DeclarationSet parse_single_line(std::string_view text, const std::string& file,
                                 const std::string& tool) {
  DeclarationSet out;
  const std::string_view value = js::trim(text);
  if (value.empty()) {
    out.refusals.push_back(invalid_declaration(file + " is empty; write one " + tool +
                                                   " version such as " +
                                                   (tool == "bun" ? "1.3.10" : "22.22.1"),
                                               util::SourceLocation{file}));
    return out;
  }
  if (value.find_first_of("\r\n") != std::string_view::npos) {
    out.refusals.push_back(
        invalid_declaration(file + " holds more than one line (" + quote(value) +
                                "); it must hold exactly one version and no comments",
                            util::SourceLocation{file, 1, 1}));
    return out;
  }
  const std::uint32_t line =
      static_cast<std::uint32_t>(std::count(text.data(), value.data(), '\n')) + 1;
  return make_declaration(tool, std::string(value), file, util::SourceLocation{file, line, 1});
}

// A bare `key=value` line of .nvmrc (nvm reserves them); an operator before `=` (`>=20`) makes
// it a range instead.
bool is_key_value(std::string_view line, std::string_view& key) {
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return false;
  }
  key = js::trim(line.substr(0, eq));
  return !key.empty() && key.find_first_not_of(
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789_-.") == std::string_view::npos;
}

}  // namespace

DeclarationSet parse_nvmrc(std::string_view text) {
  const std::string file = ".nvmrc";
  DeclarationSet out;
  std::vector<std::pair<std::string_view, Line>> versions;
  for (const Line& line : lines_of(text)) {
    const std::string_view content = js::trim(line.text.substr(0, line.text.find('#')));
    if (content.empty()) {
      continue;
    }
    std::string_view key;
    if (is_key_value(content, key)) {
      if (key == "node") {
        out.refusals.push_back(invalid_declaration(
            file + " line " + std::to_string(line.number) + " " + quote(content) +
                " uses the reserved key \"node\"; write the version on a line of its own",
            util::SourceLocation{file, line.number, column_of(line.text, content)}));
      }
      continue;
    }
    versions.emplace_back(content, line);
  }
  if (versions.empty()) {
    out.refusals.push_back(invalid_declaration(
        file + " holds no version; write one such as 22.22.1 or 22", util::SourceLocation{file}));
    return out;
  }
  if (versions.size() > 1) {
    out.refusals.push_back(invalid_declaration(
        file + " holds " + std::to_string(versions.size()) + " versions (" +
            quote(versions[0].first) + " and " + quote(versions[1].first) +
            "); nvm requires exactly one",
        util::SourceLocation{file, versions[1].second.number,
                             column_of(versions[1].second.text, versions[1].first)}));
    return out;
  }
  if (!out.refusals.empty()) {
    return out;
  }
  const auto& [value, line] = versions.front();
  return make_declaration("node", std::string(value), file,
                          util::SourceLocation{file, line.number, column_of(line.text, value)});
}

DeclarationSet parse_node_version(std::string_view text) {
  return parse_single_line(text, ".node-version", "node");
}

DeclarationSet parse_bun_version(std::string_view text) {
  return parse_single_line(text, ".bun-version", "bun");
}

DeclarationSet parse_tool_versions(std::string_view text) {
  const std::string file = ".tool-versions";
  // A full or partial version as asdf and mise write them: no operators, no ranges.
  static const std::regex kPartial(
      R"(v?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?)?)?)");
  DeclarationSet out;
  bool seen_node = false;
  bool seen_bun = false;
  for (const Line& line : lines_of(text)) {
    const std::string_view content = line.text.substr(0, line.text.find('#'));
    std::vector<std::string_view> fields;
    std::size_t i = 0;
    while (i < content.size()) {
      const std::size_t start = content.find_first_not_of(" \t", i);
      if (start == std::string_view::npos) {
        break;
      }
      const std::size_t end = std::min(content.find_first_of(" \t", start), content.size());
      fields.push_back(content.substr(start, end - start));
      i = end;
    }
    if (fields.size() < 2) {
      continue;  // asdf ignores a tool without a version
    }
    std::string tool;
    if ((fields[0] == "nodejs" || fields[0] == "node") && !seen_node) {
      tool = "node";
      seen_node = true;
    } else if (fields[0] == "bun" && !seen_bun) {
      tool = "bun";
      seen_bun = true;
    } else {
      continue;
    }
    const util::SourceLocation where{file, line.number, column_of(line.text, fields[1])};
    const std::string source = file + " " + std::string(fields[0]);
    std::vector<std::string> alternatives;
    bool ok = true;
    for (std::size_t f = 1; f < fields.size(); ++f) {
      const std::string value(fields[f]);
      if (!std::regex_match(value, kPartial)) {
        // make_declaration words the refusal (alias or not a version) the same way everywhere.
        DeclarationSet bad = make_declaration(tool, value, source, where);
        if (bad.refusals.empty()) {
          bad.refusals.push_back(invalid_declaration(
              source + " declares " + tool + " " + quote(value) +
                  "; .tool-versions takes versions such as 22.22.1 or 22, not ranges",
              where));
        }
        out.add(DeclarationSet{{}, bad.refusals});
        ok = false;
      }
      alternatives.push_back(value);
    }
    if (!ok) {
      continue;
    }
    const std::string joined = js::join(alternatives, " ");
    DeclarationSet made = make_declaration(tool, js::join(alternatives, " || "), source, where);
    for (auto& d : made.declarations) {
      d.value = joined;
    }
    out.add(made);
  }
  return out;
}

}  // namespace reviewer::resolve
