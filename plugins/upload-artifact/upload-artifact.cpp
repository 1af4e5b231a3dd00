// actions/upload-artifact: reviewed refs are listed; which inputs keep a skip equivalent is not
// decided yet (issue 7), so every step is refused by name rather than approximated.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer_reviewed_ref kRefs[] = {
    {"bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"},
    {"b7c566a772e6b6bfb58ed0dc250532a479d7789f", "v6.0.0"},
    {"330a01c490aca151604b8cf639adc76d48f6c5d4", "v5.0.0"},
    {"ea165f8d65b6e75b540449e92b4886f43607fa02", "v4.6.2"},
};
constexpr reviewer_claim kClaims[] = {{"actions/upload-artifact", kRefs, std::size(kRefs)}};

class UploadArtifact final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    decision.refuse(
        "not-yet-supported",
        "actions/upload-artifact is not stood in for yet: its inputs have not been reviewed",
        step.uses_location());
  }
  void execute(const reviewer::sdk::StepView&, reviewer::sdk::Services& services) override {
    services.fail("not-yet-supported", "actions/upload-artifact cannot be executed");
  }
};

}  // namespace

REVIEWER_PLUGIN("upload-artifact", UploadArtifact, kClaims);
