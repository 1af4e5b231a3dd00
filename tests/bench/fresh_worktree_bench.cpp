// bench_fresh_worktree: what every job after the first pays for a fresh worktree
// (core/launch/fresh_worktree.h), against `cp -a` of the same clone in the same run, as a ratio.
// The clone: REVIEWER_BENCH_CLONE (a real project's, e.g. commander.js cloned as the host clones
// it), or a generated one of 300 files and a 4 MiB pack.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/launch/fresh_worktree.h"

namespace {

namespace fs = std::filesystem;

const std::string& root() {
  static const std::string dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "bench-fresh-XXXXXX").string();
    return std::string(::mkdtemp(tmpl.data()));
  }();
  return dir;
}

std::string clone() {
  if (const char* given = std::getenv("REVIEWER_BENCH_CLONE"); given != nullptr && *given) {
    return given;
  }
  const std::string dir = root() + "/clone";
  if (!fs::exists(dir)) {
    for (int d = 0; d < 30; ++d) {
      fs::create_directories(dir + "/lib/d" + std::to_string(d));
      for (int f = 0; f < 10; ++f) {
        std::ofstream(dir + "/lib/d" + std::to_string(d) + "/f" + std::to_string(f) + ".js")
            << std::string(2000 + 37 * f, 'x');
      }
    }
    fs::create_directories(dir + "/.git/objects/pack");
    std::ofstream(dir + "/.git/objects/pack/pack-0.pack") << std::string(4 << 20, 'p');
  }
  return dir;
}

void BM_FreshWorktree(benchmark::State& state) {
  const std::string worktree = root() + "/worktree";
  fs::create_directories(worktree);
  auto fresh = reviewer::launch::FreshWorktree::open(clone(), worktree);
  if (!fresh || !*fresh) {
    state.SkipWithError("cannot open the clone");
    return;
  }
  for (auto _ : state) {
    if (!(*fresh)->refresh()) {
      state.SkipWithError("refresh failed");
      return;
    }
  }
}
BENCHMARK(BM_FreshWorktree)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_CpArchive(benchmark::State& state) {
  const std::string target = root() + "/cp";
  const std::string command = "rm -rf '" + target + "' && cp -a '" + clone() + "' '" + target + "'";
  for (auto _ : state) {
    if (std::system(command.c_str()) != 0) {
      state.SkipWithError("cp failed");
      return;
    }
  }
}
BENCHMARK(BM_CpArchive)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
