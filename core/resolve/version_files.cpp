#include "core/resolve/version_files.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/resolve/safe_file.h"
#include "core/resolve/text_lines.h"
#include "core/semver/js_text.h"

namespace reviewer::resolve {
namespace {

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
  return tool == "node" ? make_node_spec_declaration(std::string(value), file,
                                                     util::SourceLocation{file, line, 1})
                        : make_declaration(tool, std::string(value), file,
                                           util::SourceLocation{file, line, 1});
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

// nvm looks a key up with `grep -E "(^| )KEY( |$)"` in the keys it has seen, so a "." in a later
// key matches any character of an earlier one; the other characters a key may hold here are
// literal in a regular expression.
bool nvm_finds_key(std::string_view later, std::string_view earlier) {
  return later.size() == earlier.size() &&
         std::equal(later.begin(), later.end(), earlier.begin(),
                    [](char l, char e) { return l == '.' || l == e; });
}

}  // namespace

DeclarationSet parse_nvmrc(std::string_view text) {
  const std::string file = ".nvmrc";
  DeclarationSet out;
  std::vector<std::pair<std::string_view, Line>> versions;
  std::vector<std::pair<std::string_view, std::uint32_t>> keys;  // with their line numbers
  for (const Line& line : lines_of(text)) {
    const std::string_view content = js::trim(line.text.substr(0, line.text.find('#')));
    if (content.empty()) {
      continue;
    }
    std::string_view key;
    if (is_key_value(content, key)) {
      const std::string what = file + " line " + std::to_string(line.number) + " " + quote(content);
      const util::SourceLocation where{file, line.number, column_of(line.text, content)};
      const auto earlier = std::find_if(keys.begin(), keys.end(),
                                        [&](const auto& k) { return nvm_finds_key(key, k.first); });
      if (key == "node") {
        out.refusals.push_back(invalid_declaration(
            what + " uses the reserved key \"node\"; write the version on a line of its own",
            where));
      } else if (earlier != keys.end()) {
        out.refusals.push_back(invalid_declaration(
            what + " repeats the key " + quote(earlier->first) + " of line " +
                std::to_string(earlier->second) + "; nvm requires distinct keys",
            where));
      }
      keys.emplace_back(key, line.number);
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
  return make_node_spec_declaration(
      std::string(value), file,
      util::SourceLocation{file, line.number, column_of(line.text, value)});
}

DeclarationSet parse_node_version(std::string_view text) {
  return parse_single_line(text, ".node-version", "node");
}

DeclarationSet parse_bun_version(std::string_view text) {
  return parse_single_line(text, ".bun-version", "bun");
}

}  // namespace reviewer::resolve
