// pick_release over a catalogue the size of the real one (220 node, 150 bun releases): an exact
// version, a range the tool cache answers, an alias, and a range that walks the most releases.
#include <benchmark/benchmark.h>

#include <string>

#include "core/resolve/release_pick.h"
#include "tests/support/catalogue_fixture.h"

namespace {

using namespace reviewer::resolve;

CatalogueRelease release(std::string version) {
  return reviewer::test_support::catalogue_release(std::move(version), "2026-01-01");
}

// Node 18 to 27, 22 releases a line; bun 1.0.0 to 1.5.24, 25 a minor.
RuntimeCatalogue synthetic_catalogue() {
  RuntimeCatalogue c;
  c.source = "synthetic";
  c.node_schedule = reviewer::test_support::node_schedule("synthetic");
  for (int major = 18; major <= 27; ++major) {
    for (int minor = 0; minor < 22; ++minor) {
      c.node.push_back(release(std::to_string(major) + "." + std::to_string(minor) + ".0"));
    }
  }
  for (int minor = 0; minor < 6; ++minor) {
    for (int patch = 0; patch < 25; ++patch) {
      c.bun.push_back(release("1." + std::to_string(minor) + "." + std::to_string(patch)));
    }
  }
  return c;
}

const char* const kSpecs[] = {"24.10.0", "24.x", "lts/*", ">=18"};

void BM_PickNode(benchmark::State& state) {
  const RuntimeCatalogue catalogue = synthetic_catalogue();
  const ReleaseAsk ask{"node", kSpecs[state.range(0)], false, {24, 22}, "2026-12-06", {}};
  for (auto _ : state) {
    auto pick = pick_release(ask, catalogue);
    benchmark::DoNotOptimize(pick);
    if (!pick) {
      state.SkipWithError(pick.error().message.c_str());
      break;
    }
  }
  state.SetLabel(kSpecs[state.range(0)]);
}
BENCHMARK(BM_PickNode)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

void BM_PickBunLatest(benchmark::State& state) {
  const RuntimeCatalogue catalogue = synthetic_catalogue();
  const ReleaseAsk ask{"bun", "latest", false, {}, "2026-12-06", {}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(pick_release(ask, catalogue));
  }
}
BENCHMARK(BM_PickBunLatest)->Unit(benchmark::kMicrosecond);

}  // namespace
