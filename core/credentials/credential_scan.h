#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/report/refusal.h"

namespace reviewer::credentials {

// Files larger than this are not read for tokens; trees are not opened deeper than this below
// their root. A credential file named in ScanRoots is checked wherever it is. 32 levels reach the
// deepest node_modules of the images (npm's own is 12 below /) with room to spare.
inline constexpr std::size_t kScanMaxFileBytes = std::size_t{1} << 20;
inline constexpr int kScanMaxDepth = 32;

// The content walk's bounds in total. A walk that reaches one stops and is a finding itself: what
// it did not read cannot be shown clean. The defaults are over ten times what the ~600 MB images
// need (about 14,000 entries and 200 MB of files up to 1 MiB).
struct ScanLimits {
  std::size_t max_entries = 200'000;               // directory entries visited
  std::size_t max_bytes = std::size_t{2} << 30;    // bytes read for tokens
  std::chrono::milliseconds max_duration{30'000};  // from the first entry visited
};

// Where the scan looks (image_credentials.h computes them for the running image).
struct ScanRoots {
  // Home directories: .git-credentials, .gitconfig, .npmrc, .ssh/id_*, .netrc, ... below each.
  std::vector<std::string> homes;
  // $XDG_CONFIG_HOME values: git/config, git/credentials, gh/hosts.yml, containers/auth.json.
  std::vector<std::string> config_homes;
  // /etc: gitconfig and npmrc.
  std::vector<std::string> system_dirs;
  // /run, /var/run, $XDG_RUNTIME_DIR: sockets named docker.sock anywhere below (bounded),
  // containers/auth.json and containers/*/auth.json.
  std::vector<std::string> runtime_dirs;
  // Every regular file below these (bounded) is read for token shapes and private keys; a socket
  // named docker.sock and a package-manager configuration or credential file (any npmrc, .yarnrc,
  // .yarnrc.yml, bunfig.toml, .pypirc, .netrc, .git-credentials, .docker/config.json,
  // gh/hosts.yml, containers/auth.json) among them is checked as in a home.
  std::vector<std::string> content_trees;
  // Directories the content walk does not enter (the roots above are still read when named).
  std::vector<std::string> skipped_trees;
  ScanLimits limits;
};

// An environment to scan: `whose` names it in messages ("the launcher", "PID 1").
struct ScanEnvironment {
  std::string whose;
  std::map<std::string, std::string> vars;
};

struct CredentialScan {
  report::Refusals findings;  // rule image-credential, each naming a path or a variable
  std::size_t files_read = 0;
  std::size_t bytes_read = 0;
  std::size_t directories_read = 0;
};

// Every credential shared/reference/env-policy.md lists that the roots and environments hold, as
// one image-credential refusal each, in a stable order without duplicates. A message names the
// file (and line) or variable and what it holds; a token is named by its kind and at most its
// public keyword (`ghp_…`), never its value. A credential file (.git-credentials, .ssh/id_*,
// .netrc, ...) is a finding when it exists at all; a configuration that may hold one (.gitconfig,
// .npmrc, ...) when it does, when it is a symbolic link, or when it cannot be read. Any other file
// the scan cannot read is skipped: the build runs as the same user and cannot read it either.
CredentialScan scan_for_credentials(const ScanRoots& roots,
                                    const std::vector<ScanEnvironment>& environments);

}  // namespace reviewer::credentials
