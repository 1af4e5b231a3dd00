// plan_npm_fetch: from a worktree's lock file to the list of tarballs, or every refusal.
#include <fcntl.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "core/deps/berry_lock.h"
#include "core/deps/bun_lock.h"
#include "core/deps/fetch.h"
#include "core/deps/integrity.h"
#include "core/deps/lock_match.h"
#include "core/deps/platform.h"
#include "core/deps/pnpm_lock.h"
#include "core/deps/specifier_match.h"
#include "core/deps/yarn_lock.h"
#include "core/deps/yarn_manifest.h"
#include "core/deps/yarn_source.h"
#include "core/util/file_read.h"
#include "core/util/text.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

// The worktree is the pull request's: a lock file that is a link to a host file, a FIFO or a
// giant is refused by name, never followed or read whole.
util::Result<std::optional<std::string>> read_project_file(int dir, const std::string& name,
                                                           std::size_t max_bytes,
                                                           const char* rule) {
  util::ReadLimits limits;
  limits.max_bytes = max_bytes;
  auto text = util::read_regular_file(dir, name, limits);
  if (text) {
    return std::optional<std::string>(std::move(*text));
  }
  if (util::file_fault(text.error()) == util::FileFault::kMissing) {
    return std::optional<std::string>();
  }
  return util::refusal(rule, name + ": " + text.error().message);
}

enum class Manager { kNpm, kPnpm, kBun, kYarn };

// Checks every entry a package manager would install here and adds its tarball to `list`; what
// is refused goes to `refusals`.
void add_entries(const std::vector<LockedPackage>& packages, const std::string& file,
                 Manager manager, const FetchOptions& options, FetchList& list,
                 util::Refusals& refusals) {
  list.entries += packages.size();
  for (const auto& p : packages) {
    if (p.in_bundle) {
      ++list.bundled;
      continue;
    }
    if (manager == Manager::kPnpm && registry_tarball_url(p, file, options.registry)) {
      list.pnpm_packages[p.name].insert(p.version);
    }
    if (p.optional && !installs_here(p)) {
      ++list.other_platform;
      continue;
    }
    const std::string what = file + ": \"" + p.path + "\"";
    // npm ci links these to folders of the checkout (a workspace, `file:.`) instead of
    // installing a tarball; the folder's own dependencies are entries of their own.
    if (manager == Manager::kNpm && p.link && inside_project(p.resolved)) {
      ++list.project_links;
      continue;
    }
    if (manager == Manager::kNpm && p.folder && inside_project(p.path)) {
      continue;
    }
    // A refused source is the one thing to fix; its integrity is not worth a second line.
    auto url = registry_tarball_url(p, file, options.registry);
    if (!url) {
      refusals.push_back(url.error());
      continue;
    }
    auto sha = sha512_of_integrity(p.integrity, what);
    if (!sha && manager == Manager::kYarn) {
      // yarn's own wording of the fix: npm's would send a yarn project to the wrong tool.
      refusals.push_back(util::refusal(
          "dependency-integrity-missing",
          what + " has no sha512 `integrity` (only the sha1 in its `resolved` URL's fragment, or " +
              "nothing); accepted: `integrity sha512-<base64>`, which yarn 1.10 and later record " +
              "(regenerate the lock with `yarn install`)"));
      continue;
    }
    if (!sha) {
      refusals.push_back(sha.error());
      continue;
    }
    Pinned* pinned = find_tarball(list, *sha, *url);
    if (pinned == nullptr) {
      list.tarballs.push_back({what, *url, *sha, "", ""});
      pinned = &list.tarballs.back();
    }
    if (manager == Manager::kPnpm) {
      pinned->registry_path = url->substr(options.registry.size());
    } else if (manager == Manager::kBun) {
      pinned->bun_dir = p.name + "@" + p.version + "@@@1";
    } else if (manager == Manager::kYarn) {
      pinned->yarn_mirror = yarn_mirror_name(*url);
    }
  }
}

// package.json beside `file`, or the refusal that says it is missing or unreadable.
util::Result<std::string> read_manifest(int dir, const std::string& file, const char* tool) {
  auto text = read_project_file(dir, "package.json", 1u << 20, "dependency-manifest-invalid");
  if (!text) {
    return text.refusals();
  }
  if (!*text) {
    return util::refusal("dependency-manifest-invalid",
                         file + " has no package.json beside it; " + tool + " needs both");
  }
  if (auto parsed = parse_manifest(**text); !parsed) {
    return parsed.refusals();
  }
  return std::move(**text);
}

}  // namespace

util::Result<std::optional<FetchList>> plan_npm_fetch(const std::string& worktree,
                                                      const FetchOptions& options) {
  util::UniqueFd dir = util::open_directory(AT_FDCWD, worktree.c_str());
  if (!dir.valid()) {
    return util::refusal("dependency-lock-invalid", "cannot open the worktree " + worktree);
  }
  return plan_npm_fetch_at(dir.get(), "", options);
}

util::Result<std::optional<FetchList>> plan_npm_fetch_at(int dir_fd, const std::string& prefix,
                                                         const FetchOptions& options) {
  util::UniqueFd dir(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
  if (!dir.valid()) {
    return util::refusal("dependency-lock-invalid", "cannot open the directory " + prefix);
  }
  std::string file = prefix + "npm-shrinkwrap.json";
  auto text = read_project_file(dir.get(), "npm-shrinkwrap.json", options.bounds.max_bytes,
                                "dependency-lock-invalid");
  if (text && !*text) {
    file = prefix + "package-lock.json";
    text = read_project_file(dir.get(), "package-lock.json", options.bounds.max_bytes,
                             "dependency-lock-invalid");
  }
  if (!text) {
    return text.refusals();
  }
  if (!*text) {
    return std::optional<FetchList>();
  }
  auto lock = parse_npm_lock(**text, file, options.bounds);
  if (!lock) {
    return lock.refusals();
  }
  auto manifest_text = read_manifest(dir.get(), file, "npm ci");
  if (!manifest_text) {
    return manifest_text.refusals();
  }
  auto manifest = parse_manifest(*manifest_text);
  util::Refusals refusals;
  if (auto match = check_lock_matches(*manifest, *lock); !match) {
    refusals = match.refusals();
  }
  FetchList list;
  list.lock_file = file;
  add_entries(lock->packages, file, Manager::kNpm, options, list, refusals);
  if (!refusals.empty()) {
    return refusals;
  }
  return std::optional<FetchList>(std::move(list));
}

namespace {

// The pnpm or Bun part of plan_fetch: nullopt without `file`.
util::Result<std::optional<FetchList>> plan_other(int dir, const std::string& file, Manager manager,
                                                  const FetchOptions& options) {
  auto text = read_project_file(dir, file, options.bounds.max_bytes, "dependency-lock-invalid");
  if (!text) {
    return text.refusals();
  }
  if (!*text) {
    return std::optional<FetchList>();
  }
  const bool pnpm = manager == Manager::kPnpm;
  const std::string tool = pnpm ? "pnpm install" : "bun install";
  std::vector<LockedPackage> packages;
  Specifiers locked;
  bool peers = false;
  if (pnpm) {
    auto lock = parse_pnpm_lock(**text, file, options.registry, options.bounds);
    if (!lock) {
      return lock.refusals();
    }
    packages = std::move(lock->packages);
    locked = std::move(lock->root);
    peers = lock->auto_install_peers;
  } else {
    auto lock = parse_bun_lock(**text, file, options.registry, options.bounds);
    if (!lock) {
      return lock.refusals();
    }
    packages = std::move(lock->packages);
    locked = std::move(lock->root);
  }
  auto manifest_text = read_manifest(dir, file, tool.c_str());
  if (!manifest_text) {
    return manifest_text.refusals();
  }
  auto manifest = manifest_specifiers(*manifest_text, peers);
  if (!manifest) {
    return manifest.refusals();
  }
  util::Refusals refusals;
  if (auto match = check_specifiers_match(*manifest, locked, file, tool); !match) {
    refusals = match.refusals();
  }
  FetchList list;
  list.lock_file = file;
  add_entries(packages, file, manager, options, list, refusals);
  if (!refusals.empty()) {
    return refusals;
  }
  return std::optional<FetchList>(std::move(list));
}

// Adds `part` to `into`, one tarball per distinct URL and integrity.
void merge(FetchList& into, FetchList&& part) {
  into.lock_file += (into.lock_file.empty() ? "" : ", ") + part.lock_file;
  into.entries += part.entries;
  into.other_platform += part.other_platform;
  into.project_links += part.project_links;
  into.bundled += part.bundled;
  for (auto& t : part.tarballs) {
    Pinned* same = find_tarball(into, t.sha512, t.url);
    if (same == nullptr) {
      into.tarballs.push_back(std::move(t));
      continue;
    }
    if (!t.registry_path.empty()) {
      same->registry_path = t.registry_path;
    }
    if (!t.bun_dir.empty()) {
      same->bun_dir = t.bun_dir;
    }
    if (!t.yarn_mirror.empty()) {
      same->yarn_mirror = t.yarn_mirror;
    }
  }
  into.yarn = into.yarn || part.yarn;
  for (auto& u : part.unpinned) {
    into.unpinned.push_back(std::move(u));
  }
  for (auto& [name, versions] : part.pnpm_packages) {
    into.pnpm_packages[name].merge(versions);
  }
}

// Two tarballs yarn's offline mirror would name alike: the mirror holds one file a name, so
// yarn would verify one of them against the other's integrity.
util::Status check_mirror_names(const FetchList& list, const std::string& file) {
  std::map<std::string, const Pinned*> seen;
  util::Refusals out;
  for (const auto& t : list.tarballs) {
    if (t.yarn_mirror.empty()) {
      continue;
    }
    auto [it, fresh] = seen.emplace(t.yarn_mirror, &t);
    if (!fresh && it->second->sha512 != t.sha512) {
      out.push_back(util::refusal("dependency-lock-invalid",
                                  file + " pins two tarballs yarn's offline mirror names \"" +
                                      t.yarn_mirror + "\" (" + it->second->url + " and " + t.url +
                                      ") with different integrities"));
    }
  }
  return util::status_of(std::move(out));
}

// .yarnrc.yml's `npmScopes` sends a scope's packages to a registry of its own, which the
// launcher's registry setting does not reach: their installs would fail offline.
util::Status check_yarnrc_scopes(int dir) {
  auto text = read_project_file(dir, ".yarnrc.yml", 1u << 20, "dependency-lock-invalid");
  if (!text) {
    return text.refusals();
  }
  if (!*text) {
    return util::ok_status();
  }
  for (std::size_t at = 0; at < (*text)->size();) {
    std::size_t end = (*text)->find('\n', at);
    end = end == std::string::npos ? (*text)->size() : end;
    if (std::string_view(**text).substr(at, end - at).starts_with("npmScopes:")) {
      return util::refusal("dependency-source-refused",
                           ".yarnrc.yml sets `npmScopes`, which fetches a scope's packages from a "
                           "registry of its own; accepted: every package from the one registry "
                           "the review fetches from");
    }
    at = end + 1;
  }
  return util::ok_status();
}

// The yarn 2+ part of plan_fetch: the lock's npm packages, checked, left for the host to pin by
// the registry's integrity (deps/registry_integrity.h).
util::Result<std::optional<FetchList>> plan_berry(int dir, std::string_view text,
                                                  const FetchOptions& options) {
  const std::string file = "yarn.lock";
  auto lock = parse_berry_lock(text, file, options.bounds);
  if (!lock) {
    return lock.refusals();
  }
  auto manifest_text = read_manifest(dir, file, "yarn install");
  if (!manifest_text) {
    return manifest_text.refusals();
  }
  util::Refusals refusals;
  util::append_refusals(refusals, check_berry_manifest(*manifest_text, *lock));
  util::append_refusals(refusals, check_yarnrc_scopes(dir));
  FetchList list;
  list.lock_file = file;
  list.yarn = true;
  list.entries = lock->entries.size();
  std::set<std::string> npm_locked;
  for (const auto& e : lock->entries) {
    if (e.source == BerrySource::kNpm) {
      npm_locked.insert(e.name + "@" + e.version);
    }
  }
  for (const auto& e : lock->entries) {
    const std::string what = file + ": \"" + e.key + "\"";
    if (e.source == BerrySource::kWorkspace) {
      ++list.project_links;
      continue;
    }
    // yarn skips a package of unmet `conditions` and writes no checksum for it; one of unmet
    // conditions that has a checksum is one yarn fetches anyway (measured on reduxjs/redux-thunk:
    // fsevents@npm:2.3.3, the base of yarn's builtin fsevents patch, asked for on linux).
    const bool here = e.conditions.empty() || berry_conditions_met(e.conditions);
    if (!here && e.checksum.empty()) {
      ++list.other_platform;
      continue;
    }
    if (e.source == BerrySource::kPatch) {
      // yarn applies the patch to the registry package's own entry, offline.
      if (!npm_locked.contains(e.name + "@" + e.version)) {
        refusals.push_back(util::refusal(
            "dependency-lock-invalid",
            what + " patches " + e.name + "@" + e.version + ", which the lock does not pin"));
      }
      continue;
    }
    LockedPackage p;
    p.path = e.key;
    p.name = e.name;
    p.version = e.version;
    p.resolved = registry_tarball_of(options.registry, e.name, e.version);
    if (auto url = registry_tarball_url(p, file, options.registry); !url) {
      refusals.push_back(url.error());
      continue;
    }
    // yarn writes no checksum for the platform packages it may skip, this platform's included
    // (redux-thunk's @esbuild/linux-x64): the registry's integrity alone pins them, on CI as here.
    if (e.checksum.empty() && e.conditions.empty()) {
      refusals.push_back(util::refusal(
          "dependency-integrity-missing",
          what + " has no `checksum`, so yarn would install whatever archive it makes of the "
                 "download; accepted: the checksum yarn writes (`yarn install` with the default "
                 "checksumBehavior)"));
      continue;
    }
    list.unpinned.push_back({what, e.name, e.version});
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return std::optional<FetchList>(std::move(list));
}

// The yarn part of plan_fetch: nullopt without yarn.lock.
util::Result<std::optional<FetchList>> plan_yarn(int dir, const FetchOptions& options) {
  const std::string file = "yarn.lock";
  auto text = read_project_file(dir, file, options.bounds.max_bytes, "dependency-lock-invalid");
  if (!text) {
    return text.refusals();
  }
  if (!*text) {
    return std::optional<FetchList>();
  }
  if (is_berry_lock(**text)) {
    return plan_berry(dir, **text, options);
  }
  auto lock = parse_yarn_lock(**text, file, options.bounds);
  if (!lock) {
    return lock.refusals();
  }
  auto manifest_text = read_manifest(dir, file, "yarn install");
  if (!manifest_text) {
    return manifest_text.refusals();
  }
  util::Refusals refusals;
  util::append_refusals(refusals, check_yarn_manifest(*manifest_text, *lock));
  std::vector<LockedPackage> packages;
  for (const auto& entry : lock->entries) {
    auto p = yarn_package(entry, file, options.registry);
    if (!p) {
      util::append_refusals(refusals, p);
      continue;
    }
    packages.push_back(std::move(*p));
  }
  FetchList list;
  list.lock_file = file;
  list.yarn = true;
  add_entries(packages, file, Manager::kYarn, options, list, refusals);
  list.entries = lock->entries.size();
  util::append_refusals(refusals, check_mirror_names(list, file));
  if (!refusals.empty()) {
    return refusals;
  }
  return std::optional<FetchList>(std::move(list));
}

}  // namespace

namespace {

// `rel` (a project directory a job's steps run in) opened link by link below the worktree:
// invalid when a component is missing, a link or not a directory, as no step could have meant
// a directory out of the worktree.
util::UniqueFd open_below(int root, const std::string& rel) {
  util::UniqueFd dir(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  std::size_t at = 0;
  while (dir.valid() && at < rel.size()) {
    const std::size_t slash = rel.find('/', at);
    const std::string part = rel.substr(at, slash == std::string::npos ? slash : slash - at);
    at = slash == std::string::npos ? rel.size() : slash + 1;
    if (part.empty() || part == "." || part == "..") {
      return util::UniqueFd();
    }
    dir = util::open_directory(dir.get(), part.c_str());
  }
  return dir;
}

}  // namespace

util::Result<std::optional<FetchList>> plan_fetch(const std::string& worktree,
                                                  const FetchOptions& options,
                                                  const std::vector<std::string>& project_dirs) {
  util::UniqueFd dir = util::open_directory(AT_FDCWD, worktree.c_str());
  if (!dir.valid()) {
    return util::refusal("dependency-lock-invalid", "cannot open the worktree " + worktree);
  }
  util::Refusals refusals;
  std::optional<FetchList> out;
  auto take = [&](util::Result<std::optional<FetchList>> part) {
    if (!part) {
      refusals.insert(refusals.end(), part.refusals().begin(), part.refusals().end());
    } else if (*part) {
      if (!out) {
        out = FetchList{};
      }
      merge(*out, std::move(**part));
    }
  };
  take(plan_npm_fetch(worktree, options));
  // The npm locks of the directories the job's steps run in (`working-directory`): their
  // tarballs join the same npm cache, which npm reads by integrity whatever lock names them.
  for (const auto& rel : project_dirs) {
    if (util::UniqueFd sub = open_below(dir.get(), rel); sub.valid()) {
      take(plan_npm_fetch_at(sub.get(), rel + "/", options));
    }
  }
  take(plan_other(dir.get(), "pnpm-lock.yaml", Manager::kPnpm, options));
  take(plan_other(dir.get(), "bun.lock", Manager::kBun, options));
  take(plan_yarn(dir.get(), options));
  if (!refusals.empty()) {
    return refusals;
  }
  return out;
}

}  // namespace reviewer::deps
