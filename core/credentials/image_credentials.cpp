#include "core/credentials/image_credentials.h"

#include <fcntl.h>

#include <algorithm>

#include "core/credentials/file_walk.h"
#include "core/util/environ.h"
#include "core/util/file_read.h"

namespace reviewer::credentials {
namespace {

constexpr std::string_view kSystemTrees[] = {"/bin",   "/sbin",  "/usr",    "/lib",
                                             "/lib32", "/lib64", "/libx32", "/dev",
                                             "/proc",  "/sys",   "/boot"};

// Not walked from "/": the kernel's views (/proc, /sys, /dev: no file of the image, and reading
// them can block or never end), the pull request's clone at /workspace (the adversary's own bytes,
// mounted over the image's directory) and the review's scratch /tmp/review (the launcher's, on the
// sandbox's fresh /tmp). HOME below /tmp/review is still checked as a home.
constexpr const char* kSkippedTrees[] = {"/proc", "/sys", "/dev", "/workspace", "/tmp/review"};

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (item.starts_with('/') && std::find(list.begin(), list.end(), item) == list.end()) {
    list.push_back(item);
  }
}

void add_variable(std::vector<std::string>& list, const std::vector<ScanEnvironment>& envs,
                  const char* name) {
  for (const auto& env : envs) {
    if (auto it = env.vars.find(name); it != env.vars.end()) {
      add_unique(list, it->second);
    }
  }
}

}  // namespace

std::vector<std::string> passwd_homes(std::string_view passwd) {
  std::vector<std::string> homes;
  std::size_t start = 0;
  while (start < passwd.size()) {
    auto end = passwd.find('\n', start);
    auto line = passwd.substr(start, end == std::string_view::npos ? end : end - start);
    std::size_t field = 0;
    std::size_t at = 0;
    while (field < 5 && at != std::string_view::npos) {
      at = line.find(':', at);
      at = at == std::string_view::npos ? at : at + 1;
      ++field;
    }
    if (at != std::string_view::npos) {
      add_unique(homes, std::string(line.substr(at, line.find(':', at) - at)));
    }
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  return homes;
}

bool is_system_tree(std::string_view dir) {
  while (dir.size() > 1 && dir.ends_with('/')) {
    dir.remove_suffix(1);
  }
  if (dir == "/") {
    return true;
  }
  return std::any_of(std::begin(kSystemTrees), std::end(kSystemTrees), [&](std::string_view t) {
    return dir == t || (dir.starts_with(t) && dir[t.size()] == '/');
  });
}

ScanRoots image_scan_roots(const std::vector<ScanEnvironment>& environments) {
  ScanRoots roots;
  add_variable(roots.homes, environments, "HOME");
  add_unique(roots.homes, "/root");
  for (const auto& name : names_in_directory("/home")) {
    add_unique(roots.homes, "/home/" + name);
  }
  if (auto passwd = util::read_regular_file(AT_FDCWD, "/etc/passwd", {kScanMaxFileBytes, true})) {
    for (const auto& home : passwd_homes(*passwd)) {
      add_unique(roots.homes, home);
    }
  }
  add_variable(roots.config_homes, environments, "XDG_CONFIG_HOME");
  roots.system_dirs = {"/etc"};
  roots.runtime_dirs = {"/run", "/var/run"};
  add_variable(roots.runtime_dirs, environments, "XDG_RUNTIME_DIR");
  for (const auto& home : roots.homes) {
    if (!is_system_tree(home)) {
      add_unique(roots.content_trees, home);
    }
  }
  for (const auto& dir : roots.config_homes) {
    add_unique(roots.content_trees, dir);
  }
  add_unique(roots.content_trees, "/etc");
  // Then everything else the sandbox's user can read, after the homes so that they are walked with
  // their own depth bound.
  add_unique(roots.content_trees, "/");
  roots.skipped_trees.assign(std::begin(kSkippedTrees), std::end(kSkippedTrees));
  return roots;
}

util::Status find_image_credentials(char** process_env, const std::string& init_environ) {
  std::vector<ScanEnvironment> envs(2);
  envs[0].whose = "the launcher";
  envs[0].vars = util::environ_map(process_env);
  envs[1].whose = "PID 1";
  envs[1].vars = util::parse_environ(init_environ);
  return util::status_of(scan_for_credentials(image_scan_roots(envs), envs).findings);
}

}  // namespace reviewer::credentials
