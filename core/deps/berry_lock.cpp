// parse_berry_lock: yarn 2+'s yarn.lock through the bounded YAML loader, each block's resolution
// sorted into what the review can fetch (npm), what the project holds (workspace) and what yarn
// derives offline from a registry package (patch).
#include "core/deps/berry_lock.h"

#include <cstdlib>

#include "core/deps/lock_yaml.h"
#include "core/deps/package_source.h"
#include "core/deps/specifier_match.h"
#include "core/semver/version.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

using yaml::Node;

// yarn 2.0 wrote lock version 4; yarn 4.x writes 8 and later. A version past the newest this
// reader was measured with may change what a block means.
constexpr int kOldestVersion = 4;
constexpr int kNewestVersion = 10;

util::Refusal invalid(const std::string& file, const std::string& why) {
  return util::refusal("dependency-lock-invalid", file + " " + why);
}

std::string scalar_of(const Node* n) { return n != nullptr && n->is_scalar() ? n->scalar : ""; }

bool exact_version(const std::string& v) {
  return !v.empty() && static_cast<bool>(semver::parse_version(v)) &&
         v.find(' ') == std::string::npos;
}

util::Refusal refused(const std::string& file, const BerryEntry& e, const std::string& why) {
  return util::refusal("dependency-source-refused",
                       file + ": \"" + e.key + "\" resolves to " + util::quote(e.resolution, '"') +
                           ", " + why +
                           "; accepted: `npm:` packages of the registry, `workspace:` folders "
                           "of the project, and yarn's patches of registry packages");
}

// Sorts `e` by its resolution; a refusal when the review cannot provide it.
util::Status classify(const std::string& file, BerryEntry& e) {
  const std::size_t at = e.resolution.find('@', 1);
  const std::size_t colon = at == std::string::npos ? at : e.resolution.find(':', at);
  if (colon == std::string::npos) {
    return invalid(file, "block \"" + e.key + "\" has the resolution " +
                             util::quote(e.resolution, '"') + ", not NAME@PROTOCOL:REFERENCE");
  }
  e.name = e.resolution.substr(0, at);
  const std::string protocol = e.resolution.substr(at + 1, colon - at);
  const std::string reference = e.resolution.substr(colon + 1);
  if (protocol == "npm:") {
    if (reference.find("::") != std::string::npos) {
      // `::__archiveUrl=` names a download other than the registry's conventional tarball.
      return refused(file, e, "a package with its own archive URL");
    }
    if (!exact_version(reference)) {
      return invalid(file, "block \"" + e.key + "\" resolves to " + util::quote(e.resolution, '"') +
                               ", not an exact npm version");
    }
    e.source = BerrySource::kNpm;
    e.version = reference;
    return util::ok_status();
  }
  if (protocol == "workspace:") {
    if (reference.empty() || !inside_project(reference)) {
      return refused(file, e, "a workspace outside the project");
    }
    e.source = BerrySource::kWorkspace;
    return util::ok_status();
  }
  if (protocol == "patch:") {
    // "typescript@npm%3A5.8.2#optional!builtin<compat/typescript>::version=5.8.2&hash=8c6c40":
    // the patched package, its colon escaped, then the patch.
    const std::string base = e.name + "@npm%3A";
    const std::size_t hash = reference.find('#');
    const std::string inner = reference.substr(0, hash);
    if (hash == std::string::npos || !inner.starts_with(base) ||
        !exact_version(inner.substr(base.size()))) {
      return refused(file, e, "a patch of something other than a registry package's exact version");
    }
    e.source = BerrySource::kPatch;
    e.version = inner.substr(base.size());
    return util::ok_status();
  }
  return refused(file, e, "a `" + protocol + "` source the sandbox cannot reach");
}

util::Status read_root(const Node& block, const std::string& file, BerryLock& lock) {
  lock.has_root = true;
  const Node* deps = block.find("dependencies");
  if (deps == nullptr) {
    return util::ok_status();
  }
  if (!deps->is_mapping()) {
    return invalid(file, "root workspace field `dependencies` is not a mapping");
  }
  for (const auto& [k, v] : deps->entries) {
    if (!v.is_scalar()) {
      return invalid(file, "root workspace dependency \"" + k.scalar + "\" is not a string");
    }
    lock.root[k.scalar] = v.scalar;
  }
  return util::ok_status();
}

}  // namespace

bool is_berry_lock(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == std::string_view::npos ? end : end - at);
    if (line.starts_with("__metadata:")) {
      return true;
    }
    if (end == std::string_view::npos) {
      break;
    }
    at = end + 1;
  }
  return false;
}

util::Result<BerryLock> parse_berry_lock(std::string_view text, const std::string& file,
                                         const LockBounds& bounds) {
  auto doc = load_lock_yaml(text, file, bounds, "yarn");
  if (!doc) {
    return doc.refusals();
  }
  const Node* meta = doc->find("__metadata");
  const std::string version = scalar_of(meta != nullptr ? meta->find("version") : nullptr);
  BerryLock lock;
  lock.file = file;
  lock.version = std::atoi(version.c_str());
  if (version.empty() || version.size() > 3 ||
      version.find_first_not_of("0123456789") != std::string::npos ||
      lock.version < kOldestVersion || lock.version > kNewestVersion) {
    return util::refusal("dependency-lock-version",
                         file + " has __metadata.version " + util::quote(version, '"') +
                             "; accepted: " + std::to_string(kOldestVersion) + " to " +
                             std::to_string(kNewestVersion) + " (yarn 2 to 4)");
  }
  if (doc->entries.size() > bounds.max_packages) {
    return invalid(file, "has " + std::to_string(doc->entries.size()) + " blocks, over the " +
                             std::to_string(bounds.max_packages) + " bound");
  }
  util::Refusals refusals;
  for (const auto& [k, v] : doc->entries) {
    if (k.scalar == "__metadata") {
      continue;
    }
    BerryEntry e;
    e.key = k.scalar;
    if (!v.is_mapping() || scalar_of(v.find("resolution")).empty()) {
      return invalid(file, "block \"" + k.scalar + "\" has no `resolution`");
    }
    e.resolution = scalar_of(v.find("resolution"));
    e.version = scalar_of(v.find("version"));
    e.checksum = scalar_of(v.find("checksum"));
    e.conditions = scalar_of(v.find("conditions"));
    if (auto st = classify(file, e); !st) {
      util::append_refusals(refusals, st);
      continue;
    }
    if (e.source == BerrySource::kWorkspace && e.resolution.ends_with("@workspace:.")) {
      if (auto st = read_root(v, file, lock); !st) {
        return st.refusals();
      }
    }
    lock.entries.push_back(std::move(e));
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return lock;
}

util::Status check_berry_manifest(std::string_view package_json, const BerryLock& lock) {
  if (!lock.has_root) {
    return invalid(lock.file, "has no block of the root workspace (\"NAME@workspace:.\")");
  }
  auto groups = manifest_specifiers(package_json, false);
  if (!groups) {
    return groups.refusals();
  }
  std::map<std::string, std::string> wanted;
  for (const auto& [group, specs] : *groups) {
    for (const auto& [name, range] : specs) {
      wanted[name] = range;
    }
  }
  util::Refusals out;
  auto mismatch = [&](const std::string& why) {
    out.push_back(util::refusal("dependency-lock-mismatch",
                                lock.file + " " + why +
                                    "; `yarn install --immutable` refuses it (run `yarn install` "
                                    "and commit the lock)"));
  };
  for (const auto& [name, range] : wanted) {
    auto it = lock.root.find(name);
    if (it == lock.root.end()) {
      mismatch("does not list package.json's dependency \"" + name + "\" (" + range +
               ") in the root workspace");
    } else if (it->second != range && it->second != "npm:" + range) {
      mismatch("locks the root workspace's \"" + name + "\" as " + util::quote(it->second, '"') +
               " where package.json asks for " + util::quote(range, '"'));
    }
  }
  for (const auto& [name, range] : lock.root) {
    if (!wanted.contains(name)) {
      mismatch("lists \"" + name + "\" (" + range +
               ") in the root workspace, which package.json does not declare");
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::deps
