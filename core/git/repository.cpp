#include "core/git/repository.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/git/rules.h"

namespace reviewer::git::detail {
namespace {

// libgit2's search paths are process-wide; opening serialises on them.
std::mutex& search_path_mutex() {
  static std::mutex m;
  return m;
}

bool set_search_path(git_config_level_t level, const std::string& path) {
  return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path.c_str()) == 0;
}

std::string trim_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') {
    p.pop_back();
  }
  return p;
}

}  // namespace

std::string git_dir_of(const std::string& worktree) { return trim_slashes(worktree) + "/.git"; }

util::Result<RepositoryPtr> open_worktree(const std::string& worktree, const std::string& home) {
  ensure_libgit2();
  const std::string rule(kRuleRepository);
  const std::string git_dir = git_dir_of(worktree);
  struct stat st {};
  if (::lstat(git_dir.c_str(), &st) != 0) {
    return util::refusal(rule, "'" + git_dir + "' is missing: " + std::strerror(errno) +
                                   "; expected the git directory of a fresh clone");
  }
  if (!S_ISDIR(st.st_mode)) {
    return util::refusal(rule, "'" + git_dir +
                                   "' is not a real directory (a symlink or a gitdir file); "
                                   "expected the git directory of a fresh clone");
  }

  std::lock_guard lock(search_path_mutex());
  // Nothing outside the job's fresh HOME: the host's /etc/gitconfig and ~/.gitconfig must not
  // decide what the review sees. An empty search path makes libgit2 find no file at that level.
  const std::string home_dir = home.empty() ? std::string() : trim_slashes(home);
  const std::string xdg_dir = home.empty() ? std::string() : home_dir + "/.config/git";
  if (!set_search_path(GIT_CONFIG_LEVEL_GLOBAL, home_dir) ||
      !set_search_path(GIT_CONFIG_LEVEL_XDG, xdg_dir) ||
      !set_search_path(GIT_CONFIG_LEVEL_SYSTEM, "") ||
      !set_search_path(GIT_CONFIG_LEVEL_PROGRAMDATA, "")) {
    return last_error(rule, "cannot confine the git configuration search paths");
  }

  git_repository* raw = nullptr;
  // The git directory itself, so a worktree root dressed up as a bare repository is never
  // opened instead; NO_SEARCH so no parent directory is consulted; no FROM_ENV, so GIT_DIR and
  // friends are ignored.
  if (git_repository_open_ext(&raw, git_dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return last_error(rule, "cannot open the repository at '" + git_dir + "'");
  }
  RepositoryPtr repo(raw);
  // Load the configuration now, while the search paths are ours; libgit2 caches it on the
  // repository.
  git_config* cfg = nullptr;
  if (git_repository_config(&cfg, repo.get()) != 0) {
    return last_error(rule, "cannot read the configuration of '" + git_dir + "'");
  }
  git_config_free(cfg);
  return repo;
}

util::Status check_repository_shape(git_repository* repo, const std::string& worktree) {
  const std::string git_dir = git_dir_of(worktree);
  if (git_repository_is_bare(repo)) {
    return util::refusal(
        std::string(kRuleRepository),
        "'" + git_dir + "' is a bare repository; expected a clone with a work tree",
        util::SourceLocation{git_dir, 0, 0});
  }
  const char* workdir = git_repository_workdir(repo);
  struct stat want {};
  struct stat got {};
  if (workdir == nullptr || ::stat(worktree.c_str(), &want) != 0 || ::stat(workdir, &got) != 0 ||
      want.st_dev != got.st_dev || want.st_ino != got.st_ino) {
    return util::refusal(std::string(kRuleRepository),
                         "the work tree of '" + git_dir + "' is not '" + worktree +
                             "' (a core.worktree or gitdir redirect); expected the clone's own",
                         util::SourceLocation{git_dir, 0, 0});
  }
  return util::ok_status();
}

}  // namespace reviewer::git::detail
