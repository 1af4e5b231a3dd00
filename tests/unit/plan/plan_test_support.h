#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/plan/planner.h"
#include "core/plan/repository_files.h"
#include "core/plugins/registry.h"
#include "core/report/render.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::plan::testing {

// A whole file as bytes.
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// Every rule id docs/refusals.md catalogues (its "### `id`" headings).
inline std::set<std::string> catalogued_rule_ids() {
  std::set<std::string> ids;
  const std::string doc =
      read_file(std::filesystem::path(REVIEWER_SOURCE_DIR) / "docs/refusals.md");
  const std::regex heading(R"re(### `([a-z0-9-]+)`)re");
  for (std::sregex_iterator it(doc.begin(), doc.end(), heading), end; it != end; ++it) {
    ids.insert((*it)[1]);
  }
  return ids;
}

// actions/checkout v4.2.2, a reviewed commit of the checkout plugin.
inline constexpr const char* kCheckout =
    "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683";

// The build tree's plugins (the test depends on the plugin_manifest target).
inline const plugins::Registry& registry() {
  static const auto loaded = plugins::Registry::load(REVIEWER_BINARY_DIR "/plugins");
  if (!loaded) {
    ADD_FAILURE() << "plugins refused: " << report::to_text(loaded.error());
  }
  return *loaded;
}

// Plans `workflow` (job `job`, file .github/workflows/ci.yml) with `files` as the repository's
// other files: "(planned)\n", or one "file:line:column: rule: message" a line; the plan goes to
// `out` when given.
inline std::string plan_over_files(const std::string& workflow,
                                   const std::map<std::string, std::string>& files,
                                   const std::string& job, std::optional<Plan>* out = nullptr) {
  const MemoryFiles repo(files);
  auto planned = plan::plan_text(
      workflow, {".github/workflows/ci.yml", job, "main", {}, false, &repo}, registry());
  if (planned) {
    if (out != nullptr) {
      *out = std::move(*planned);
    }
    return "(planned)\n";
  }
  std::string lines;
  for (const auto& r : planned.refusals()) {
    lines += report::to_text(r) + "\n";
  }
  return lines;
}

// Writes `text` into $REVIEWER_FUZZ_SEED_DIR (when set) so the fuzzer starts from every
// fixture; see tests/fuzz/CMakeLists.txt.
inline void dump_seed(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("REVIEWER_FUZZ_SEED_DIR");
  if (dir == nullptr) {
    return;
  }
  std::filesystem::create_directories(dir);
  std::ofstream(std::filesystem::path(dir) / (name + ".yml")) << text;
}

// One planning pass as the tests inspect it: the plan, or the refusals.
struct Planned {
  std::optional<Plan> plan;
  report::Refusals refusals;
};

// Loads and plans `text` as .github/workflows/ci.yml; "(planned)" or one
// "file:line:column: rule: message" line per refusal.
inline std::string plan_text(const std::string& text, const std::string& job = "build",
                             const std::string& base = "main", Planned* out = nullptr) {
  const std::string file = ".github/workflows/ci.yml";
  Planned result;
  if (auto planned = plan::plan_text(text, {file, job, base}, registry())) {
    result.plan = std::move(*planned);
  } else {
    result.refusals = planned.refusals();
  }
  std::string lines;
  for (const auto& r : result.refusals) {
    lines += report::to_text(r) + "\n";
  }
  if (result.plan) {
    lines = "(planned)\n";
  }
  if (out != nullptr) {
    *out = std::move(result);
  }
  return lines;
}

}  // namespace reviewer::plan::testing
