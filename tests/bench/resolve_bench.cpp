// satisfies() on typical ranges, parsed once and from strings, and a whole resolve() of a
// worktree with package.json and .nvmrc against the shipped matrix.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/resolve/resolver.h"
#include "core/semver/functions.h"

namespace {

using namespace reviewer::resolve;
using namespace reviewer::semver;

const char* const kRanges[] = {"22.x", ">=20 <23", "^1.3.0", "~22.22.0", "1.0.0 - 2.0.0 || >=24"};

void BM_SatisfiesParsed(benchmark::State& state) {
  const Range range = Range::parse(kRanges[state.range(0)]).value();
  const Version version = parse_version("22.22.1").value();
  for (auto _ : state) {
    benchmark::DoNotOptimize(range.test(version));
  }
  state.SetLabel(kRanges[state.range(0)]);
}
BENCHMARK(BM_SatisfiesParsed)->DenseRange(0, 4);

void BM_SatisfiesStrings(benchmark::State& state) {
  const char* range = kRanges[state.range(0)];
  for (auto _ : state) {
    benchmark::DoNotOptimize(satisfies("22.22.1", range));
  }
  state.SetLabel(range);
}
BENCHMARK(BM_SatisfiesStrings)->DenseRange(0, 4);

void BM_Resolve(benchmark::State& state) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "resolve-bench-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  std::ofstream(tmpl + "/package.json")
      << R"({"name": "x", "engines": {"node": ">=22 <23", "bun": "^1.3"}, "packageManager": "bun@1.3.10"})";
  std::ofstream(tmpl + "/.nvmrc") << "# CI\n22\n";
  const auto matrix = load_runtime_table(std::string(REVIEWER_SOURCE_DIR) + "/matrix/runtime-matrix.json");
  if (!matrix) {
    state.SkipWithError(matrix.error().message.c_str());
  } else {
    for (auto _ : state) {
      auto result = resolve(tmpl, *matrix, {});
      benchmark::DoNotOptimize(result);
      if (!result) {
        state.SkipWithError("did not resolve");
      }
    }
  }
  std::filesystem::remove_all(tmpl);
}
BENCHMARK(BM_Resolve)->Unit(benchmark::kMicrosecond);

}  // namespace
