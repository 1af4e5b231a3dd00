#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::exec {

// Where one of a child's output streams goes.
struct Output {
  enum class To { kInherit, kDiscard, kPipe, kFd };
  To to = To::kInherit;
  int fd = -1;  // kFd only: the child gets a copy of this descriptor

  static Output inherit() { return {}; }
  static Output discard() { return {To::kDiscard, -1}; }
  // The write end of one pipe whose read end is Child::output(); stdout and stderr both given
  // pipe() share it.
  static Output pipe() { return {To::kPipe, -1}; }
  static Output to_fd(int descriptor) { return {To::kFd, descriptor}; }
};

// What to start and how. Every child also gets stdin from /dev/null, no descriptor above stderr
// (not even one this process inherited without O_CLOEXEC), an empty signal mask and every
// signal at its default action, and a process group of its own whose id is its pid.
struct ChildOptions {
  // argv[0] is the program: an absolute path, or a name looked up on this process's PATH when
  // search_path is set.
  std::vector<std::string> argv;
  bool search_path = false;
  // Its complete environment, "NAME=value"; nothing of this process's is added.
  std::vector<std::string> env;
  // Its working directory; this process's when empty.
  std::string cwd;
  // A session of its own, not only a process group.
  bool new_session = false;
  Output out;
  Output err;
  // Its end also ends what it left in its process group: killed while its pid, not yet reaped,
  // still holds the group's id, so that the kill cannot reach a group that reused the id.
  bool end_group_at_exit = false;
  // This process becomes a child subreaper (for the rest of its life: the flag is the process's),
  // so what the child leaves behind, even outside its group, is re-parented here; then ending the
  // child (terminate(), the destructor) also kills and reaps every other child of this process
  // and theirs (kill_children.h), for at most 30 s.
  bool subreaper = false;
};

// How a child ended.
struct ExitStatus {
  int code = -1;   // its exit code; -1 when a signal ended it or its end was not seen
  int signal = 0;  // the signal that ended it, if one did

  // The shell's number for it: the exit code, or 128 + the signal (128 when neither is known).
  int shell_status() const { return code >= 0 ? code : 128 + signal; }
};

// One stage of a kill sequence: `signal` to the child's process group, and the next stage
// `grace` later if the child is still there.
struct KillStage {
  int signal = 0;
  std::chrono::milliseconds grace{0};
};

// One process this process started and owns until it is reaped: the one path by which the
// launcher and the host spawn, wait for, kill and reap a process. Never leaves a zombie: a Child
// destroyed while its process runs kills the process group and reaps it (terminate(0)).
class Child {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts `options.argv`; an `io-error` naming argv[0] when it cannot be started.
  static util::Result<Child> spawn(const ChildOptions& options);

  Child(Child&& other) noexcept;
  Child& operator=(Child&&) = delete;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();

  pid_t pid() const { return pid_; }
  // The read end of its output pipe (Output::pipe()), O_CLOEXEC; invalid without one. The caller
  // may take it.
  util::UniqueFd& output() { return output_; }

  // Whether it has ended (then it is reaped), without waiting.
  bool poll();
  // poll(), and reaps every other child of this process that has ended (as a subreaper, the
  // orphans of what it started), so that none stays a zombie. For an owner that reaps every
  // child of this process itself and has no other Child running (the supervisor).
  bool poll_with_orphans();
  // Waits until it ends or `deadline` passes; true once it ended. Wakes at its end (a pidfd),
  // not on a tick.
  bool wait_until(Clock::time_point deadline);
  // How it ended, once it did.
  const std::optional<ExitStatus>& exit_status() const { return exit_; }

  // Starts a kill sequence on its process group, replacing one under way: the first stage's
  // signal now, each next one once the grace of the one before ran out with the child still
  // there. Nothing is sent once it has ended.
  void begin_kill(std::vector<KillStage> stages);
  // When the kill sequence's next signal is due; Clock::time_point::max() when none is.
  Clock::time_point next_kill() const;
  // Sends the kill sequence's next signal if it is due.
  void continue_kill();

  // Ends it: SIGTERM to its process group and SIGKILL `grace` later if it is still there (SIGKILL
  // at once when `grace` is zero), then reaps it; as a subreaper also ends every other child of
  // this process. Returns how it ended, at once if it already had.
  ExitStatus terminate(std::chrono::milliseconds grace);

 private:
  Child(pid_t pid, util::UniqueFd output, const ChildOptions& options);
  // Reaps it if it has ended, waiting for that unless `options` holds WNOHANG; true once reaped.
  bool reap(int options);
  void record(int wait_status);

  pid_t pid_ = -1;
  util::UniqueFd output_;
  util::UniqueFd exited_;  // a pidfd: readable once it has ended
  bool end_group_at_exit_ = false;
  bool subreaper_ = false;
  std::optional<ExitStatus> exit_;
  std::vector<KillStage> stages_;
  std::size_t next_stage_ = 0;
  Clock::time_point stage_due_{};
};

}  // namespace reviewer::exec
