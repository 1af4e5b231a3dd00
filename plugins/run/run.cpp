// `run:` steps: planned as run, executed by asking the host's supervisor to run the script under
// /bin/bash the way CI does. The plugin never spawns anything itself.
#include <reviewer/sdk/plugin.hpp>

namespace {

constexpr reviewer::sdk::Claim kClaim{"run"};

class Run final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView&, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    // The core has already refused expressions, other shells and bad timeouts.
    decision.run();
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    reviewer::sdk::RunRequest request;
    request.script = step.run();
    request.shell = step.shell().value_or("");
    request.working_directory = step.working_directory().value_or("");
    request.timeout_minutes = step.timeout_minutes().value_or(-1);
    request.env = step.raw().env;
    request.env_count = step.raw().env_count;
    services.run_script(request);
  }
};

}  // namespace

REVIEWER_PLUGIN(Run, kClaim);
