// parse_bun_lock: Bun's text lock (JSONC) into the entries the fetch plan checks like npm's.
#include "core/deps/bun_lock.h"

#include <nlohmann/json.hpp>

#include "core/deps/json_fields.h"

#include "core/deps/package_source.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

using nlohmann::json;

util::Refusal invalid(const std::string& file, const std::string& why) {
  return util::refusal("dependency-lock-invalid", file + " " + why);
}

// A version as registries publish them: what follows the name in a registry entry. Anything
// else ("github:o/r#x", "file:../a", "https://h/a.tgz") is the entry's source.
bool registry_version(const std::string& v) {
  return !v.empty() && v.find(':') == std::string::npos && v.find('/') == std::string::npos;
}

}  // namespace

std::string without_trailing_commas(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t start = i++;
      while (i < text.size() && text[i] != '"') {
        i += text[i] == '\\' ? 2 : 1;
      }
      out.append(text.substr(start, std::min(i, text.size() - 1) - start + 1));
      continue;
    }
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      const bool line = text[i + 1] == '/';
      const std::size_t end = line ? text.find('\n', i) : text.find("*/", i + 2);
      const std::size_t stop = end == std::string_view::npos ? text.size() : end + (line ? 0 : 2);
      out.append(text.substr(i, stop - i));
      i = stop - 1;
      continue;
    }
    if (c == ',') {
      std::size_t j = i + 1;
      while (j < text.size() &&
             (text[j] == ' ' || text[j] == '\n' || text[j] == '\r' || text[j] == '\t')) {
        ++j;
      }
      if (j < text.size() && (text[j] == '}' || text[j] == ']')) {
        continue;
      }
    }
    out.push_back(c);
  }
  return out;
}

util::Result<BunLock> parse_bun_lock(std::string_view text, const std::string& file,
                                     const std::string& registry, const LockBounds& bounds) {
  if (text.size() > bounds.max_bytes) {
    return invalid(file, "is " + std::to_string(text.size()) + " bytes, over the " +
                             std::to_string(bounds.max_bytes) + "-byte bound");
  }
  const std::string plain = without_trailing_commas(text);
  if (auto st = check_json_bounds(plain, file, bounds, true); !st) {
    return st.refusals();
  }
  const json doc = json::parse(plain, nullptr, false, true);
  if (!doc.is_object()) {
    return invalid(file, "is not a JSON object");
  }
  auto version = doc.find("lockfileVersion");
  if (version == doc.end() || !version->is_number_integer() || version->get<int>() < 0 ||
      version->get<int>() > 1) {
    return util::refusal("dependency-lock-version",
                         file + " has lockfileVersion " +
                             (version == doc.end() ? std::string("(none)") : version->dump()) +
                             "; accepted: 0 or 1, the text lock of Bun 1.2 and later");
  }
  BunLock lock;
  lock.file = file;
  util::Refusals refusals;
  auto workspaces = doc.find("workspaces");
  if (workspaces == doc.end() || !workspaces->is_object() || !workspaces->contains("")) {
    return invalid(file, "has no `workspaces` object with the root workspace \"\"");
  }
  for (const auto& [path, ws] : workspaces->items()) {
    if (!path.empty()) {
      refusals.push_back(util::refusal(
          "dependency-source-refused",
          file + " has the workspace " + util::quote(path, '"') +
              "; accepted: a single project (workspace \"\"), whose packages all come from the "
              "registry"));
      continue;
    }
    if (!ws.is_object() || !read_string_map(ws, "dependencies", lock.root["dependencies"]) ||
        !read_string_map(ws, "devDependencies", lock.root["devDependencies"]) ||
        !read_string_map(ws, "optionalDependencies", lock.root["optionalDependencies"])) {
      return invalid(file, "workspace \"\" has a dependency field of the wrong type");
    }
  }
  auto packages = doc.find("packages");
  if (packages != doc.end() && !packages->is_object()) {
    return invalid(file, "field `packages` is not an object");
  }
  if (packages != doc.end() && packages->size() > bounds.max_packages) {
    return invalid(file, "has " + std::to_string(packages->size()) + " packages, over the " +
                             std::to_string(bounds.max_packages) + " bound");
  }
  const json none = json::object();
  for (const auto& [key, entry] : (packages != doc.end() ? *packages : none).items()) {
    if (!entry.is_array() || entry.empty() || !entry[0].is_string()) {
      return invalid(file, "package \"" + key + "\" is not a list starting with \"name@version\"");
    }
    LockedPackage p;
    p.path = key;
    const std::string spec = entry[0].get<std::string>();
    const auto at = spec.find('@', 1);
    p.name = spec.substr(0, at);
    const std::string rest = at == std::string::npos ? "" : spec.substr(at + 1);
    const json* meta = nullptr;
    if (registry_version(rest) && entry.size() >= 4 && entry[1].is_string() &&
        entry[3].is_string()) {
      // ["name@1.2.3", "registry or empty", {meta}, "sha512-..."]
      p.version = rest;
      const std::string from = entry[1].get<std::string>();
      p.resolved = registry_tarball_of(from.empty() ? registry : from, p.name, p.version);
      p.integrity = entry[3].get<std::string>();
      meta = &entry[2];
    } else {
      p.resolved = rest;
      p.link = rest.rfind("link:", 0) == 0;
      p.folder = rest.rfind("workspace:", 0) == 0 || rest.rfind("root:", 0) == 0;
      if (entry.size() >= 2) {
        meta = &entry[1];
      }
    }
    if (meta != nullptr && meta->is_object()) {
      if (!read_string_list(*meta, "os", p.os, true) ||
          !read_string_list(*meta, "cpu", p.cpu, true) ||
          !read_string_list(*meta, "libc", p.libc, true)) {
        return invalid(file, "package \"" + key + "\" has a platform field of the wrong type");
      }
    }
    p.optional = !p.os.empty() || !p.cpu.empty() || !p.libc.empty();
    lock.packages.push_back(std::move(p));
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return lock;
}

}  // namespace reviewer::deps
