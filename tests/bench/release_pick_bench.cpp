// pick_release over a catalogue the size of the real one (220 node, 150 bun releases): an exact
// version, a range the tool cache answers, an alias, and a range that walks the most releases.
#include <benchmark/benchmark.h>

#include <string>

#include "core/resolve/release_pick.h"

namespace {

using namespace reviewer::resolve;

CatalogueRelease release(std::string version) {
  CatalogueRelease r;
  r.version = std::move(version);
  r.date = "2026-01-01";
  return r;
}

// Node 18 to 27, 22 releases a line; bun 1.0.0 to 1.5.24, 25 a minor.
RuntimeCatalogue synthetic_catalogue() {
  RuntimeCatalogue c;
  c.source = "synthetic";
  c.node_schedule = {"synthetic",
                     {{18, "2022-04-19", "2022-10-25", "Hydrogen"},
                      {20, "2023-04-18", "2023-10-24", "Iron"},
                      {22, "2024-04-24", "2024-10-29", "Jod"},
                      {24, "2025-05-06", "2025-10-28", "Krypton"},
                      {26, "2026-05-05", "2026-10-28", "Lithium"}}};
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
