// setup-node's release aliases in the sandbox: the launcher resolves them with the trusted
// matrix's schedule on the day it runs, as the host did, and holds the sandbox's image to that
// line. The e2e image is the Node 22 one: lts/jod is its line; lts/* (Node 26 from 2026-10-28)
// is not, and the example's engines.node 22.x says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;

std::string setup_node(const std::string& spec) {
  return "      - uses: actions/setup-node@v6\n        with:\n          node-version: " + spec +
         "\n          package-manager-cache: false\n      - run: node --version\n";
}

TEST_F(LauncherE2E, AnLtsCodenameRunsInTheImageOfItsLine) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", setup_node("lts/jod"))));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("node lts/jod is the image's node"));
  EXPECT_THAT(r.output, HasSubstr("] v22."));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, LtsStarIsTheNewestLtsLineAndNotThisImage) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", setup_node("lts/*"))));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  // On or after 2026-10-28 the newest LTS line is 26 (Lithium); this machine's date is later.
  // The example's package.json says engines.node 22.x, which is reported, not enforced: the
  // pin alone selects Node 26's image, which this sandbox is not.
  EXPECT_EQ(r.last_line().rfind("review-build-refused: other-image: the declarations select image "
                                "reviewer-node26",
                                0),
            0U)
      << r.output;
}

}  // namespace
}  // namespace reviewer::e2e
