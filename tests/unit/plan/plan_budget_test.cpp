// The planner's own amplifiers (issue 37): what one plan may hold, whatever the workflow makes it
// copy. Every workflow here is within the YAML bounds and builds nothing big in an expression;
// before plan-too-large each took from 60 MB to 750 MB to plan.
#include <gtest/gtest.h>

#include <string>

#include "core/plan/plan_budget.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;
using testing::plan_text;

const std::string kF = ".github/workflows/ci.yml";

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += s;
  }
  return out;
}

// `jobs` jobs j0, j1, ... and `build` last, each needing the one before and checking out.
std::string needs_chain(int jobs) {
  std::string out = "jobs:\n";
  for (int i = 0; i < jobs; ++i) {
    out += i + 1 == jobs ? "  build:\n" : "  j" + std::to_string(i) + ":\n";
    if (i > 0) {
      out += "    needs: j" + std::to_string(i - 1) + "\n";
    }
    out += "    runs-on: ubuntu-latest\n    steps:\n      - uses: " + std::string(kCheckout) + "\n";
  }
  return out;
}

// The refusal of a plan that `what` takes past the bound at `position` ("line:column").
std::string crossed(const std::string& position, const std::string& what) {
  return kF + ":" + position + ": plan-too-large: " + what +
         " takes the plan past 16777216 bytes (8192 a job, 1024 a step, 512 an env or input "
         "entry, and twice their text: the workflow env counts in every job it is copied into, "
         "each step once more as written); the review plans at most that much\n";
}

// The plan-too-large lines of a planning pass's refusals.
std::string budget_lines(const std::string& refusals) {
  std::string out;
  for (std::size_t at = 0; at < refusals.size();) {
    const std::size_t end = refusals.find('\n', at);
    const std::string line = refusals.substr(at, end - at + 1);
    if (line.find(": plan-too-large: ") != std::string::npos) {
      out += line;
    }
    at = end == std::string::npos ? refusals.size() : end + 1;
  }
  return out;
}

// A 100 KB literal in the workflow env, copied into each of 1,000 needed jobs: 100 MB of copies
// (120 MB) from 234 KB.
TEST(PlanBudget, TheWorkflowEnvCountsInEveryJobItIsCopiedInto) {
  const std::string wf =
      "on: pull_request\nenv:\n  E: " + std::string(100'000, 'x') + "\n" + needs_chain(1000);
  ASSERT_LT(wf.size(), 256u * 1024);
  EXPECT_EQ(budget_lines(plan_text(wf)), crossed("370:5", "job 'j73'"));
}

// Seven mebibyte values (all the expression bound lets one plan build) copied into 100 jobs:
// 750 MB from 15 KB.
TEST(PlanBudget, ValuesExpressionsBuiltCountInEveryJobToo) {
  const std::string mebibyte = [] {
    std::string e = "'x'";
    for (int i = 0; i < 5; ++i) {
      e = "format('" + repeat("{0}", 16) + "', " + e + ")";
    }
    return e;
  }();
  std::string wf = "on: pull_request\nenv:\n";
  for (int i = 0; i < 7; ++i) {
    wf += "  E" + std::to_string(i) + ": ${{ " + mebibyte + " }}\n";
  }
  wf += needs_chain(100);
  EXPECT_EQ(budget_lines(plan_text(wf)), crossed("16:5", "job 'j1'"));
}

// As many steps as the node bound admits (16,600 aliases of a `run: echo hi` step, 180 KB): 79 MB.
TEST(PlanBudget, EveryStepCounts) {
  const std::string wf =
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
      "    steps:\n      - uses: " +
      std::string(kCheckout) + "\n      - &s\n        run: echo hi\n" +
      repeat("      - *s\n", 16'599);
  ASSERT_LT(wf.size(), 256u * 1024);
  EXPECT_EQ(budget_lines(plan_text(wf)), crossed("14595:9", "step 14589 of job 'build'"));
}

// As many jobs as the node bound admits (4,500 aliases of one job, all needed by `build`, 79 KB):
// 53 MB, and 84 MB as JSON.
TEST(PlanBudget, EveryJobCounts) {
  std::string wf =
      "on: pull_request\njobs:\n  j0: &j\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: " +
      std::string(kCheckout) + "\n";
  std::string needs = "j0";
  for (int i = 1; i < 4500; ++i) {
    wf += "  j" + std::to_string(i) + ": *j\n";
    needs += ",j" + std::to_string(i);
  }
  wf += "  build:\n    runs-on: ubuntu-latest\n    needs: [" + needs +
        "]\n    steps:\n      - uses: " + kCheckout + "\n";
  EXPECT_EQ(budget_lines(plan_text(wf)), crossed("1178:10", "job 'j1172'"));
}

// A workflow env of 16,500 names copied into two jobs: 112 MB as JSON (`--format json`) before
// entries were counted as records; in one job it is planned.
TEST(PlanBudget, TheNamesOfACopiedEnvCount) {
  std::string env = "on: pull_request\nenv:\n";
  for (int i = 0; i < 16'500; ++i) {
    env += "  N" + std::to_string(i) + ": v\n";
  }
  EXPECT_EQ(plan_text(env + needs_chain(1)), "(planned)\n");
  EXPECT_EQ(budget_lines(plan_text(env + needs_chain(2))), crossed("16509:5", "job 'build'"));
}

// Far more than any real workflow is planned: 2,000 steps in 50 jobs, each with 10 KB of env
// (the corpus's largest workflow has 79 steps in 15 jobs).
TEST(PlanBudget, ALargePlanIsWellWithinTheBound) {
  std::string wf = "on: pull_request\nenv:\n  E: " + std::string(10'000, 'x') + "\njobs:\n";
  for (int i = 0; i < 50; ++i) {
    wf += (i + 1 == 50 ? std::string("  build:\n") : "  j" + std::to_string(i) + ":\n") +
          (i > 0 ? "    needs: j" + std::to_string(i - 1) + "\n" : "") +
          "    runs-on: ubuntu-latest\n    steps:\n      - uses: " + kCheckout + "\n" +
          repeat("      - run: make test\n", 39);
  }
  EXPECT_EQ(plan_text(wf), "(planned)\n");
}

TEST(PlanBudget, ChargesUntilTheBoundAndRefusesOnce) {
  Findings f;
  PlanBudget budget(f);
  const util::SourceLocation at{"ci.yml", 3, 4};
  EXPECT_TRUE(budget.charge(kMaxPlannedBytes - 3, 1, "job 'a'", at));  // text counts twice
  EXPECT_TRUE(budget.charge(1, 0, "job 'b'", at));
  EXPECT_FALSE(budget.exceeded());
  EXPECT_FALSE(budget.charge(0, 1, "job 'c'", at));
  EXPECT_TRUE(budget.exceeded());
  EXPECT_FALSE(budget.charge(0, 0, "job 'd'", at));
  const auto refusals = f.take();
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].rule, "plan-too-large");
  EXPECT_EQ(refusals[0].message.substr(0, 36), "job 'c' takes the plan past 16777216");
}

}  // namespace
}  // namespace reviewer::plan

namespace reviewer::plan {
namespace {

// One refused step repeated by aliases was a refusal each time: 14,000 of them took 91 MiB as
// SARIF. A pass lists the first 1,000 and says it left out the rest.
TEST(PlanBudget, RefusalsAreListedUpToABound) {
  const std::string wf =
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
      "    steps:\n      - uses: " +
      std::string(testing::kCheckout) + "\n      - &s\n        uses: " + testing::kCheckout + "\n" +
      repeat("      - *s\n", 2999);
  testing::Planned r;
  testing::plan_text(wf, "build", "main", &r);
  ASSERT_EQ(r.refusals.size(), kMaxListedRefusals + 1);
  EXPECT_EQ(r.refusals[kMaxListedRefusals - 1].rule, "checkout-not-first");
  EXPECT_EQ(report::to_text(r.refusals.back()),
            kF + ":1008:9: too-many-refusals: more than 1000 refusals; the review lists the first "
                 "1000 and leaves out the rest");
}

TEST(PlanBudget, RefusalsLeftOutStillCount) {
  Findings f;
  for (std::size_t i = 0; i < kMaxListedRefusals + 5; ++i) {
    f.refuse("invalid-step", "x", util::SourceLocation{"ci.yml", 1, 1});
  }
  EXPECT_EQ(f.size(), kMaxListedRefusals + 5);  // what callers compare before and after
  EXPECT_EQ(f.take().size(), kMaxListedRefusals + 1);
}

}  // namespace
}  // namespace reviewer::plan
