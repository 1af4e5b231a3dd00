#include "bun_version_file.h"

#include <reviewer/sdk/js_text.hpp>

#include <algorithm>
#include <array>
#include <optional>

#include "../json-common/parse_json.h"

namespace setup_bun {
namespace {

namespace js = reviewer::sdk::js;
using json_common::member;
using nlohmann::json;
using reviewer::sdk::FileResult;
using reviewer::sdk::FileVersion;
using reviewer::sdk::in_quotes;
using reviewer::sdk::invalid_declaration;
using reviewer::sdk::Place;

// FILE_VERSION_READERS' keys.
constexpr std::array<std::string_view, 4> kReadable = {"package.json", ".tool-versions", ".bumrc",
                                                       ".bun-version"};

// What setup-bun does when it cannot read a version from the file.
constexpr std::string_view kFallsBack =
    "oven-sh/setup-bun warns and installs another bun (package.json's, or the latest)";

FileVersion trimmed(std::string_view text, std::string_view value, const std::string& path) {
  const std::string_view v = js::trim(value);
  return {std::string(v), v.empty()
                              ? Place{path}
                              : reviewer::sdk::location_in(
                                    text, static_cast<std::size_t>(v.data() - text.data()), path)};
}

// /^bun\s*(?<version>.*?)$/m: at the first line beginning with "bun", the white space after it
// (which may run over line ends) and then everything up to the next line end.
FileVersion tool_versions(std::string_view text, const std::string& path) {
  for (std::size_t p = 0; p <= text.size();) {
    if (text.substr(p).starts_with("bun")) {
      std::size_t q = p + 3;
      while (const std::size_t n = js::whitespace_at(text, q)) {
        q += n;
      }
      std::size_t end = q;
      while (!js::at_line_end(text, end)) {
        ++end;
      }
      return trimmed(text, text.substr(q, end - q), path);
    }
    const auto next = js::next_line_start(text, p);
    if (!next) {
      break;
    }
    p = *next;
  }
  return {"", Place{path}};
}

// pkg.packageManager?.split("bun@")?.[1] ?? pkg.engines?.bun, then .trim().
FileResult<FileVersion> package_json(const std::string& text, const std::string& path,
                                     bool engines_bun) {
  const Place here{path};
  const std::string then = "; " + std::string(kFallsBack);
  if (text.starts_with("\xEF\xBB\xBF")) {
    return invalid_declaration(
        path + " begins with a byte-order mark, which JSON.parse rejects" + then, here);
  }
  auto doc = json_common::parse_json(text, path);
  if (!doc) {
    return invalid_declaration(doc.refusal().message + then, here);
  }
  if (doc->is_null()) {
    return invalid_declaration(path + " holds null, which the action's reader throws on" + then,
                               here);
  }
  std::optional<std::string> found;
  if (const json* pm = member(&*doc, "packageManager"); pm != nullptr && !pm->is_null()) {
    if (!pm->is_string()) {
      return invalid_declaration(path + " packageManager is " + in_quotes(pm->dump()) +
                                     ", not a string, which the action's reader throws on" + then,
                                 here);
    }
    auto parts = js::split(pm->get_ref<const std::string&>(), "bun@");
    if (parts.size() > 1) {
      found = std::move(parts[1]);
    }
  }
  if (!found && engines_bun) {
    if (const json* bun = member(member(&*doc, "engines"), "bun");
        bun != nullptr && !bun->is_null()) {
      if (!bun->is_string()) {
        return invalid_declaration(path + " engines.bun is " + in_quotes(bun->dump()) +
                                       ", not a string, which the action's reader throws on" + then,
                                   here);
      }
      found = bun->get<std::string>();
    }
  }
  return FileVersion{found ? std::string(js::trim(*found)) : std::string(), here};
}

}  // namespace

FileResult<FileVersion> read_bun_version_file(const reviewer::sdk::NamedFile& file,
                                              bool engines_bun,
                                              const reviewer::sdk::RepositoryReader& read) {
  const std::string what = "'" + file.input + "' " + in_quotes(file.path);
  const std::string_view base = reviewer::sdk::base_name(file.path);
  if (std::find(kReadable.begin(), kReadable.end(), base) == kReadable.end()) {
    return reviewer::sdk::FileRefusal{"version-file-unsupported",
                                      what +
                                          " is not a file oven-sh/setup-bun reads a version from "
                                          "(package.json, .tool-versions, .bumrc or .bun-version); "
                                          "it would ignore it, warn, and install another bun "
                                          "(package.json's, or the latest)",
                                      file.where};
  }
  auto path = reviewer::sdk::resolve_in_workspace("", file.path, what, file.where);
  if (!path) {
    return path.refusal();
  }
  auto text =
      reviewer::sdk::read_version_file(read, *path, "'" + file.input + "'", file.where,
                                       std::string(kFallsBack) + " (\"File ... not found\")");
  if (!text) {
    return text.refusal();
  }
  if (base == "package.json") {
    return package_json(*text, *path, engines_bun);
  }
  if (base == ".tool-versions") {
    return tool_versions(*text, *path);
  }
  return trimmed(*text, *text, *path);
}

}  // namespace setup_bun
