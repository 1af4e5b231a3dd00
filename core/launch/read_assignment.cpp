#include "core/launch/read_assignment.h"

#include "core/util/environ.h"

namespace reviewer::launch {

util::Result<contract::Assignment> read_assignment(const InitEnvironment& init) {
  auto block = init.read();
  if (!block) {
    return block.error();
  }
  return contract::read_assignment_environment(util::parse_environ(*block),
                                               "in the container init's environment");
}

util::Result<contract::Assignment> read_assignment(const std::string& environ_path) {
  auto init = InitEnvironment::open(environ_path);
  if (!init) {
    return init.error();
  }
  return read_assignment(*init);
}

}  // namespace reviewer::launch
