// plan_npm_fetch: from a worktree's lock file to the list of tarballs, or every refusal.
#include <set>

#include "core/fetch/fetch.h"
#include "core/fetch/integrity.h"
#include "core/fetch/lock_match.h"
#include "core/fetch/platform.h"
#include "core/util/file_read.h"
#include "core/util/unique_fd.h"

namespace reviewer::fetch {
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
  if (text.error().rule == util::kFileMissing) {
    return std::optional<std::string>();
  }
  return util::refusal(rule, name + ": " + text.error().message);
}

}  // namespace

util::Result<std::optional<FetchList>> plan_npm_fetch(const std::string& worktree,
                                                      const FetchOptions& options) {
  util::UniqueFd dir = util::open_directory(AT_FDCWD, worktree.c_str());
  if (!dir.valid()) {
    return util::refusal("dependency-lock-invalid", "cannot open the worktree " + worktree);
  }
  std::string file = "npm-shrinkwrap.json";
  auto text =
      read_project_file(dir.get(), file, options.bounds.max_bytes, "dependency-lock-invalid");
  if (text && !*text) {
    file = "package-lock.json";
    text = read_project_file(dir.get(), file, options.bounds.max_bytes, "dependency-lock-invalid");
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
  auto manifest_text =
      read_project_file(dir.get(), "package.json", 1u << 20, "dependency-manifest-invalid");
  if (!manifest_text) {
    return manifest_text.refusals();
  }
  if (!*manifest_text) {
    return util::refusal("dependency-manifest-invalid",
                         file + " has no package.json beside it; npm ci needs both");
  }
  auto manifest = parse_manifest(**manifest_text);
  if (!manifest) {
    return manifest.refusals();
  }

  util::Refusals refusals;
  if (auto match = check_lock_matches(*manifest, *lock); !match) {
    refusals = match.refusals();
  }
  FetchList list;
  list.lock_file = file;
  list.entries = lock->packages.size();
  std::set<std::string> seen;
  for (const auto& p : lock->packages) {
    if (p.in_bundle) {
      ++list.bundled;
      continue;
    }
    if (p.optional && !installs_here(p)) {
      ++list.other_platform;
      continue;
    }
    const std::string what = file + ": \"" + p.path + "\"";
    // A refused source is the one thing to fix; its integrity is not worth a second line.
    auto url = registry_tarball_url(p, file, options.registry);
    if (!url) {
      refusals.push_back(url.error());
      continue;
    }
    auto sha = sha512_of_integrity(p.integrity, what);
    if (!sha) {
      refusals.push_back(sha.error());
      continue;
    }
    // One download per distinct URL and integrity: two entries that share an integrity but
    // name different URLs are each verified, so one cannot borrow the other's bytes.
    if (seen.insert(*sha + " " + *url).second) {
      list.tarballs.push_back({what, *url, *sha});
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return std::optional<FetchList>(std::move(list));
}

}  // namespace reviewer::fetch
