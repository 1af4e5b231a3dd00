#include "core/resolve/declarations.h"

#include "core/resolve/package_json.h"
#include "core/resolve/safe_file.h"
#include "core/resolve/tool_versions.h"
#include "core/resolve/version_files.h"

namespace reviewer::resolve {
namespace {

struct Reader {
  const char* name;
  std::size_t max_bytes;
  DeclarationSet (*parse)(std::string_view);
};

constexpr Reader kReaders[] = {
    {"package.json", kMaxPackageJsonBytes, parse_package_json},
    {".nvmrc", kMaxVersionFileBytes, parse_nvmrc},
    {".node-version", kMaxVersionFileBytes, parse_node_version},
    {".bun-version", kMaxVersionFileBytes, parse_bun_version},
    {".tool-versions", kMaxVersionFileBytes, parse_tool_versions},
};

}  // namespace

DeclarationSet read_declarations(const std::string& worktree) {
  DeclarationSet out;
  auto dir = open_worktree(worktree);
  if (!dir) {
    out.refusals.push_back(invalid_declaration(dir.error().message, util::SourceLocation{"."}));
    return out;
  }
  for (const Reader& reader : kReaders) {
    auto text = read_worktree_file(dir->get(), reader.name, reader.max_bytes);
    if (!text) {
      out.refusals.push_back(
          invalid_declaration(text.error().message, util::SourceLocation{reader.name}));
    } else if (text->has_value()) {
      out.add(reader.parse(**text));
    }
  }
  return out;
}

DeclarationSet pin_declarations(const std::vector<Pin>& pins) {
  DeclarationSet out;
  for (const Pin& pin : pins) {
    const std::string what = pin.runner_default.empty() ? std::string("pin") : pin.runner_default;
    const std::string source =
        pin.location.file.empty() ? what : what + " at " + pin.location.to_string();
    if (pin.runtime != "node" && pin.runtime != "bun" && pin.runtime != "pnpm") {
      out.refusals.push_back(invalid_declaration(source + " pins runtime " + quote(pin.runtime) +
                                                     "; only node, bun and pnpm can be pinned",
                                                 pin.location));
      continue;
    }
    if (pin.runtime == "pnpm") {
      // pnpm comes from the dependency store, fetched by the host for this pin (an exact version,
      // or a range such as pnpm/setup's `version: 10`, resolved by the host at review time):
      // reported, it selects no image.
      DeclarationSet one = make_declaration("pnpm", pin.version, source, pin.location);
      for (auto& d : one.declarations) {
        d.constrains = false;
      }
      out.add(one);
      continue;
    }
    // An exact version pins exactly; a range (setup-node's `22.x`) selects the image whose
    // runtime satisfies it, as the action would take the newest release satisfying it.
    DeclarationSet one =
        semver::parse_version(pin.version)
            ? make_exact_declaration(pin.runtime, pin.version, source, pin.location)
        : pin.runtime == "node" ? make_node_spec_declaration(pin.version, source, pin.location)
                                : make_declaration(pin.runtime, pin.version, source, pin.location);
    for (auto& d : one.declarations) {
      d.runner_default = !pin.runner_default.empty();
      d.pinned = true;
    }
    out.add(one);
  }
  return out;
}

}  // namespace reviewer::resolve
