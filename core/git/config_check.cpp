#include "core/git/config_check.h"

#include <sys/stat.h>

#include <set>

#include "core/git/config_allowlist.h"
#include "core/git/rules.h"

namespace reviewer::git::detail {
namespace {

std::string level_file(git_config_level_t level, const std::string& worktree,
                       const std::string& home) {
  switch (level) {
    case GIT_CONFIG_LEVEL_LOCAL:
      return git_dir_of(worktree) + "/config";
    case GIT_CONFIG_LEVEL_GLOBAL:
      return home + "/.gitconfig";
    case GIT_CONFIG_LEVEL_XDG:
      return home + "/.config/git/config";
    case GIT_CONFIG_LEVEL_SYSTEM:
      return "system configuration";
    case GIT_CONFIG_LEVEL_PROGRAMDATA:
      return "programdata configuration";
    default:
      return "application configuration";
  }
}

std::string level_name(git_config_level_t level) {
  switch (level) {
    case GIT_CONFIG_LEVEL_LOCAL:
      return "repository";
    case GIT_CONFIG_LEVEL_GLOBAL:
      return "global";
    case GIT_CONFIG_LEVEL_XDG:
      return "xdg";
    case GIT_CONFIG_LEVEL_SYSTEM:
      return "system";
    case GIT_CONFIG_LEVEL_PROGRAMDATA:
      return "programdata";
    default:
      return "app";
  }
}

report::Refusal key_refusal(const std::string& key, const std::string& where,
                            const std::string& file) {
  return {std::string(kRuleConfigKey),
          "key '" + key + "' " + where +
              " is outside the clone baseline (refused by key, whatever its value); accepted: "
              "core.repositoryformatversion, core.filemode, core.bare, core.logallrefupdates, "
              "remote.<name>.url/.fetch/.tagopt, branch.<name>.remote/.merge, user.name, "
              "user.email",
          util::SourceLocation{file, 0, 0}};
}

// Iterates `cfg`, refusing each key outside the allowlist once per (key, file).
void check_entries(git_config* cfg, const std::string& worktree, const std::string& home,
                   const std::string* fixed_file, report::Refusals& out) {
  git_config_iterator* raw = nullptr;
  if (git_config_iterator_new(&raw, cfg) != 0) {
    const util::Refusal e = last_error(kRuleConfigKey, "cannot iterate the git configuration");
    out.push_back({e.rule, e.message, std::nullopt});
    return;
  }
  ConfigIteratorPtr it(raw);
  std::set<std::pair<std::string, std::string>> seen;
  git_config_entry* entry = nullptr;
  int rc = 0;
  while ((rc = git_config_next(&entry, it.get())) == 0) {
    if (config_key_allowed(entry->name)) {
      continue;
    }
    const std::string key = parse_config_key(entry->name).canonical();
    const std::string file = fixed_file ? *fixed_file : level_file(entry->level, worktree, home);
    std::string where =
        fixed_file ? "in the worktree configuration" : "at " + level_name(entry->level) + " level";
    if (entry->include_depth > 0) {
      where += " (pulled in by an include)";
    }
    if (!seen.insert({key, file + where}).second) {
      continue;
    }
    out.push_back(key_refusal(key, where, file));
  }
  if (rc != GIT_ITEROVER) {
    const util::Refusal e = last_error(kRuleConfigKey, "cannot read the git configuration");
    out.push_back({e.rule, e.message, std::nullopt});
  }
}

}  // namespace

util::Status check_config(git_repository* repo, const std::string& worktree,
                          const std::string& home) {
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repo) != 0) {
    const util::Refusal e = last_error(kRuleConfigKey, "cannot read the git configuration");
    return util::refusal(e.rule, e.message);
  }
  report::Refusals out;
  ConfigPtr snapshot(raw);
  check_entries(snapshot.get(), worktree, home, nullptr, out);

  // libgit2 1.5 has no worktree level; git reads $GIT_DIR/config.worktree when
  // extensions.worktreeConfig is set (itself refused). Read it here so nothing hides there.
  const std::string wt_file = git_dir_of(worktree) + "/config.worktree";
  struct stat st {};
  if (::lstat(wt_file.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      out.push_back({std::string(kRuleConfigKey),
                     "the worktree configuration is not a regular file; expected none",
                     util::SourceLocation{wt_file, 0, 0}});
    } else {
      git_config* wt_raw = nullptr;
      if (git_config_open_ondisk(&wt_raw, wt_file.c_str()) != 0) {
        const util::Refusal e = last_error(kRuleConfigKey, "cannot read '" + wt_file + "'");
        out.push_back({e.rule, e.message, util::SourceLocation{wt_file, 0, 0}});
      } else {
        ConfigPtr wt_cfg(wt_raw);
        check_entries(wt_cfg.get(), worktree, home, &wt_file, out);
      }
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git::detail
