#include "core/launch/launcher_arguments.h"

namespace reviewer::launch {

util::Result<Mode> parse_arguments(const std::vector<std::string>& args) {
  if (args.empty()) {
    return Mode::kBuild;
  }
  if (args.size() == 1 && args[0] == "--self-check") {
    return Mode::kSelfCheck;
  }
  std::string shown;
  for (const auto& a : args) {
    shown += (shown.empty() ? "" : " ") + a;
  }
  return util::refusal("launcher-arguments",
                       "the launcher takes no arguments but --self-check; the assignment "
                       "comes only from the sandbox's creation environment (got: " +
                           shown.substr(0, 200) + ")");
}

}  // namespace reviewer::launch
