// libFuzzer target over the bounded loader and the planner: whatever the bytes, loading and
// planning must end in a plan or in named refusals, without a crash, a sanitizer report, a hang
// or unbounded allocation (run with -rss_limit_mb and -timeout).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "core/plan/planner.h"
#include "core/plugins/registry.h"
#include "core/yaml/bounded_loader.h"

namespace {

const reviewer::plugins::Registry& registry() {
  static const auto loaded = [] {
    auto l = reviewer::plugins::Registry::load(REVIEWER_BINARY_DIR "/plugins");
    if (!l) {
      std::cerr << "plan_fuzzer: the build tree's plugins were refused: " << l.refusals()[0].rule
                << " " << l.refusals()[0].message << "\n";
      std::abort();
    }
    return l;
  }();
  return *loaded;
}

bool kebab(const std::string& rule) {
  if (rule.empty() || rule.front() == '-' || rule.back() == '-') return false;
  for (char c : rule) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

void check(const reviewer::util::Result<reviewer::plan::Plan>& r) {
  // A plan, or refusals (never none, the outcome type checks that), every refusal named.
  if (r) return;
  for (const auto& refusal : r.refusals()) {
    if (!kebab(refusal.rule) || refusal.message.empty()) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto root = reviewer::yaml::load(text, ".github/workflows/fuzz.yml");
  if (!root) {
    if (!kebab(root.error().rule)) std::abort();
    return 0;
  }
  // Plan the first job the file declares (the common case) and a job it may not have.
  std::string job = "build";
  if (root->is_mapping()) {
    if (const auto* jobs = root->find("jobs"); jobs != nullptr && jobs->is_mapping()) {
      if (!jobs->entries.empty()) job = jobs->entries.front().first.scalar;
    }
  }
  check(reviewer::plan::plan_workflow(*root, {".github/workflows/fuzz.yml", job, "main"},
                                      registry()));
  check(reviewer::plan::plan_workflow(*root, {".github/workflows/fuzz.yml", "missing", "main"},
                                      registry()));
  return 0;
}
