// parse_pnpm_lock: pnpm-lock.yaml (v6, v9) through the bounded YAML loader, into the entries the
// fetch plan checks like npm's.
#include "core/deps/pnpm_lock.h"

#include "core/deps/lock_yaml.h"
#include "core/deps/package_source.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

using yaml::Node;

util::Refusal invalid(const std::string& file, const std::string& why) {
  return util::refusal("dependency-lock-invalid", file + " " + why);
}

std::string scalar_of(const Node* n) { return n != nullptr && n->is_scalar() ? n->scalar : ""; }

const char* const kGroups[] = {"dependencies", "devDependencies", "optionalDependencies"};

// One importer's groups: `name: {specifier, version}` in v6 (with importers or at the top) and
// v9. A version pnpm links from a folder is a source the review cannot fetch.
util::Status read_importer(const Node& importer, const std::string& file, Specifiers& out) {
  util::Refusals refusals;
  for (const char* group : kGroups) {
    const Node* deps = importer.find(group);
    if (deps == nullptr) {
      continue;
    }
    if (!deps->is_mapping()) {
      return invalid(file, std::string("importer field `") + group + "` is not a mapping");
    }
    for (const auto& [k, v] : deps->entries) {
      const std::string version = scalar_of(v.find("version"));
      if (!v.is_mapping() || v.find("specifier") == nullptr || version.empty()) {
        return invalid(file, "importer dependency \"" + k.scalar +
                                 "\" has no `specifier` and `version` (pnpm 8 or later writes "
                                 "both)");
      }
      if (version.rfind("link:", 0) == 0 || version.rfind("file:", 0) == 0) {
        refusals.push_back(util::refusal(
            "dependency-source-refused",
            file + " pins \"" + k.scalar + "\" to the folder " + util::quote(version, '"') +
                "; accepted: a tarball of the registry with a sha512 integrity"));
      }
      out[group][k.scalar] = scalar_of(v.find("specifier"));
    }
  }
  return util::status_of(std::move(refusals));
}

// "name@1.2.3" (v9) or "/name@1.2.3(peer@1)" / "/name/1.2.3" (v6) -> name and version; false
// for a key of another shape (a git or tarball key, which the resolution then names).
bool split_key(std::string key, std::string& name, std::string& version) {
  if (!key.empty() && key[0] == '/') {
    key.erase(0, 1);
  }
  key = key.substr(0, key.find('('));
  auto at = key.find('@', 1);
  if (at == std::string::npos || at + 1 >= key.size()) {
    return false;
  }
  name = key.substr(0, at);
  version = key.substr(at + 1);
  return version.find(':') == std::string::npos && version.find('/') == std::string::npos;
}

bool read_list(const Node* n, std::vector<std::string>& out) {
  if (n == nullptr) {
    return true;
  }
  if (!n->is_sequence()) {
    return false;
  }
  for (const auto& item : n->items) {
    if (!item.is_scalar()) {
      return false;
    }
    out.push_back(item.scalar);
  }
  return true;
}

// The URL pnpm fetches `p` from, by its `resolution`; see PnpmLock::packages.
bool read_resolution(const Node& entry, const std::string& registry, LockedPackage& p) {
  const Node* res = entry.find("resolution");
  if (res == nullptr || !res->is_mapping()) {
    return false;
  }
  p.integrity = scalar_of(res->find("integrity"));
  const std::string type = scalar_of(res->find("type"));
  if (type == "git") {
    p.resolved = "git+" + scalar_of(res->find("repo")) + "#" + scalar_of(res->find("commit"));
  } else if (type == "directory" || res->find("directory") != nullptr) {
    p.link = true;
    p.resolved = "file:" + scalar_of(res->find("directory"));
  } else if (const Node* tarball = res->find("tarball")) {
    p.resolved = scalar_of(tarball);
  } else if (!type.empty()) {
    p.resolved = type + ":";  // a resolution kind pnpm added later; refused as a source
  } else if (!p.name.empty() && !p.version.empty()) {
    p.resolved = registry_tarball_of(registry, p.name, p.version);
  }
  return true;
}

}  // namespace

util::Result<PnpmLock> parse_pnpm_lock(std::string_view text, const std::string& file,
                                       const std::string& registry, const LockBounds& bounds) {
  auto doc = load_lock_yaml(text, file, bounds, "pnpm");
  if (!doc) {
    return doc.refusals();
  }
  PnpmLock lock;
  lock.file = file;
  lock.version = scalar_of(doc->find("lockfileVersion"));
  const bool v6 = lock.version.rfind("6.", 0) == 0;
  const bool v9 = lock.version.rfind("9.", 0) == 0;
  if (!v6 && !v9) {
    return util::refusal("dependency-lock-version",
                         file + " has lockfileVersion " + util::quote(lock.version, '"') +
                             "; accepted: 6.x (pnpm 8) or 9.x (pnpm 9 and 10)");
  }
  if (const Node* settings = doc->find("settings")) {
    lock.auto_install_peers = scalar_of(settings->find("autoInstallPeers")) != "false";
  }
  util::Refusals refusals;
  if (const Node* importers = doc->find("importers")) {
    if (!importers->is_mapping()) {
      return invalid(file, "field `importers` is not a mapping");
    }
    for (const auto& [k, v] : importers->entries) {
      if (k.scalar != ".") {
        refusals.push_back(util::refusal(
            "dependency-source-refused",
            file + " has the workspace importer " + util::quote(k.scalar, '"') +
                "; accepted: a single project (importer \".\"), whose packages all come from "
                "the registry"));
        continue;
      }
      if (auto st = read_importer(v, file, lock.root); !st) {
        refusals.insert(refusals.end(), st.refusals().begin(), st.refusals().end());
      }
    }
  } else if (auto st = read_importer(*doc, file, lock.root); !st) {
    refusals = st.refusals();
  }
  // v9 keeps `optional` on the snapshots (one per peer set); a package is optional only when
  // every snapshot of it is.
  std::map<std::string, bool> optional;
  if (const Node* snapshots = doc->find("snapshots");
      snapshots != nullptr && snapshots->is_mapping()) {
    for (const auto& [k, v] : snapshots->entries) {
      const std::string key = k.scalar.substr(0, k.scalar.find('('));
      const bool opt = scalar_of(v.find("optional")) == "true";
      auto [it, fresh] = optional.emplace(key, opt);
      if (!fresh) {
        it->second = it->second && opt;
      }
    }
  }
  const Node* packages = doc->find("packages");
  if (packages != nullptr && !packages->is_mapping()) {
    return invalid(file, "field `packages` is not a mapping");
  }
  if (packages != nullptr && packages->entries.size() > bounds.max_packages) {
    return invalid(file, "has " + std::to_string(packages->entries.size()) +
                             " packages, over the " + std::to_string(bounds.max_packages) +
                             " bound");
  }
  for (const auto& [k, v] : packages != nullptr ? packages->entries : decltype(Node::entries){}) {
    LockedPackage p;
    p.path = k.scalar;
    if (!v.is_mapping()) {
      return invalid(file, "package \"" + k.scalar + "\" is not a mapping");
    }
    if (!split_key(k.scalar, p.name, p.version)) {
      p.name = scalar_of(v.find("name"));
      p.version = scalar_of(v.find("version"));
    }
    if (!read_resolution(v, registry, p) || !read_list(v.find("os"), p.os) ||
        !read_list(v.find("cpu"), p.cpu) || !read_list(v.find("libc"), p.libc)) {
      return invalid(file, "package \"" + k.scalar +
                               "\" has no `resolution` mapping or a "
                               "platform field that is not a list");
    }
    auto opt = optional.find(k.scalar.substr(0, k.scalar.find('(')));
    p.optional = scalar_of(v.find("optional")) == "true" || (opt != optional.end() && opt->second);
    lock.packages.push_back(std::move(p));
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return lock;
}

}  // namespace reviewer::deps
