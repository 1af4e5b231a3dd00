#pragma once

#include <sys/types.h>

#include <optional>
#include <set>
#include <string>

#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {

// A directory jobs write into that outlives them (/tmp, /var/tmp, /run, the launcher's own
// directories under /tmp). What it held when recorded (its baseline) stays; whatever a job adds
// goes. The launcher's own entry in it is known by identity rather than by name, so a job can
// neither get it removed by renaming it nor pass off an impostor under its name.
class ScratchDir {
 public:
  // Opens `path` (a link is not followed) and records its entries as the baseline. A missing
  // directory gives an empty ScratchDir with nothing to sweep.
  static util::Result<ScratchDir> record(const std::string& path);
  // The same for the open directory `dir`, shown as `path` in errors.
  static util::Result<ScratchDir> record(util::UniqueFd dir, std::string path);
  // Takes `dir` (an open directory shown as `path` in errors) with an empty baseline.
  static ScratchDir adopt_fresh(util::UniqueFd dir, std::string path);

  // Declares `name` (now the directory `dir`) the launcher's own entry: never swept, never part
  // of the baseline, and put back under `name` by restore_own.
  util::Status own(const std::string& name, int dir);
  // Removes every entry that is neither in the baseline nor the launcher's own (under whatever
  // name), without following links. Errors carry cleanup-failed.
  util::Status sweep();
  // Makes `name` the launcher's own entry again: an impostor there is removed and the own entry,
  // if a job renamed it within this directory, renamed back. False when it is nowhere here (a
  // job removed it or moved it elsewhere).
  util::Result<bool> restore_own();

  int fd() const { return fd_.get(); }
  const std::string& path() const { return path_; }

 private:
  struct Identity {
    std::string name;
    dev_t dev = 0;
    ino_t ino = 0;
  };

  ScratchDir(util::UniqueFd dir, std::string path) : fd_(std::move(dir)), path_(std::move(path)) {}
  bool is_own(const std::string& name) const;

  util::UniqueFd fd_;
  std::string path_;
  std::set<std::string> baseline_;
  std::optional<Identity> own_;
};

}  // namespace reviewer::launch
