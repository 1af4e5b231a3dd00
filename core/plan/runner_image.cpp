#include "core/plan/runner_image.h"

#include <algorithm>
#include <iterator>

namespace reviewer::plan {

bool is_runner_label(std::string_view label) {
  return std::find(std::begin(kRunnerImage.labels), std::end(kRunnerImage.labels), label) !=
         std::end(kRunnerImage.labels);
}

plugins::RuntimePin runner_default_node(const util::SourceLocation& runs_on) {
  return plugins::RuntimePin{"node", std::string(kRunnerImage.node_line), runs_on,
                             "the runner's default Node " + std::string(kRunnerImage.node_line) +
                                 " (" + std::string(kRunnerImage.image) + ", " +
                                 std::string(kRunnerImage.node_since) + ")"};
}

}  // namespace reviewer::plan
