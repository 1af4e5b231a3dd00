// Every rule id the loader and the planner can emit is catalogued in docs/refusals.md (which
// `reviewer explain` prints), checked both ways against the sources.
#include <gtest/gtest.h>

#include "tests/unit/plan/plan_test_support.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

// The rules of core/yaml, core/workflow and core/plan (plugins catalogue their own).
const std::set<std::string> kRules = {
    // Loading.
    "yaml-too-large", "yaml-too-many-nodes", "yaml-too-deep", "yaml-alias-too-large",
    "yaml-key-not-plain", "yaml-key-not-ascii", "yaml-duplicate-key", "yaml-multiple-documents",
    "yaml-tag", "yaml-merge-key", "yaml-anchor", "yaml-syntax", "workflow-symlink",
    "workflow-unreadable",
    // Workflow, trigger, jobs.
    "workflow-not-mapping", "unknown-workflow-key", "invalid-workflow-value", "trigger-missing",
    "trigger-base-not-covered", "trigger-filter-undecidable", "trigger-types", "trigger-invalid",
    "job-not-found", "needs-unknown", "needs-cycle", "needs-invalid", "invalid-job",
    "unknown-job-key", "matrix-job", "container-job", "services-job", "continue-on-error",
    "reusable-workflow", "job-secrets", "job-environment", "runner-label", "job-condition",
    "job-without-steps", "first-step-not-checkout", "invalid-timeout", "expression-in-timeout",
    "invalid-defaults", "duplicate-job-id", "mixed-history-shape", "invalid-job-id",
    "control-character-in-name",
    // Matrix expansion and the host's choice of one combination.
    "matrix-invalid", "matrix-empty", "matrix-too-large", "expression-in-matrix",
    "matrix-combination-required", "matrix-combination-missing", "matrix-combination-ambiguous",
    "matrix-in-needed-job", "matrix-choice-invalid",
    // The host's description of the pull request.
    "event-invalid", "event-mismatch",
    // Expressions: where they stand, what they read, whether they parse and evaluate.
    "expression-invalid", "expression-error", "expression-value-unknown", "expression-at-run-time",
    "expression-too-large",
    // Steps.
    "invalid-step", "unknown-step-key", "step-uses-and-run", "step-without-action",
    "step-condition", "timeout-on-skipped-step", "non-bash-shell", "expression-in-uses",
    "expression-in-working-directory", "invalid-continue-on-error", "working-directory-outside",
    "invalid-working-directory", "invalid-input", "docker-action", "unsupported-action",
    "unreviewed-action-ref", "release-tag-ambiguous",
    // Local composite actions.
    "local-action-outside", "local-action-missing", "local-action-symlink",
    "local-action-unreadable", "local-action-not-composite", "invalid-local-action",
    "local-action-depth", "local-action-cycle", "too-many-inlined-steps",
    // Local reusable workflows.
    "reusable-workflow-call", "reusable-workflow-missing", "reusable-workflow-symlink",
    "reusable-workflow-unreadable", "reusable-workflow-not-callable", "invalid-reusable-workflow",
    "reusable-workflow-input", "reusable-workflow-secret", "reusable-workflow-depth",
    "reusable-workflow-cycle", "too-many-reusable-workflows",
    // What one plan may hold, and how many refusals it lists.
    "plan-too-large", "too-many-refusals",
    // Environment.
    "invalid-env", "expression-in-env", "invalid-env-name", "launcher-owned-env",
    "credential-shaped-env", "config-redirecting-env",
    // Scalars GitHub retypes.
    "retyped-scalar"};

// Rule ids as the sources pass them: refuse("id", ...), stop("id", ...), refusal("id", ...),
// EnvVerdict{"id", ...}, JobKeyRule{"key", "id", ...}, and `cond ? "id" : "id"`.
std::set<std::string> emitted() {
  std::set<std::string> ids;
  const std::regex call(R"re((?:refuse|stop|refusal)\(\s*"([a-z0-9-]+)")re");
  const std::regex verdict(R"re(EnvVerdict\{"([a-z0-9-]+)")re");
  const std::regex key_rule(R"re(JobKeyRule\{"[^"]*",\s*"([a-z0-9-]+)")re");
  const std::regex ternary(R"re(\?\s*"([a-z0-9]+-[a-z0-9-]+)"\s*:\s*"([a-z0-9]+-[a-z0-9-]+)")re");
  for (const char* dir : {"core/yaml", "core/workflow", "core/plan"}) {
    for (const auto& e :
         std::filesystem::directory_iterator(std::filesystem::path(REVIEWER_SOURCE_DIR) / dir)) {
      if (e.path().extension() != ".cpp" || e.path().filename() == "fixtures.cpp") {
        continue;
      }
      const std::string src = reviewer::plan::testing::read_file(e.path());
      for (const auto* re : {&call, &verdict, &key_rule, &ternary}) {
        for (std::sregex_iterator it(src.begin(), src.end(), *re), end; it != end; ++it) {
          for (std::size_t g = 1; g < it->size(); ++g) {
            if ((*it)[g].matched) {
              ids.insert((*it)[g]);
            }
          }
        }
      }
    }
  }
  return ids;
}

TEST(Catalogue, EveryRuleIsDocumented) {
  const auto docs = reviewer::plan::testing::catalogued_rule_ids();
  for (const auto& id : kRules) {
    EXPECT_TRUE(docs.count(id)) << id << " is not in docs/refusals.md";
  }
}

TEST(Catalogue, TheListMatchesTheSources) {
  const auto found = emitted();
  for (const auto& id : found) {
    EXPECT_TRUE(kRules.count(id)) << id << " is emitted but not listed";
  }
  for (const auto& id : kRules) {
    EXPECT_TRUE(found.count(id)) << id << " is listed but never emitted";
  }
}

}  // namespace
