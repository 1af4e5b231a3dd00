#include "core/resolve/setup_bun_version_file.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/resolve/declaration.h"
#include "core/resolve/package_json.h"
#include "core/resolve/safe_file.h"
#include "core/semver/js_text.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

// FILE_VERSION_READERS' keys.
constexpr std::array<std::string_view, 4> kReadable = {"package.json", ".tool-versions", ".bumrc",
                                                       ".bun-version"};

// What setup-bun does when it cannot read a version from the file.
constexpr std::string_view kFallsBack =
    "oven-sh/setup-bun warns and installs another bun (package.json's, or the latest)";

FileVersion trimmed(std::string_view text, std::string_view value, const std::string& path) {
  const std::string_view v = js::trim(value);
  return {std::string(v),
          v.empty() ? util::SourceLocation{path} : location_in(text, v.data() - text.data(), path)};
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
  return {"", util::SourceLocation{path}};
}

const json* member(const json& v, const char* key) {
  if (!v.is_object()) {
    return nullptr;
  }
  const auto it = v.find(key);
  return it == v.end() ? nullptr : &*it;
}

// pkg.packageManager?.split("bun@")?.[1] ?? pkg.engines?.bun, then .trim().
util::Result<FileVersion> package_json(const std::string& text, const std::string& path,
                                       bool engines_bun) {
  const util::SourceLocation here{path};
  const std::string then = "; " + std::string(kFallsBack);
  if (text.starts_with("\xEF\xBB\xBF")) {
    return invalid_declaration(
        path + " begins with a byte-order mark, which JSON.parse rejects" + then, here);
  }
  auto doc = parse_json(text, path);
  if (!doc) {
    return invalid_declaration(doc.error().message + then, here);
  }
  if (doc->is_null()) {
    return invalid_declaration(path + " holds null, which the action's reader throws on" + then,
                               here);
  }
  std::optional<std::string> found;
  if (const json* pm = member(*doc, "packageManager"); pm != nullptr && !pm->is_null()) {
    if (!pm->is_string()) {
      return invalid_declaration(path + " packageManager is " + quote(pm->dump()) +
                                     ", not a string, which the action's reader throws on" + then,
                                 here);
    }
    auto parts = js::split(pm->get_ref<const std::string&>(), "bun@");
    if (parts.size() > 1) {
      found = std::move(parts[1]);
    }
  }
  if (!found && engines_bun) {
    const json* engines = member(*doc, "engines");
    if (const json* bun = engines == nullptr ? nullptr : member(*engines, "bun");
        bun != nullptr && !bun->is_null()) {
      if (!bun->is_string()) {
        return invalid_declaration(path + " engines.bun is " + quote(bun->dump()) +
                                       ", not a string, which the action's reader throws on" + then,
                                   here);
      }
      found = bun->get<std::string>();
    }
  }
  return FileVersion{found ? std::string(js::trim(*found)) : std::string(), here};
}

}  // namespace

util::Result<FileVersion> read_setup_bun_version_file(const NamedFile& file, bool engines_bun,
                                                      const RepositoryReader& read) {
  const std::string what = "'" + file.input + "' " + quote(file.path);
  const std::string_view base = base_name(file.path);
  if (std::find(kReadable.begin(), kReadable.end(), base) == kReadable.end()) {
    return util::refusal("version-file-unsupported",
                         what +
                             " is not a file oven-sh/setup-bun reads a version from "
                             "(package.json, .tool-versions, .bumrc or .bun-version); it would "
                             "ignore it, warn, and install another bun (package.json's, or the "
                             "latest)",
                         file.location);
  }
  auto path = resolve_in_workspace("", file.path, what, file.location);
  if (!path) {
    return path.refusals();
  }
  auto text = read_version_file(read, *path, "'" + file.input + "'", file.location,
                                std::string(kFallsBack) + " (\"File ... not found\")");
  if (!text) {
    return text.refusals();
  }
  if (base == "package.json") {
    return package_json(*text, *path, engines_bun);
  }
  if (base == ".tool-versions") {
    return tool_versions(*text, *path);
  }
  return trimmed(*text, *text, *path);
}

}  // namespace reviewer::resolve
