#include "core/host/leftovers.h"

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/exec/host_process.h"
#include "core/host/host_identity.h"

namespace reviewer::host {
namespace {

namespace fs = std::filesystem;

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

void collect_containers(const std::string& engine, std::vector<std::string>& said) {
  auto listed = exec::command_output(
      {engine, "ps", "--all", "--filter", std::string("label=") + kHostLabel, "--format",
       std::string("{{.ID}} {{index .Labels \"") + kHostLabel + "\"}}"});
  if (!listed) {
    said.push_back("gc: cannot list the engine's sandboxes: " + listed.error().message);
    return;
  }
  std::istringstream in(*listed);
  for (std::string id, owner; in >> id >> owner;) {
    if (process_alive(owner)) {
      continue;
    }
    exec::CommandOptions quiet;
    quiet.stdout_file = "/dev/null";
    quiet.quiet_stderr = true;
    auto removed = exec::run_command({engine, "rm", "--force", "--time", "0", id}, quiet);
    said.push_back((removed && removed->status == 0 ? "gc: removed sandbox "
                                                    : "gc: could not remove sandbox ") +
                   id + " of host " + owner + " (gone)");
  }
}

void collect_run_models(std::vector<std::string>& said) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kRunModelSandboxes, ec)) {
    std::istringstream fields(first_line(entry.path()));
    std::string owner, self;
    fields >> owner >> self;
    if (!process_alive(self)) {
      fs::remove(entry.path(), ec);
      continue;
    }
    if (!process_alive(owner)) {
      // The whole process group: bash runs the script's trap only once its foreground command
      // (the launcher's nsenter) has ended, and the host started the script as a group's leader.
      const pid_t pid = std::stoi(self.substr(0, self.find(':')));
      ::kill(::getpgid(pid) == pid ? -pid : pid, SIGTERM);
      said.push_back("gc: ended run-model sandbox " + self + " of host " + owner + " (gone)");
    }
  }
}

void collect_scratch(const std::string& tmp_dir, std::vector<std::string>& said) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(tmp_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kScratchPrefix, 0) != 0 || !entry.is_directory(ec) || entry.is_symlink(ec)) {
      continue;
    }
    const fs::path owner_file = entry.path() / kScratchOwnerFile;
    if (!fs::is_regular_file(fs::symlink_status(owner_file, ec))) {
      continue;  // not a scratch directory of this version's, or one still being made
    }
    const std::string owner = first_line(owner_file);
    if (process_alive(owner)) {
      continue;
    }
    fs::remove_all(entry.path(), ec);
    said.push_back((ec ? "gc: could not remove clone " : "gc: removed clone ") +
                   entry.path().string() + " of host " + owner + " (gone)");
  }
}

}  // namespace

std::vector<std::string> collect_leftovers(const std::string& engine, const std::string& tmp_dir) {
  std::vector<std::string> said;
  if (!engine.empty()) {
    collect_containers(engine, said);
  }
  collect_run_models(said);
  collect_scratch(tmp_dir, said);
  return said;
}

}  // namespace reviewer::host
