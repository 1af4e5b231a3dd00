#include "core/exec/spawn_attributes.h"

#include <fcntl.h>
#include <signal.h>

#include "core/util/check.h"

namespace reviewer::exec {
namespace {

void route(posix_spawn_file_actions_t* actions, const Output& output, int stream,
           int pipe_write_end) {
  switch (output.to) {
    case Output::To::kInherit:
      break;
    case Output::To::kDiscard:
      posix_spawn_file_actions_addopen(actions, stream, "/dev/null", O_WRONLY, 0);
      break;
    case Output::To::kPipe:
      posix_spawn_file_actions_adddup2(actions, pipe_write_end, stream);
      break;
    case Output::To::kFd:
      posix_spawn_file_actions_adddup2(actions, output.fd, stream);
      break;
  }
}

}  // namespace

SpawnAttributes::SpawnAttributes(const ChildOptions& options, int pipe_write_end) {
  REVIEWER_CHECK(posix_spawn_file_actions_init(&actions_) == 0);
  REVIEWER_CHECK(posix_spawnattr_init(&attr_) == 0);
  posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0);
  route(&actions_, options.out, 1, pipe_write_end);
  route(&actions_, options.err, 2, pipe_write_end);
  // Every descriptor above stderr is closed in the child, including any this process itself
  // inherited without O_CLOEXEC from whoever started it.
  posix_spawn_file_actions_addclosefrom_np(&actions_, 3);
  if (!options.cwd.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions_, options.cwd.c_str());
  }
  // The launcher and the host block the signals they handle (a signalfd, a waiting thread); a
  // child must start with none blocked and none ignored.
  sigset_t empty;
  sigemptyset(&empty);
  sigset_t defaults;
  sigfillset(&defaults);
  sigdelset(&defaults, SIGKILL);
  sigdelset(&defaults, SIGSTOP);
  posix_spawnattr_setsigmask(&attr_, &empty);
  posix_spawnattr_setsigdefault(&attr_, &defaults);
  // Its own process group (its pid is the group's id), so that a kill reaches everything it
  // started that stayed in the group.
  int flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (options.new_session) {
    flags |= POSIX_SPAWN_SETSID;
  } else {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attr_, 0);
  }
  posix_spawnattr_setflags(&attr_, static_cast<short>(flags));
}

SpawnAttributes::~SpawnAttributes() {
  posix_spawnattr_destroy(&attr_);
  posix_spawn_file_actions_destroy(&actions_);
}

}  // namespace reviewer::exec
