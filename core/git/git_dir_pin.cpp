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

}  // namespace

GitDirPin pin_git_dir(const std::string& worktree) {
  GitDirPin pin;
  util::UniqueFd git(
      ::open(git_dir_of(worktree).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!git.valid()) {
    return pin;
  }
  pin.top_level = names_in(git.get());
  util::UniqueFd info = util::open_directory(git.get(), "info");
  if (info.valid()) {
    for (const auto& name : names_in(info.get())) {
      pin.info[name] = fingerprint(info.get(), name);
    }
  }
  return pin;
}

report::Refusals check_git_dir(const std::string& worktree, const GitDirPin& pin) {
  report::Refusals out;
  const GitDirPin now = pin_git_dir(worktree);
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
  for (const auto& name : now.top_level) {
    if (!pin.top_level.contains(name) && !kOwnGuard.contains(name)) {
      refuse(name, "was created after the first job");
    }
  }
  return out;
}

std::string special_file(const std::string& worktree) {
  util::UniqueFd git(
      ::open(git_dir_of(worktree).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!git.valid()) {
    return {};
  }
  auto special = [](int dir, const std::string& name) {
    struct stat st {};
    return ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode) &&
           !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode);
  };
  for (const auto& name : names_in(git.get())) {
    if (special(git.get(), name)) {
      return ".git/" + name;
    }
  }
  util::UniqueFd info = util::open_directory(git.get(), "info");
  if (info.valid()) {
    for (const auto& name : names_in(info.get())) {
      if (special(info.get(), name)) {
        return ".git/info/" + name;
      }
    }
  }
  return {};
}

}  // namespace reviewer::git::detail
