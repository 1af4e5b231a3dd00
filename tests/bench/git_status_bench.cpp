// bench_git_status: the clean-clone check (reviewer::git::check_clean_clone) and
// `git status --porcelain --ignored -uall` on the same generated worktree, in one run, with the
// ratio printed at the end. Target: guard <= 1.0x git (issue 15).

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/git/guards.h"
#include "core/git/index_entries.h"
#include "core/git/repository.h"
#include "core/git/rules.h"

extern char** environ;

namespace {

int run(const std::vector<std::string>& argv, const std::string& home, bool quiet) {
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  const std::string home_env = "HOME=" + home;
  std::vector<std::string> env_strings{"PATH=/usr/bin:/bin",    home_env,
                                       "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
                                       "GIT_AUTHOR_NAME=b",     "GIT_AUTHOR_EMAIL=b@x",
                                       "GIT_COMMITTER_NAME=b",  "GIT_COMMITTER_EMAIL=b@x"};
  std::vector<char*> env;
  for (auto& e : env_strings) {
    env.push_back(e.data());
  }
  env.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (quiet) {
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    return -1;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The generated repository: `files` files, 100 per directory, two levels deep.
struct Worktree {
  std::string root;
  std::string home;
  std::string wt;
  reviewer::git::Baseline baseline;
  size_t files = 0;

  Worktree() {
    const char* n = std::getenv("REVIEWER_BENCH_FILES");
    files = n ? std::strtoul(n, nullptr, 10) : 100000;
    std::string tmpl = "/tmp/reviewer-git-bench-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) {
      std::abort();
    }
    root = tmpl;
    home = root + "/home";
    ::mkdir(home.c_str(), 0700);
    const std::string src = root + "/src";
    run({"/usr/bin/git", "init", "-q", "-b", "main", src}, home, true);
    for (size_t i = 0; i < files; ++i) {
      const size_t dir = i / 100;
      const std::string d = src + "/d" + std::to_string(dir / 100) + "/s" + std::to_string(dir);
      if (i % 100 == 0) {
        std::filesystem::create_directories(d);
      }
      const std::string p = d + "/f" + std::to_string(i % 100) + ".txt";
      FILE* f = std::fopen(p.c_str(), "w");
      std::fprintf(f, "line %zu\n", i);
      std::fclose(f);
    }
    run({"/usr/bin/git", "-C", src, "add", "-A"}, home, true);
    run({"/usr/bin/git", "-C", src, "commit", "-qm", "files"}, home, true);
    wt = root + "/wt";
    run({"/usr/bin/git", "clone", "-q", "--depth", "1", "--no-tags", "file://" + src, wt}, home,
        true);
    // Let git refresh its index once (as a clone followed by any status would), then pin.
    ::sleep(1);
    git_status();
    auto b = reviewer::git::pin_baseline(wt, home);
    if (!b.ok()) {
      std::abort();
    }
    baseline = *b;
    if (!reviewer::git::check_clean_clone(wt, home, baseline).ok()) {
      std::fprintf(stderr, "the generated worktree is not clean\n");
      std::abort();
    }
  }
  ~Worktree() {
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
  }
  void git_status() const {
    run({"/usr/bin/git", "-C", wt, "status", "--porcelain", "--ignored", "-uall"}, home, true);
  }
};

// The last mean of each benchmark, kept outside Worktree so the report outlives it.
struct Figures {
  double git_ns = 0;
  double guard_ns = 0;
  size_t files = 0;
};
Figures figures;

Worktree& worktree() {
  static Worktree w;
  return w;
}

double mean_ns(benchmark::State& state, double total_ns) {
  return state.iterations() ? total_ns / static_cast<double>(state.iterations()) : 0;
}

void BM_GitStatus(benchmark::State& state) {
  Worktree& w = worktree();
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    w.git_status();
    total +=
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  }
  figures.git_ns = mean_ns(state, total);
  figures.files = w.files;
  state.counters["files"] = static_cast<double>(w.files);
}

void BM_CleanCloneCheck(benchmark::State& state) {
  Worktree& w = worktree();
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = reviewer::git::check_clean_clone(w.wt, w.home, w.baseline);
    benchmark::DoNotOptimize(r);
    total +=
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  }
  figures.guard_ns = mean_ns(state, total);
  state.counters["files"] = static_cast<double>(w.files);
}

void BM_CheckBeforeJob(benchmark::State& state) {
  Worktree& w = worktree();
  for (auto _ : state) {
    auto r = reviewer::git::check_before_job(w.wt, w.home, w.baseline, 1);
    benchmark::DoNotOptimize(r);
  }
}

// The index alone, read as the check reads it and as libgit2's git_repository_index reads it
// (what the check gained from not asking libgit2). The repository is opened anew each time, as
// every check opens it, so libgit2 cannot hand back the index it already read.
void BM_IndexRead(benchmark::State& state) {
  namespace d = reviewer::git::detail;
  Worktree& w = worktree();
  for (auto _ : state) {
    auto repo = d::open_worktree(w.wt, w.home);
    auto index = repo.ok() ? d::IndexEntries::read(repo->get(), d::git_dir_of(w.wt),
                                                   reviewer::git::kRuleRepository)
                           : repo.error();
    if (!index.ok() || index->read_by_libgit2()) {
      state.SkipWithError("the index was not read without libgit2");
      return;
    }
    benchmark::DoNotOptimize(index->size());
  }
}

void BM_IndexReadByLibgit2(benchmark::State& state) {
  namespace d = reviewer::git::detail;
  Worktree& w = worktree();
  for (auto _ : state) {
    auto repo = d::open_worktree(w.wt, w.home);
    git_index* raw = nullptr;
    if (!repo.ok() || git_repository_index(&raw, repo->get()) != 0) {
      state.SkipWithError("libgit2 cannot read the index");
      return;
    }
    benchmark::DoNotOptimize(git_index_entrycount(raw));
    git_index_free(raw);
  }
}

// Alternating order is not possible within one Google Benchmark run, so each is run twice.
BENCHMARK(BM_GitStatus)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_CleanCloneCheck)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_GitStatus)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_CleanCloneCheck)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_CheckBeforeJob)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_IndexRead)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_IndexReadByLibgit2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

// Printed after every benchmark ran: the last measured figure of each and their ratio.
struct RatioReport {
  ~RatioReport() {
    const Figures& f = figures;
    if (f.git_ns <= 0 || f.guard_ns <= 0) {
      return;
    }
    std::printf(
        "\nclean-clone check %.1f ms, git status --porcelain --ignored -uall %.1f ms, "
        "ratio %.2fx (target <= 1.00x) on %zu files\n",
        f.guard_ns / 1e6, f.git_ns / 1e6, f.guard_ns / f.git_ns, f.files);
  }
};
RatioReport ratio_report;

}  // namespace
