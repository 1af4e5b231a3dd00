#include "core/git/guards.h"

#include <time.h>

#include <array>
#include <limits>
#include <set>

#include "core/git/config_allowlist.h"
#include "core/git/config_check.h"
#include "core/git/history.h"
#include "core/git/hooks_check.h"
#include "core/git/index_check.h"
#include "core/git/redirects.h"
#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/git/worktree_shape.h"
#include "core/git/worktree_status.h"

namespace reviewer::git {
namespace {

using detail::git_dir_of;

// Paths named individually in clean-clone refusals; the rest are counted.
constexpr size_t kMaxNamedPaths = 20;

std::int64_t coarse_now_ns() {
  timespec t{};
  // The coarse clock is the one the kernel stamps ctime with, so a write after the pin never
  // gets a ctime before it.
  ::clock_gettime(CLOCK_REALTIME_COARSE, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

struct HeadState {
  std::string oid;
  std::string ref;
};

util::Result<HeadState> read_head(git_repository* repo) {
  HeadState h;
  git_object* obj = nullptr;
  if (git_revparse_single(&obj, repo, "HEAD^{commit}") != 0) {
    return detail::last_error(kRuleHeadMoved, "cannot resolve HEAD to a commit");
  }
  std::array<char, GIT_OID_HEXSZ + 1> hex{};
  git_oid_tostr(hex.data(), hex.size(), git_object_id(obj));
  git_object_free(obj);
  h.oid = hex.data();
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, "HEAD") == 0) {
    detail::ReferencePtr head(raw);
    if (git_reference_type(head.get()) == GIT_REFERENCE_SYMBOLIC) {
      h.ref = git_reference_symbolic_target(head.get());
    }
  }
  return h;
}

struct Remotes {
  std::map<std::string, std::string> urls;
  std::map<std::string, std::vector<std::string>> fetch;
};

// Read from the configuration as written: git_remote_lookup would apply url.*.insteadOf.
util::Result<Remotes> read_remotes(git_repository* repo) {
  Remotes r;
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repo) != 0) {
    return detail::last_error(kRuleRemoteChanged, "cannot read the git configuration");
  }
  detail::ConfigPtr cfg(raw);
  git_config_iterator* it_raw = nullptr;
  if (git_config_iterator_new(&it_raw, cfg.get()) != 0) {
    return detail::last_error(kRuleRemoteChanged, "cannot iterate the git configuration");
  }
  detail::ConfigIteratorPtr it(it_raw);
  git_config_entry* e = nullptr;
  while (git_config_next(&e, it.get()) == 0) {
    const ConfigKey k = parse_config_key(e->name);
    if (k.section != "remote" || !k.has_subsection) {
      continue;
    }
    const std::string value = e->value ? e->value : "";
    if (k.key == "url") {
      std::string& url = r.urls[k.subsection];
      url += url.empty() ? value : "\n" + value;
    } else if (k.key == "fetch") {
      r.fetch[k.subsection].push_back(value);
    }
  }
  return r;
}

util::Status compare_remotes(const Remotes& now, const Baseline& baseline,
                             const std::string& config_file) {
  report::Refusals out;
  std::set<std::string> names;
  for (const auto& [n, v] : now.urls) {
    names.insert(n);
  }
  for (const auto& [n, v] : now.fetch) {
    names.insert(n);
  }
  for (const auto& [n, v] : baseline.remote_urls) {
    names.insert(n);
  }
  for (const auto& [n, v] : baseline.remote_fetch) {
    names.insert(n);
  }
  const util::SourceLocation where{config_file, 0, 0};
  for (const auto& name : names) {
    const auto find_url = [&](const std::map<std::string, std::string>& m) {
      auto it = m.find(name);
      return it == m.end() ? std::string() : it->second;
    };
    const auto find_fetch = [&](const std::map<std::string, std::vector<std::string>>& m) {
      auto it = m.find(name);
      return it == m.end() ? std::vector<std::string>() : it->second;
    };
    if (find_url(now.urls) != find_url(baseline.remote_urls)) {
      out.push_back({std::string(kRuleRemoteChanged),
                     "remote '" + name + "' url differs from the one pinned at the first job",
                     where});
    }
    if (find_fetch(now.fetch) != find_fetch(baseline.remote_fetch)) {
      out.push_back(
          {std::string(kRuleRemoteChanged),
           "remote '" + name + "' fetch refspecs differ from the ones pinned at the first job",
           where});
    }
  }
  return util::status_of(std::move(out));
}

util::Status check_hooks_of(git_repository* repo, const std::string& worktree) {
  std::set<std::string> dirs{git_dir_of(worktree) + "/hooks"};
  detail::GitBuf item;
  if (git_repository_item_path(item.get(), repo, GIT_REPOSITORY_ITEM_HOOKS) == 0) {
    std::string p(item.view());
    while (p.size() > 1 && p.back() == '/') {
      p.pop_back();
    }
    dirs.insert(p);
  }
  report::Refusals out;
  for (const auto& d : dirs) {
    util::append_refusals(out, check_hooks(d));
  }
  return util::status_of(std::move(out));
}

util::Status status_refusals(git_repository* repo, const detail::WorktreeStatus& st) {
  report::Refusals out;
  const std::string rule(kRuleCleanClone);
  const size_t total = st.changed.size() + st.created.size();
  for (const auto& c : st.changed) {
    if (out.size() == kMaxNamedPaths) {
      break;
    }
    out.push_back({rule, "'" + c.path + "' differs from a clean clone (" + c.what + ")",
                   util::SourceLocation{c.path, 0, 0}});
  }
  for (const auto& p : st.created) {
    if (out.size() == kMaxNamedPaths) {
      break;
    }
    int ignored = 0;
    std::string probe = p;
    if (!probe.empty() && probe.back() == '/') {
      probe.pop_back();
    }
    // Classifying reads .gitignore files only; either way the path is refused.
    if (git_status_should_ignore(&ignored, repo, probe.c_str()) != 0) {
      ignored = 0;
    }
    out.push_back({rule,
                   std::string(ignored ? "ignored" : "untracked") + " path '" + p +
                       "' is not part of a clean clone",
                   util::SourceLocation{p, 0, 0}});
  }
  if (total > out.size()) {
    out.push_back({rule,
                   std::to_string(total - out.size()) + " more paths differ from a clean "
                                                        "clone",
                   std::nullopt});
  }
  return util::status_of(std::move(out));
}

// Index flags, status, HEAD and remotes of an opened repository.
util::Status clean_clone_of(git_repository* repo, const std::string& worktree,
                            const Baseline& baseline) {
  report::Refusals out;
  const std::string git_dir = git_dir_of(worktree);
  auto index = detail::IndexEntries::read(repo, git_dir, kRuleRepository);
  if (!index) {
    out.push_back(index.error());
  } else {
    util::append_refusals(out, detail::check_index_flags(*index));
    auto st = detail::worktree_status(repo, *index, worktree, baseline.pinned_at_ns);
    if (!st) {
      out.push_back(st.error());
    } else {
      util::append_refusals(out, status_refusals(repo, *st));
    }
    // Listing every tracked file's attributes cost more than the whole status walk; the walk's
    // stat data already tells which inodes are untouched since the pin.
    const detail::XattrPin now =
        st ? detail::tracked_xattrs_since(*index, worktree, baseline.xattrs, baseline.xattr_inodes,
                                          st->dev, st->settled_inos)
           : detail::tracked_xattrs(*index, worktree);
    util::append_refusals(out, detail::compare_xattrs(now, baseline.xattrs));
  }
  auto head = read_head(repo);
  if (!head) {
    out.push_back(head.error());
  } else if (head->oid != baseline.head || head->ref != baseline.head_ref) {
    const auto describe = [](const std::string& oid, const std::string& ref) {
      return (ref.empty() ? std::string("detached") : ref) + " at " + oid;
    };
    out.push_back({std::string(kRuleHeadMoved),
                   "HEAD is " + describe(head->oid, head->ref) + ", pinned at the first job as " +
                       describe(baseline.head, baseline.head_ref),
                   util::SourceLocation{git_dir + "/HEAD", 0, 0}});
  }
  auto remotes = read_remotes(repo);
  if (!remotes) {
    out.push_back(remotes.error());
  } else {
    util::append_refusals(out, compare_remotes(*remotes, baseline, git_dir + "/config"));
  }
  return util::status_of(std::move(out));
}

}  // namespace

util::Result<Baseline> pin_baseline(const std::string& worktree, const std::string& home) {
  Baseline b;
  b.pinned_at_ns = coarse_now_ns();
  auto repo = detail::open_worktree(worktree, home);
  if (!repo) {
    return repo.error();
  }
  auto head = read_head(repo->get());
  if (!head) {
    return head.error();
  }
  b.head = head->oid;
  b.head_ref = head->ref;
  auto remotes = read_remotes(repo->get());
  if (!remotes) {
    return remotes.error();
  }
  b.remote_urls = std::move(remotes->urls);
  b.remote_fetch = std::move(remotes->fetch);
  // Only the hashes are pinned here: what the shape refuses is check_before_job's to report.
  static_cast<void>(scan_worktree_shape(worktree, &b.lockfile_sha256));
  b.git_dir = detail::pin_git_dir(worktree);
  auto index =
      detail::IndexEntries::read(repo->get(), detail::git_dir_of(worktree), kRuleRepository);
  if (!index) {
    return index.error();
  }
  b.xattrs = detail::tracked_xattrs(*index, worktree, b.pinned_at_ns, b.xattr_inodes);
  return b;
}

util::Status check_clean_clone(const std::string& worktree, const std::string& home,
                               const Baseline& baseline) {
  report::Refusals out;
  util::append_refusals(out, check_redirects(worktree));
  if (out.empty() && !detail::special_file(worktree).empty()) {
    util::append_refusals(out, detail::check_git_dir(worktree, baseline.git_dir));
  }
  if (!out.empty()) {
    return out;
  }
  auto repo = detail::open_worktree(worktree, home);
  if (!repo) {
    return repo.error();
  }
  if (auto shape = detail::check_repository_shape(repo->get(), worktree); !shape) {
    return shape;
  }
  util::append_refusals(out, detail::check_git_dir(worktree, baseline.git_dir));
  util::append_refusals(out, clean_clone_of(repo->get(), worktree, baseline));
  if (out.empty()) {
    return detail::check_git_objects(worktree, baseline.git_dir);
  }
  return out;
}

util::Status check_before_job(const std::string& worktree, const std::string& home,
                              const Baseline& baseline, int fetch_depth) {
  // Everything below would read another repository's configuration, refs or objects, so
  // libgit2 is not even asked to open a redirected one.
  report::Refusals out;
  util::append_refusals(out, check_redirects(worktree));
  // libgit2 would block on a FIFO planted where it reads (info/attributes, say): those are
  // reported before it opens anything.
  if (out.empty() && !detail::special_file(worktree).empty()) {
    util::append_refusals(out, detail::check_git_dir(worktree, baseline.git_dir));
  }
  if (!out.empty()) {
    util::append_refusals(out, scan_worktree_shape(worktree));
    return out;
  }
  auto repo_result = detail::open_worktree(worktree, home);
  if (!repo_result) {
    out.push_back(repo_result.error());
    util::append_refusals(out, scan_worktree_shape(worktree));
    return out;
  }
  git_repository* repo = repo_result->get();
  util::append_refusals(out, detail::check_git_dir(worktree, baseline.git_dir));
  util::append_refusals(out, detail::check_config(repo, worktree, home));
  const util::Status shape = detail::check_repository_shape(repo, worktree);
  const bool redirected = !shape;
  util::append_refusals(out, shape);
  util::append_refusals(out, check_hooks_of(repo, worktree));
  // A redirected work tree is not the one to compare; everything else still reports.
  if (!redirected) {
    util::append_refusals(out, clean_clone_of(repo, worktree, baseline));
  }
  util::append_refusals(out, detail::check_history_shape(repo, worktree, fetch_depth));
  util::append_refusals(out, scan_worktree_shape(worktree));
  if (out.empty()) {
    return detail::check_git_objects(worktree, baseline.git_dir);
  }
  return out;
}

util::Status check_after_job(const std::string& worktree, const Baseline& baseline) {
  std::map<std::string, std::string> now;
  report::Refusals out;
  util::append_refusals(out, scan_worktree_shape(worktree, &now));
  const std::string rule(kRuleLockfileChanged);
  for (const auto& [path, digest] : baseline.lockfile_sha256) {
    auto it = now.find(path);
    if (it == now.end()) {
      out.push_back({rule, "lockfile '" + path + "' was removed by the job",
                     util::SourceLocation{path, 0, 0}});
    } else if (it->second != digest) {
      out.push_back({rule,
                     "lockfile '" + path + "' changed during the job (sha256 " + digest +
                         " pinned, now " + it->second + ")",
                     util::SourceLocation{path, 0, 0}});
    }
  }
  // A lockfile the job created is untracked (the baseline holds every lockfile of the clean
  // clone), so the sweep before the next job removes it and that job installs what CI's fresh
  // checkout would: as on CI, where `npm install` without a lock writes one and nothing follows.
  return util::status_of(std::move(out));
}

util::Result<HistoryShape> history_shape(const std::string& worktree) {
  auto repo = detail::open_worktree(worktree, "");
  if (!repo) {
    return repo.error();
  }
  return detail::read_history_shape(repo->get(), worktree,
                                    std::numeric_limits<std::int64_t>::max());
}

}  // namespace reviewer::git
