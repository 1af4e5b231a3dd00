#include "core/resolve/package_json.h"

#include <reviewer/sdk/json_depth.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/resolve/safe_file.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;
constexpr const char* kFile = "package.json";

util::SourceLocation here() { return util::SourceLocation{kFile}; }

using sdk::json_nesting_depth;

DeclarationSet read_engine(const json& engines, const char* tool) {
  DeclarationSet out;
  const auto it = engines.find(tool);
  if (it == engines.end()) {
    return out;
  }
  const std::string source = std::string(kFile) + " engines." + tool;
  if (!it->is_string()) {
    out.refusals.push_back(invalid_declaration(
        source + " is " + quote(it->dump()) + "; it must be a string holding a semver range",
        here()));
    return out;
  }
  return make_declaration(tool, it->get<std::string>(), source, here());
}

DeclarationSet read_package_manager(const json& value) {
  DeclarationSet out;
  const std::string source = std::string(kFile) + " packageManager";
  if (!value.is_string()) {
    out.refusals.push_back(invalid_declaration(
        source + " is " + quote(value.dump()) + "; it must be a string such as \"pnpm@9.1.0\"",
        here()));
    return out;
  }
  const std::string spec = value.get<std::string>();
  const std::size_t at = spec.find('@');
  const std::string name = at == std::string::npos ? spec : spec.substr(0, at);
  if (at == std::string::npos || name.empty()) {
    out.refusals.push_back(invalid_declaration(
        source + " is " + quote(spec) + "; expected NAME@VERSION such as \"pnpm@9.1.0\"", here()));
    return out;
  }
  if (name != "bun" && name != "pnpm" && name != "yarn" && name != "npm") {
    out.refusals.push_back(
        invalid_declaration(source + " names " + quote(name) + " in " + quote(spec) +
                                "; only npm, pnpm, yarn (Corepack) and bun are understood",
                            here()));
    return out;
  }
  DeclarationSet d = make_exact_declaration(name, spec.substr(at + 1), source, here());
  // npm@X installs nothing on CI unless a job enables corepack; pnpm@X comes from the dependency
  // store (the host fetches it for the job's pnpm/action-setup step), never from the image; so
  // does yarn: the runner's own yarn 1 runs a yarn@1.x project (the host fetches it for a
  // yarn.lock), which hands yarn 2 and later over to the project's `yarnPath` release.
  if (name == "npm" || name == "pnpm" || name == "yarn") {
    for (auto& decl : d.declarations) {
      decl.constrains = false;
    }
  }
  return d;
}

}  // namespace

util::Result<json> parse_json(std::string_view text, const std::string& file) {
  if (json_nesting_depth(text) > kMaxJsonDepth) {
    return invalid_declaration(
        file + " nests arrays or objects deeper than " + std::to_string(kMaxJsonDepth) + " levels",
        util::SourceLocation{file});
  }
  try {  // nlohmann reports where the JSON breaks only through its exception
    return json::parse(text);
  } catch (const json::exception& e) {
    return invalid_declaration(file + " is not valid JSON: " + e.what(),
                               util::SourceLocation{file});
  }
}

DeclarationSet parse_package_json(std::string_view text) {
  DeclarationSet out;
  auto parsed = parse_json(text, kFile);
  if (!parsed) {
    out.refusals.push_back(parsed.error());
    return out;
  }
  const json& doc = *parsed;
  if (!doc.is_object()) {
    out.refusals.push_back(invalid_declaration(
        std::string(kFile) + " must hold a JSON object, not " + doc.type_name(), here()));
    return out;
  }
  if (const auto pm = doc.find("packageManager"); pm != doc.end()) {
    out.add(read_package_manager(*pm));
  }
  if (const auto engines = doc.find("engines"); engines != doc.end()) {
    if (!engines->is_object()) {
      out.refusals.push_back(invalid_declaration(
          std::string(kFile) + " engines is " + quote(engines->dump()) + "; it must be an object",
          here()));
    } else {
      out.add(read_engine(*engines, "node"));
      out.add(read_engine(*engines, "bun"));
    }
  }
  return out;
}

}  // namespace reviewer::resolve
