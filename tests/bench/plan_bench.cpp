#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <yaml.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "core/plan/planner.h"
#include "core/plugins/registry.h"
#include "core/report/render.h"
#include "core/yaml/bounded_loader.h"

namespace {

using PlanResult = reviewer::util::Result<reviewer::plan::Plan>;

constexpr const char* kFile = ".github/workflows/ci.yml";
constexpr const char* kCheckout = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683";

const reviewer::plugins::Registry& registry() {
  static const auto loaded = reviewer::plugins::Registry::load(REVIEWER_BINARY_DIR "/plugins");
  if (!loaded) {
    std::cerr << reviewer::report::to_text(loaded.error()) << "\n";
    std::abort();
  }
  return *loaded;
}

PlanResult load_and_plan(const std::string& text) {
  auto root = reviewer::yaml::load(text, kFile);
  if (!root) {
    return root.error();
  }
  return reviewer::plan::plan_workflow(*root, {kFile, "build", "main"}, registry());
}

std::string job(const std::string& id, const std::string& needs, int steps, int script_lines) {
  std::string s = "  " + id + ":\n    name: " + id + "\n    runs-on: ubuntu-latest\n";
  if (!needs.empty()) {
    s += "    needs: [" + needs + "]\n";
  }
  s += "    timeout-minutes: 30\n    env:\n      NODE_ENV: test\n    steps:\n      - uses: " +
       std::string(kCheckout) + "\n        with:\n          fetch-depth: 1\n";
  for (int i = 0; i < steps; ++i) {
    s += "      - name: step " + std::to_string(i) + "\n        run: |\n";
    for (int l = 0; l < script_lines; ++l) {
      s += "          npm run task-" + std::to_string(l) + " -- --flag value\n";
    }
    s += "        env:\n          FORCE_COLOR: \"1\"\n";
  }
  return s;
}

// About 5 KiB: a trigger with filters, workflow env and defaults, three jobs chained by needs.
std::string typical() {
  std::string s =
      "name: ci\non:\n  push:\n    branches: [main]\n  pull_request:\n    branches: [main, "
      "'releases/**']\n    paths-ignore: ['**.md']\npermissions:\n  contents: read\n"
      "concurrency:\n  group: ci-${{ github.ref }}\n  cancel-in-progress: true\nenv:\n"
      "  TZ: UTC\ndefaults:\n  run:\n    shell: bash\njobs:\n";
  s += job("lint", "", 5, 4) + job("test", "lint", 6, 4) + job("build", "lint, test", 5, 4);
  return s;
}

// Just under both bounds, and accepted: a workflow env of 24,000 three-letter names as a flow
// mapping (48,000 nodes), a job of 600 run steps, one script padding the file to 256 KiB.
std::string largest() {
  const std::string first = "ABDFGHJKLMNOQRSUVWXYZ";  // no ENV*, IFS, PS*, PWD, TMP, CI*
  const std::string rest = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string s = "on: pull_request\nenv: {";
  for (int i = 0; i < 24'000; ++i) {
    s += first[static_cast<std::size_t>(i / (36 * 36))];
    s += rest[static_cast<std::size_t>(i / 36 % 36)];
    s += rest[static_cast<std::size_t>(i % 36)];
    s += ": v, ";
  }
  s += "END: v}\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " +
       std::string(kCheckout) + "\n";
  for (int i = 0; i < 600; ++i) {
    s += "      - run: make target-" + std::to_string(i) + "\n";
  }
  s += "      - run: |\n";
  while (s.size() < 256 * 1024 - 64) {
    s += "          echo padding the file to the bound\n";
  }
  return s;
}

// Billion laughs: 10 levels of 10 aliases (10^10 nodes if expanded).
std::string alias_bomb() {
  std::string doc = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'j'; ++c) {
    doc += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) {
      doc += std::string("*") + prev + ", ";
    }
    doc += std::string("*") + prev + "]\n";
    prev = c;
  }
  return doc;
}

long max_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

void run(benchmark::State& state, const std::string& text, bool expect_plan) {
  registry();
  auto first = load_and_plan(text);
  if (first.ok() != expect_plan) {
    state.SkipWithError(first.ok() ? "planned unexpectedly" : first.error().to_string().c_str());
    return;
  }
  const long rss_before = max_rss_kib();
  for (auto _ : state) {
    benchmark::DoNotOptimize(load_and_plan(text));
  }
  state.counters["bytes"] = static_cast<double>(text.size());
  state.counters["rss_growth_kib"] = static_cast<double>(max_rss_kib() - rss_before);
  state.counters["max_rss_kib"] = static_cast<double>(max_rss_kib());
}

void BM_Typical(benchmark::State& state) { run(state, typical(), true); }
void BM_Largest(benchmark::State& state) { run(state, largest(), true); }
void BM_AliasBomb(benchmark::State& state) { run(state, alias_bomb(), false); }

// The loader's share of BM_Largest.
void BM_LargestLoadOnly(benchmark::State& state) {
  const std::string text = largest();
  for (auto _ : state) {
    benchmark::DoNotOptimize(reviewer::yaml::load(text, kFile));
  }
}

// The planner's share of BM_Largest: the tree is loaded once, outside the timing.
void BM_LargestPlanOnly(benchmark::State& state) {
  const auto root = reviewer::yaml::load(largest(), kFile);
  if (!root) {
    state.SkipWithError(root.error().message.c_str());
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        reviewer::plan::plan_workflow(*root, {kFile, "build", "main"}, registry()));
  }
}

// The baseline for the loader's figure, measured in the same run: libyaml producing the same
// document's events with nothing built from them.
void BM_LargestLibyamlEventsOnly(benchmark::State& state) {
  const std::string text = largest();
  for (auto _ : state) {
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
    yaml_event_t event;
    bool more = true;
    while (more && yaml_parser_parse(&parser, &event) != 0) {
      more = event.type != YAML_STREAM_END_EVENT;
      yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
  }
}

BENCHMARK(BM_AliasBomb)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Typical)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Largest)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LargestLoadOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LargestPlanOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LargestLibyamlEventsOnly)->Unit(benchmark::kMillisecond);

}  // namespace
