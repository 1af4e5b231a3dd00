// A well-formed plugin claiming `test-org/good`, whose static constructor leaves a marker file
// when REVIEWER_TEST_MARKER names one: loading it runs its code, which proves the marker check
// in the refusal tests is live.
#include <reviewer/sdk/plugin.hpp>

#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void leave_marker() {
  if (const char* path = std::getenv("REVIEWER_TEST_MARKER")) {
    if (FILE* f = std::fopen(path, "w")) {
      std::fclose(f);
    }
  }
}

constexpr reviewer::sdk::Claim kClaim{"test-org/good",
                                      {{"0123456789abcdef0123456789abcdef01234567", "v1.0.0"}}};

class Good final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& d) override {
    d.skip("nothing to do");
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services&) override {}
};

}  // namespace

// Named explicitly: good_misnamed is this source built under another file name.
REVIEWER_PLUGIN_NAMED(PLUGIN_NAME, Good, kClaim);
