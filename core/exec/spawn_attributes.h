#pragma once

#include <spawn.h>

#include "core/exec/child.h"

namespace reviewer::exec {

// posix_spawn's two attribute objects as ChildOptions asks for them, with what every child gets:
// stdin from /dev/null, no descriptor above stderr, an empty signal mask, every signal at its
// default action, and a process group (or session) of its own. Destroyed with this object.
class SpawnAttributes {
 public:
  // `pipe_write_end` is the child's end of the output pipe, for a stream given Output::pipe().
  SpawnAttributes(const ChildOptions& options, int pipe_write_end);
  ~SpawnAttributes();
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;

  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attr() const { return &attr_; }

 private:
  posix_spawn_file_actions_t actions_{};
  posix_spawnattr_t attr_{};
};

}  // namespace reviewer::exec
