// actions/checkout: skipped, because the host's fresh clone at /workspace is what the step
// would have produced — but only as a job's first step, at a reviewed commit, with inputs whose
// values change nothing for a fresh clone, and with the clone's history shaped as fetch-depth
// asks (verified at execute time). See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"actions/checkout",
                                      {
                                          {"3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"},
                                          {"9c091bb21b7c1c1d1991bb908d89e4e9dddfe3e0", "v7.0.0"},
                                          {"d23441a48e516b6c34aea4fa41551a30e30af803", "v6.1.0"},
                                          {"df4cb1c069e1874edd31b4311f1884172cec0e10", "v6.0.3"},
                                          {"de0fac2e4500dabe0009e67214ff5f5447ce83dd", "v6.0.2"},
                                          {"8e8c483db84b4bee98b60c0593521ed34d9990e8", "v6.0.1"},
                                          {"1af3b93b6815bc44a9784bd300feb67ff0d1eeb3", "v6.0.0"},
                                          {"fbc6f3992d24b796d5a048ff273f7fcc4a7b6c09", "v5.1.0"},
                                          {"93cb6efe18208431cddfb8368fd83d5badbf9bfd", "v5.0.1"},
                                          {"08c6903cd8c0fde910a37f88322edcfb5dd907a8", "v5.0.0"},
                                          {"11d5960a326750d5838078e36cf38b85af677262", "v4.4.0"},
                                          {"34e114876b0b11c390a56381ad16ebd13914f8d5", "v4.3.1"},
                                          {"08eba0b27e820071cde6df949e0beb9ba4906955", "v4.3.0"},
                                          {"11bd71901bbe5b1630ceea73d27597364c9af683", "v4.2.2"},
                                          {"a37ce9120846195fa4ece8f58b268e6043cb2f26", "v3.7.0"},
                                          {"f43a0e5ff2bd294095638e18286ca9a3d1956744", "v3.6.0"},
                                      },
                                      "2026-12-02",
                                      // The host's clone stands in for it; a job begins with it.
                                      REVIEWER_CAPABILITY_CHECKOUT};

// Checkout reads booleans as (value || default).toUpperCase() === 'TRUE' and never throws, so
// the SDK's loose booleans (a case-insensitive "true" or "false") are what is accepted.
using reviewer::sdk::is_loose_boolean;
using reviewer::sdk::is_loose_false;

// Releases before the July 2026 backports lack allow-unsafe-pr-checkout.
bool has_unsafe_pr_input(std::string_view tag) {
  return tag == "v7.0.1" || tag == "v7.0.0" || tag == "v6.1.0" || tag == "v5.1.0" ||
         tag == "v4.4.0" || tag == "v3.7.0";
}

// v3's action.yml has no show-progress, filter or ssh-user (v4.0.0, v4.1.0 and v4.2 add them).
bool is_v4_or_later(std::string_view tag) { return !tag.starts_with("v3."); }

bool depth_one_or_zero(std::string_view v) { return v == "1" || v == "0"; }

constexpr const char* kNoCredentials =
    "the review has no credentials; another repository, ref or key cannot be reproduced";

// Every input is read with getInput, which trims it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::accepted("fetch-depth", &depth_one_or_zero,
                            "1 or 0 (the host clones only those shapes)"),
    reviewer::sdk::accepted("persist-credentials", &is_loose_boolean, "true or false"),
    reviewer::sdk::accepted("clean", &is_loose_boolean, "true or false"),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("show-progress", &is_loose_boolean, "true or false"),
        &is_v4_or_later),
    reviewer::sdk::accepted("set-safe-directory", &is_loose_boolean, "true or false"),
    reviewer::sdk::accepted("sparse-checkout-cone-mode", &is_loose_boolean, "true or false"),
    reviewer::sdk::accepted("fetch-tags", &is_loose_false,
                            "false (the host clone carries no tags)"),
    reviewer::sdk::accepted("lfs", &is_loose_false, "false (LFS objects are not fetched)"),
    reviewer::sdk::accepted("submodules", &is_loose_false, "false (submodules are not fetched)"),
    // The guard it lifts only applies to pull_request_target and workflow_run, which the review
    // never plans.
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("allow-unsafe-pr-checkout", &is_loose_boolean, "true or false"),
        &has_unsafe_pr_input),
    reviewer::sdk::refused("repository", kNoCredentials),
    reviewer::sdk::refused("ref", "the review builds the assigned head, not another ref"),
    reviewer::sdk::refused("token", kNoCredentials),
    reviewer::sdk::refused("ssh-key", kNoCredentials),
    reviewer::sdk::refused("ssh-known-hosts", kNoCredentials),
    reviewer::sdk::refused("ssh-strict", kNoCredentials),
    reviewer::sdk::only_at(reviewer::sdk::refused("ssh-user", kNoCredentials), &is_v4_or_later),
    reviewer::sdk::refused("path", "the host clone is at the workspace root"),
    reviewer::sdk::only_at(reviewer::sdk::refused("filter", "partial clones are not reproduced"),
                           &is_v4_or_later),
    reviewer::sdk::refused("sparse-checkout", "sparse checkouts are not reproduced"),
    reviewer::sdk::refused("github-server-url", "the review has no network"),
});

int fetch_depth_of(const reviewer::sdk::StepView& step) {
  auto d = step.inputs().find("fetch-depth");
  return d && reviewer::sdk::js::trim(d->value) == "0" ? 0 : 1;
}

class Checkout final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext& job,
            reviewer::sdk::PlanDecision& decision) override {
    bool ok = true;
    if (!job.is_first_step()) {
      decision.refuse("checkout-not-first",
                      "actions/checkout is only stood in for as a job's first step; a later "
                      "checkout would replace or add to the worktree",
                      step.location());
      ok = false;
    }
    ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim) && ok;
    if (!ok) {
      return;
    }
    int depth = fetch_depth_of(step);
    decision.assert_fetch_depth(depth);
    decision.skip(depth == 1 ? "the worktree is a shallow one-commit clone without tags"
                             : "the worktree is a full (not shallow) clone");
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto shape = services.history_shape();
    if (!shape) {
      services.fail("checkout-history-shape", "the worktree's history cannot be read");
      return;
    }
    int depth = fetch_depth_of(step);
    bool ok = depth == 1 ? (shape->shallow && shape->commit_count == 1 && shape->tag_count == 0)
                         : !shape->shallow;
    if (!ok) {
      services.fail("checkout-history-shape",
                    "fetch-depth " + std::to_string(depth) + " asks for " +
                        (depth == 1 ? "a shallow one-commit clone without tags" : "a full clone") +
                        ", but the worktree is " + (shape->shallow ? "shallow" : "full") +
                        " with " + std::to_string(shape->commit_count) + " commit(s) and " +
                        std::to_string(shape->tag_count) + " tag(s)");
      return;
    }
    services.log("actions/checkout skipped: the host clone matches fetch-depth " +
                 std::to_string(depth));
  }
};

}  // namespace

REVIEWER_PLUGIN(Checkout, kClaim);
