#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {

inline constexpr const char* kCheckout =
    "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683";
// actions/setup-node v7.0.0, a reviewed release.
inline constexpr const char* kSetupNode =
    "actions/setup-node@820762786026740c76f36085b0efc47a31fe5020";

// A pull_request workflow around `jobs` (each from job()).
inline std::string workflow(const std::string& jobs) {
  return "name: ci\non:\n  pull_request:\n    branches: [main]\njobs:\n" + jobs;
}

// One job that checks out and then runs `steps`; `extra` holds job keys such as `needs:`.
inline std::string job(const std::string& id, const std::string& steps,
                       const std::string& extra = "") {
  return "  " + id + ":\n    runs-on: ubuntu-latest\n" + extra +
         "    steps:\n      - uses: " + kCheckout + "\n" + steps;
}

// A run assigned job `id` of the default workflow.
inline SandboxRun assigned_job(const std::string& id) {
  SandboxRun run;
  run.job = id;
  return run;
}

// Every end-to-end test: skipped, not failed, where namespaces cannot be created.
class LauncherE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!can_run_sandbox()) {
      GTEST_SKIP() << "the run model needs root to create namespaces";
    }
    if (in_image() && run_command(REVIEWER_SOURCE_DIR "/docker/reviewer/engine.sh image inspect "
                                                      "localhost/" REVIEWER_E2E_IMAGE ":latest")
                              .exit_code != 0) {
      GTEST_SKIP() << "localhost/" REVIEWER_E2E_IMAGE
                      ":latest does not exist: the image.build fixture was skipped (see its "
                      "output for why) or this machine has no container engine";
    }
  }
};

}  // namespace reviewer::e2e
