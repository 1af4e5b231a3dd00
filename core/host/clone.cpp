#include "core/host/clone.h"

#include <filesystem>
#include <vector>

#include "core/exec/host_process.h"
#include "core/util/file_read.h"

namespace reviewer::host {
namespace {

namespace fs = std::filesystem;

util::Refusal bad_source(const std::string& message) {
  return util::refusal(util::RefusalKind::kSource, "review-source", message);
}

bool has_control_or_space(const std::string& s) {
  for (unsigned char c : s) {
    if (c <= 0x20 || c == 0x7f) {
      return true;
    }
  }
  return false;
}

// git with the options that keep a clone of untrusted content inert on the host: no hooks, no
// transport that runs a command (ext::), no credential prompt.
std::vector<std::string> git(const std::string& dir, std::vector<std::string> args) {
  std::vector<std::string> argv = {"git",
                                   "-c",
                                   "protocol.ext.allow=never",
                                   "-c",
                                   "core.hooksPath=/dev/null",
                                   "-c",
                                   "init.defaultBranch=review",
                                   "-c",
                                   "advice.detachedHead=false",
                                   "-C",
                                   dir};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

util::Result<bool> run_git(const std::string& dir, std::vector<std::string> args) {
  auto argv = git(dir, std::move(args));
  auto exit = exec::run_command(argv);
  if (!exit) {
    return exit.error();
  }
  if (exit->status != 0) {
    return util::Refusal{
        "host-command",
        exec::command_line(argv) + " exited with status " + std::to_string(exit->status),
        std::nullopt};
  }
  return true;
}

}  // namespace

util::Result<std::string> source_url(const std::string& source) {
  if (source.empty() || source.front() == '-' || has_control_or_space(source)) {
    return bad_source("the repository \"" + source +
                      "\" is not a path or URL (no leading '-', space or control character)");
  }
  std::error_code ec;
  if (fs::is_directory(source, ec)) {
    return "file://" + fs::absolute(source).lexically_normal().string();
  }
  if (source.find("://") != std::string::npos || source.find('@') != std::string::npos) {
    return source;
  }
  return bad_source("the repository \"" + source + "\" is neither a directory nor a URL");
}

util::Result<std::string> committed_file(const std::string& clone, const std::string& path,
                                         std::size_t max_bytes) {
  auto entry = exec::command_output(git(clone, {"ls-tree", "-z", "HEAD", "--", path}));
  if (!entry) {
    return util::refusal(util::kFileReadFailed, entry.error().message);
  }
  // "<mode> <type> <object>\t<path>\0", or nothing when HEAD has no such path.
  const std::string& e = *entry;
  const auto tab = e.find('\t');
  const auto sp1 = e.find(' ');
  const auto sp2 = sp1 == std::string::npos ? sp1 : e.find(' ', sp1 + 1);
  if (tab == std::string::npos || sp2 == std::string::npos || sp2 > tab) {
    return util::refusal(util::kFileMissing, "not in the head commit");
  }
  const std::string mode = e.substr(0, sp1);
  if (mode == "120000") {
    return util::refusal(util::kFileSymlink, "a symbolic link in the head commit");
  }
  if (mode != "100644" && mode != "100755") {
    return util::refusal(util::kFileNotRegular, "not a regular file");
  }
  auto text = exec::command_output(
      git(clone, {"cat-file", "blob", e.substr(sp2 + 1, tab - sp2 - 1)}), max_bytes);
  if (!text) {
    return util::refusal(util::kFileReadFailed, text.error().message);
  }
  return text;
}

util::Result<std::string> committed_workflow(const std::string& clone, const std::string& workflow,
                                             std::size_t max_bytes) {
  auto text = committed_file(clone, workflow, max_bytes);
  if (text) {
    return text;
  }
  const util::SourceLocation at{workflow};
  const util::FileFault code = util::file_fault(text.error());
  if (code == util::FileFault::kMissing) {
    return util::Refusal{"workflow-unreadable", "'" + workflow + "' is not in the head commit", at};
  }
  if (code == util::FileFault::kSymlink) {
    return util::Refusal{"workflow-symlink", "'" + workflow + "' is a symbolic link", at};
  }
  if (code == util::FileFault::kNotRegular) {
    return util::Refusal{"workflow-unreadable", "'" + workflow + "' is not a regular file", at};
  }
  return util::Refusal{"workflow-unreadable",
                       "'" + workflow + "' cannot be read: " + text.error().message, at};
}

util::Result<std::string> make_clone(const std::string& source, const std::string& head,
                                     HistoryShape shape, const std::string& dest) {
  auto url = source_url(source);
  if (!url) {
    return url.error();
  }
  if (!head.empty() &&
      (head.front() == '-' || has_control_or_space(head) || head.find("..") != std::string::npos ||
       head.find(':') != std::string::npos)) {
    return bad_source("--head \"" + head + "\" is not a branch, tag or commit name");
  }
  std::error_code ec;
  if (fs::exists(dest, ec)) {
    return util::Refusal{"host-command", "the clone's directory " + dest + " exists already",
                         std::nullopt};
  }
  fs::create_directories(dest, ec);
  if (ec) {
    return util::Refusal{"host-command", "cannot create " + dest + ": " + ec.message(),
                         std::nullopt};
  }
  const std::string ref = head.empty() ? "HEAD" : head;
  std::vector<std::vector<std::string>> steps = {{"init", "-q"}, {"remote", "add", "origin", *url}};
  if (shape == HistoryShape::kShallow) {
    steps.push_back({"fetch", "-q", "--depth", "1", "--no-tags", "origin", ref});
    steps.push_back({"checkout", "-q", "--detach", "FETCH_HEAD"});
  } else {
    steps.push_back({"fetch", "-q", "origin", ref});
    steps.push_back({"checkout", "-q", "--detach", "FETCH_HEAD"});
    steps.push_back({"fetch", "-q", "--tags", "origin", "+refs/heads/*:refs/remotes/origin/*"});
  }
  for (auto& step : steps) {
    auto done = run_git(dest, std::move(step));
    if (!done) {
      return done.error();
    }
  }
  auto commit = exec::command_output(git(dest, {"rev-parse", "HEAD"}));
  if (!commit) {
    return commit.error();
  }
  std::string sha = *commit;
  while (!sha.empty() && (sha.back() == '\n' || sha.back() == '\r')) {
    sha.pop_back();
  }
  return sha;
}

}  // namespace reviewer::host
