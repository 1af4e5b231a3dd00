#include "core/git/git_dir_pin.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/util/sha256.h"
#include "core/util/unique_fd.h"

namespace reviewer::git::detail {
namespace {

// Top-level names git writes that only name commits or hold a message (no later command reads
// them to decide content), and those a more specific guard already judges: config.worktree
// (the configuration baseline), commondir and gitdir (redirects), shallow (history shape),
// packed-refs (HEAD, remotes and tags are compared).
const std::set<std::string> kOwnGuard = {"FETCH_HEAD",      "ORIG_HEAD",  "COMMIT_EDITMSG",
                                         "config.worktree", "commondir",  "gitdir",
                                         "shallow",         "packed-refs"};

constexpr std::size_t kMaxNamedPaths = 20;

constexpr const char* kWhy =
    "; a job changed the clone's git directory, and on GitHub the next "
    "job gets a fresh clone";

// Names in the directory `dir` (no "." and "..").
std::set<std::string> names_in(int dir) {
  std::set<std::string> out;
  util::UniqueFd copy(::dup(dir));
  DIR* d = copy.valid() ? ::fdopendir(copy.get()) : nullptr;
  if (d == nullptr) {
    return out;
  }
  copy.release();
  ::rewinddir(d);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") {
      out.insert(name);
    }
  }
  ::closedir(d);
  return out;
}

// A regular file's SHA-256, or what else stands there ("(directory)", "(symlink)", ...).
std::string fingerprint(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return "(unreadable)";
  }
  if (S_ISLNK(st.st_mode)) {
    return "(symlink)";
  }
  if (S_ISDIR(st.st_mode)) {
    return "(directory)";
  }
  if (!S_ISREG(st.st_mode)) {
    return "(special file)";
  }
  util::UniqueFd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    return "(unreadable)";
  }
  auto hash = util::sha256_fd(fd.get(), name);
  return hash ? *hash : "(unreadable)";
}

constexpr int kMaxGitDirDepth = 32;

// Subtrees a more specific guard judges: git-hooks every entry of hooks/, history-shape every
// replace ref.
bool judged_elsewhere(const std::string& path) {
  return path == "hooks" || path.starts_with("hooks/") || path == "refs/replace" ||
         path.starts_with("refs/replace/");
}

bool is_special(const struct stat& st) {
  return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode);
}

// Every entry below `dir` into `pin` (paths under `prefix`), without following a link; `special`
// gets the first FIFO, socket or device seen.
void walk(int dir, const std::string& prefix, int depth, GitDirPin& pin, std::string& special) {
  for (const auto& name : names_in(dir)) {
    if (pin.entries.size() >= kMaxGitDirEntries) {
      pin.truncated = true;
      return;
    }
    const std::string path = prefix.empty() ? name : prefix + "/" + name;
    pin.entries.insert(path);
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      continue;
    }
    if (is_special(st) && special.empty()) {
      special = path;
    }
    if (!S_ISDIR(st.st_mode)) {
      continue;
    }
    if (depth >= kMaxGitDirDepth) {
      pin.truncated = true;
      continue;
    }
    util::UniqueFd sub = util::open_directory(dir, name.c_str());
    if (!sub.valid()) {
      pin.unreadable.push_back(path);
      continue;
    }
    walk(sub.get(), path, depth + 1, pin, special);
  }
}

// The pin, and the first special file seen (empty when there is none).
GitDirPin walk_git_dir(const std::string& worktree, std::string& special) {
  GitDirPin pin;
  util::UniqueFd git(
      ::open(git_dir_of(worktree).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!git.valid()) {
    return pin;
  }
  walk(git.get(), "", 1, pin, special);
  util::UniqueFd info = util::open_directory(git.get(), "info");
  if (info.valid()) {
    for (const auto& name : names_in(info.get())) {
      pin.info[name] = fingerprint(info.get(), name);
    }
  }
  return pin;
}

// `git-dir-changed` for the outermost new paths of `now` (a new directory stands for everything
// in it): those under objects/ when `objects`, the others otherwise. info/ is judged by content.
void new_paths(const GitDirPin& now, const GitDirPin& pin, bool objects, report::Refusals& out) {
  std::string new_dir;
  std::size_t named = 0;
  std::size_t more = 0;
  for (const auto& path : now.entries) {
    if (!new_dir.empty() && path.starts_with(new_dir + "/")) {
      continue;
    }
    const std::string top = path.substr(0, path.find('/'));
    if ((top == "objects") != objects || pin.entries.contains(path) || kOwnGuard.contains(top) ||
        top == "info" || judged_elsewhere(path)) {
      continue;
    }
    new_dir = path;
    if (named++ < kMaxNamedPaths) {
      out.push_back({std::string(kRuleGitDirChanged),
                     "'.git/" + path + "' was created after the first job" + kWhy,
                     util::SourceLocation{".git/" + path}});
    } else {
      ++more;
    }
  }
  if (more > 0) {
    out.push_back({std::string(kRuleGitDirChanged),
                   std::to_string(more) + " more paths were created below '.git/'" + kWhy,
                   std::nullopt});
  }
}

}  // namespace

GitDirPin pin_git_dir(const std::string& worktree) {
  std::string special;
  return walk_git_dir(worktree, special);
}

util::Status check_git_dir(const std::string& worktree, const GitDirPin& pin) {
  report::Refusals out;
  std::string special;
  const GitDirPin now = walk_git_dir(worktree, special);
  auto refuse = [&](const std::string& path, const std::string& what) {
    out.push_back({std::string(kRuleGitDirChanged), "'.git/" + path + "' " + what + kWhy,
                   util::SourceLocation{".git/" + path}});
  };
  for (const auto& [name, print] : now.info) {
    if (name == "grafts") {
      continue;  // history-shape refuses it, whatever the first job saw
    }
    auto was = pin.info.find(name);
    if (was == pin.info.end()) {
      refuse("info/" + name, "was created after the first job");
    } else if (was->second != print) {
      refuse("info/" + name, "was changed after the first job");
    }
  }
  for (const auto& [name, print] : pin.info) {
    if (!now.info.contains(name)) {
      refuse("info/" + name, "was removed after the first job");
    }
  }
  new_paths(now, pin, false, out);
  // One the first job already saw is not new, but libgit2 must not meet it either.
  if (!special.empty() && pin.entries.contains(special) && !judged_elsewhere(special)) {
    refuse(special, "is not a regular file");
  }
  for (const auto& path : now.unreadable) {
    refuse(path, "cannot be read");
  }
  if (now.truncated || pin.truncated) {
    out.push_back({std::string(kRuleGitDirChanged),
                   "'.git' holds more than " + std::to_string(kMaxGitDirEntries) +
                       " entries or is nested deeper than " + std::to_string(kMaxGitDirDepth) +
                       " levels, more than the guard compares; a checkout's clone "
                       "holds packs",
                   util::SourceLocation{".git"}});
  }
  return util::status_of(std::move(out));
}

util::Status check_git_objects(const std::string& worktree, const GitDirPin& pin) {
  report::Refusals out;
  std::string special;
  new_paths(walk_git_dir(worktree, special), pin, true, out);
  return util::status_of(std::move(out));
}

std::string special_file(const std::string& worktree) {
  std::string special;
  walk_git_dir(worktree, special);
  return special.empty() ? special : ".git/" + special;
}

}  // namespace reviewer::git::detail
