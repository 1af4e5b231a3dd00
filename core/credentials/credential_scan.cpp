#include "core/credentials/credential_scan.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>
#include <string_view>

#include "core/credentials/credential_settings.h"
#include "core/credentials/file_walk.h"
#include "core/credentials/token_shapes.h"
#include "core/util/file_read.h"

namespace reviewer::credentials {
namespace {

// Why a file could not be read, for a finding's parenthesis.
std::string unreadable_because(const util::Refusal& e) {
  return util::file_fault(e) == util::FileFault::kSymlink ? "a symbolic link" : e.message;
}

constexpr const char* kRuleImageCredential = "image-credential";
constexpr int kMaxGitIncludeDepth = 10;  // git's own bound

enum class Check {
  kExists,
  kGitConfig,
  kNpmrc,
  kYarnrc,
  kYarnrcYml,
  kBunfig,
  kGhHosts,
  kRegistryAuth
};

struct Named {
  std::string_view relative;
  Check check;
  std::string_view what;
};

constexpr Named kHomeFiles[] = {
    {".git-credentials", Check::kExists, "a git credential store"},
    {".config/git/credentials", Check::kExists, "a git credential store"},
    {".gitconfig", Check::kGitConfig, "a git configuration"},
    {".config/git/config", Check::kGitConfig, "a git configuration"},
    {".config/gh/hosts.yml", Check::kGhHosts, "a GitHub CLI hosts file"},
    {".npmrc", Check::kNpmrc, "an npm configuration"},
    {".docker/config.json", Check::kRegistryAuth, "a Docker client configuration"},
    {".dockercfg", Check::kExists, "a legacy Docker credentials file"},
    {".config/containers/auth.json", Check::kRegistryAuth, "a container registry auth file"},
    {".netrc", Check::kExists, "a netrc login file"},
    {"_netrc", Check::kExists, "a netrc login file"},
    {".aws/credentials", Check::kExists, "an AWS credentials file"},
    {".kube/config", Check::kExists, "a Kubernetes kubeconfig"},
    {".pypirc", Check::kExists, "a PyPI upload configuration"},
    {".cargo/credentials", Check::kExists, "a Cargo registry token file"},
    {".cargo/credentials.toml", Check::kExists, "a Cargo registry token file"},
    {".vault-token", Check::kExists, "a Vault token file"},
};

constexpr Named kConfigHomeFiles[] = {
    {"git/credentials", Check::kExists, "a git credential store"},
    {"git/config", Check::kGitConfig, "a git configuration"},
    {"gh/hosts.yml", Check::kGhHosts, "a GitHub CLI hosts file"},
    {"containers/auth.json", Check::kRegistryAuth, "a container registry auth file"},
};

constexpr Named kSystemFiles[] = {
    {"gitconfig", Check::kGitConfig, "a git configuration"},
    {"npmrc", Check::kNpmrc, "an npm configuration"},
};

// Package-manager configurations and credential files checked wherever the content walk meets
// them: npm reads $PREFIX/etc/npmrc and <npm>/npmrc, and every tool reads its file from any
// directory HOME or the working directory may name. `parent` is the directory's name the file
// must stand in, where the file's own name is too common to mean a credential alone.
struct NamedAnywhere {
  std::string_view parent;  // empty: any
  Named named;
};
constexpr NamedAnywhere kAnywhereFiles[] = {
    {"", {"npmrc", Check::kNpmrc, "an npm configuration"}},
    {"", {".npmrc", Check::kNpmrc, "an npm configuration"}},
    {"", {".yarnrc", Check::kYarnrc, "a Yarn configuration"}},
    {"", {".yarnrc.yml", Check::kYarnrcYml, "a Yarn configuration"}},
    {"", {"bunfig.toml", Check::kBunfig, "a Bun configuration"}},
    {"", {".pypirc", Check::kExists, "a PyPI upload configuration"}},
    {"", {".netrc", Check::kExists, "a netrc login file"}},
    {"", {"_netrc", Check::kExists, "a netrc login file"}},
    {"", {".git-credentials", Check::kExists, "a git credential store"}},
    {".docker", {"config.json", Check::kRegistryAuth, "a Docker client configuration"}},
    {"gh", {"hosts.yml", Check::kGhHosts, "a GitHub CLI hosts file"}},
    {"containers", {"auth.json", Check::kRegistryAuth, "a container registry auth file"}},
};

// Files whose type the token search is not run on, by their first bytes. Compressed streams
// (gzip, xz, zstd, bzip2: most of /usr/share/doc and the man pages): a token inside one does not
// have its shape, so reading them cannot find one. ELF executables and shared objects: machine
// code the build runs, not configuration a tool reads a login from; their string tables hold PEM
// headers and test vectors (libmbedcrypto's `-----BEGIN PRIVATE KEY-----`) that would fail every
// image, and they are a third of the bytes below 1 MiB. A token compiled into a binary is a known
// limit (docs/threat-model.md).
constexpr std::string_view kSkippedMagic[] = {{"\x1f\x8b", 2},
                                              {"\xfd"
                                               "7zXZ\0",
                                               6},
                                              {"\x28\xb5\x2f\xfd", 4},
                                              {"BZh", 3},
                                              {"\x7f"
                                               "ELF",
                                               4}};
constexpr std::size_t kMagicBytes = 6;

constexpr Named kRuntimeAuth = {"auth.json", Check::kRegistryAuth,
                                "a container registry auth file"};
constexpr std::string_view kSshKey = "an SSH private key";
constexpr std::string_view kDockerSocket = "a Docker socket";

// Variables that are credentials whatever their value looks like.
struct CredentialVariable {
  std::string_view name;
  std::string_view what;
};
constexpr CredentialVariable kCredentialVariables[] = {
    {"GH_TOKEN", "a GitHub token variable"},
    {"GITHUB_TOKEN", "a GitHub token variable"},
    {"GH_ENTERPRISE_TOKEN", "a GitHub token variable"},
    {"GITHUB_ENTERPRISE_TOKEN", "a GitHub token variable"},
    {"NODE_AUTH_TOKEN", "an npm token variable"},
    {"NPM_TOKEN", "an npm token variable"},
    {"ACTIONS_RUNTIME_TOKEN", "a GitHub Actions token variable"},
    {"ACTIONS_ID_TOKEN_REQUEST_TOKEN", "a GitHub Actions token variable"},
    {"AWS_ACCESS_KEY_ID", "an AWS credential variable"},
    {"AWS_SECRET_ACCESS_KEY", "an AWS credential variable"},
    {"AWS_SESSION_TOKEN", "an AWS credential variable"},
    {"VAULT_TOKEN", "a Vault token variable"},
    {"SSH_AUTH_SOCK", "an SSH agent socket"},
};

std::string join(const std::string& dir, std::string_view relative) {
  return dir.ends_with('/') ? dir + std::string(relative) : dir + "/" + std::string(relative);
}

std::string parent_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

class Scanner {
 public:
  void environment(const ScanEnvironment& env) {
    for (const auto& [name, value] : env.vars) {
      const std::string variable = "environment variable " + name + " of " + env.whose;
      auto tokens = find_tokens(value);
      for (const auto& t : tokens) {
        add(variable + " holds " + std::string(t.label) + " (" + std::string(t.kind) +
            "): " + t.shown);
      }
      auto known = std::find_if(std::begin(kCredentialVariables), std::end(kCredentialVariables),
                                [&n = name](const CredentialVariable& v) { return v.name == n; });
      if (tokens.empty() && !value.empty() && known != std::end(kCredentialVariables)) {
        add(variable + " is set: " + std::string(known->what));
      }
    }
  }

  void named_files(const std::string& dir, const Named* first, const Named* last,
                   const std::string& home) {
    for (const Named* n = first; n != last; ++n) {
      named(join(dir, n->relative), *n, home);
    }
  }

  // Every .ssh/id_* but the public halves (id_*.pub).
  void ssh_keys(const std::string& home) {
    const std::string dir = join(home, ".ssh");
    for (const auto& name : names_in_directory(dir)) {
      if (name.starts_with("id_") && !name.ends_with(".pub")) {
        named(join(dir, name), Named{name, Check::kExists, kSshKey}, home);
      }
    }
  }

  void runtime_dir(const std::string& dir) {
    const std::string containers = join(dir, "containers");
    named(join(containers, "auth.json"), kRuntimeAuth, "");
    for (const auto& name : names_in_directory(containers)) {
      named(join(join(containers, name), "auth.json"), kRuntimeAuth, "");
    }
    out_.directories_read +=
        walk_tree(dir, kScanMaxDepth, walked_for_sockets_, [&](const WalkEntry& e) {
          docker_socket(e);
          return true;
        });
  }

  void skip_tree(const std::string& dir) { mark_walked(dir, walked_for_content_); }

  void content_tree(const std::string& root, const ScanLimits& limits) {
    out_.directories_read +=
        walk_tree(root, kScanMaxDepth, walked_for_content_, [&](const WalkEntry& e) {
          if (!within(limits, 0)) {
            return false;
          }
          ++entries_;
          docker_socket(e);
          if (const Named* n = named_anywhere(e)) {
            named(e.path, *n, "");
          }
          if (!S_ISREG(e.st.st_mode) ||
              static_cast<std::size_t>(e.st.st_size) > kScanMaxFileBytes ||
              read_.contains(e.path)) {
            return true;
          }
          if (!within(limits, static_cast<std::size_t>(e.st.st_size))) {
            return false;
          }
          struct stat st {};
          auto fd = util::open_regular_file(e.dir_fd, e.name, false, st);
          if (!fd || skipped_by_type(fd->get())) {
            return true;
          }
          if (auto text = util::read_open_file(fd->get(), st, {kScanMaxFileBytes})) {
            tokens_in(e.path, *text);
          }
          return true;
        });
  }

  CredentialScan finish() { return std::move(out_); }

 private:
  void add(std::string message) {
    if (messages_.insert(message).second) {
      out_.findings.push_back(report::Refusal{kRuleImageCredential, std::move(message), {}});
    }
  }

  void docker_socket(const WalkEntry& e) {
    if (std::strcmp(e.name, "docker.sock") != 0) {
      return;
    }
    if (S_ISSOCK(e.st.st_mode)) {
      add("'" + e.path + "' is " + std::string(kDockerSocket));
    } else if (S_ISLNK(e.st.st_mode)) {
      add("'" + e.path + "' is a symbolic link named like " + std::string(kDockerSocket));
    }
  }

  // A named file is looked up as the tool that reads it would (links before its last component
  // followed), but never through a link at the name itself: that link is the finding.
  void named(const std::string& path, const Named& n, const std::string& home) {
    if (!checked_.insert(path).second) {
      return;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      return;  // absent, or in a directory this user cannot search (nor can the build)
    }
    const std::string quoted = "'" + path + "'";
    if (S_ISLNK(st.st_mode)) {
      add(quoted + " is a symbolic link named like " + std::string(n.what));
      return;
    }
    if (n.check == Check::kExists) {
      add(quoted + " is " + std::string(n.what));
      return;
    }
    auto text = util::read_regular_file(AT_FDCWD, path, {kScanMaxFileBytes});
    if (!text) {
      add(quoted + " is " + std::string(n.what) + " that cannot be read (" +
          unreadable_because(text.error()) + "), so it cannot be shown to hold no credential");
      return;
    }
    settings_in(path, *text, n.check, home, 0);
  }

  void settings_in(const std::string& path, std::string_view text, Check check,
                   const std::string& home, int include_depth) {
    tokens_in(path, text);
    std::vector<std::string> includes;
    std::vector<CredentialSetting> found;
    switch (check) {
      case Check::kGitConfig:
        found = git_config_settings(text, &includes);
        break;
      case Check::kNpmrc:
        found = npmrc_settings(text);
        break;
      case Check::kYarnrc:
        found = yarnrc_settings(text);
        break;
      case Check::kYarnrcYml:
        found = yarnrc_yml_settings(text);
        break;
      case Check::kBunfig:
        found = bunfig_settings(text);
        break;
      case Check::kGhHosts:
        found = gh_hosts_settings(text);
        break;
      case Check::kRegistryAuth:
        found = registry_auth_settings(text);
        break;
      case Check::kExists:
        break;
    }
    for (const auto& s : found) {
      add("'" + path + (s.line == 0 ? "" : ":" + std::to_string(s.line)) + "' " + s.what);
    }
    for (const auto& include : includes) {
      git_include(path, include, home, include_depth + 1);
    }
  }

  // An included file is read as git reads it (following links); a missing one is ignored, as git
  // ignores it. `~/` is the home whose configuration includes it.
  void git_include(const std::string& from, const std::string& include, const std::string& home,
                   int depth) {
    if (depth > kMaxGitIncludeDepth) {
      return;
    }
    std::string path;
    if (include.starts_with("~/")) {
      if (home.empty()) {
        return;
      }
      path = join(home, include.substr(2));
    } else if (include.starts_with("/")) {
      path = include;
    } else {
      path = join(parent_of(from), include);
    }
    if (auto text = util::read_regular_file(AT_FDCWD, path, {kScanMaxFileBytes, true})) {
      settings_in(path, *text, Check::kGitConfig, home, depth);
    }
  }

  void tokens_in(const std::string& path, std::string_view text) {
    if (!read_.insert(path).second) {
      return;  // a git include reached twice, or a home's file met again by the walk
    }
    ++out_.files_read;
    out_.bytes_read += text.size();
    std::size_t counted = 0;
    std::uint32_t line = 1;
    for (const auto& t : find_tokens(text)) {  // ordered by offset
      line += static_cast<std::uint32_t>(
          std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                     text.begin() + static_cast<std::ptrdiff_t>(t.offset), '\n'));
      counted = t.offset;
      add("'" + path + ":" + std::to_string(line) + "' holds " + std::string(t.label) + " (" +
          std::string(t.kind) + "): " + t.shown);
    }
  }

  // Whether the walk may go on to read `next_bytes` more; the first bound crossed is a finding.
  bool within(const ScanLimits& limits, std::size_t next_bytes) {
    if (stopped_) {
      return false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!started_) {
      started_ = now;
    }
    std::string bound;
    if (entries_ >= limits.max_entries) {
      bound = std::to_string(limits.max_entries) + " directory entries";
    } else if (out_.bytes_read + next_bytes > limits.max_bytes) {
      bound = std::to_string(limits.max_bytes) + " bytes read";
    } else if (now - *started_ >= limits.max_duration) {
      bound = std::to_string(
                  std::chrono::duration_cast<std::chrono::seconds>(limits.max_duration).count()) +
              " s";
    } else {
      return true;
    }
    stopped_ = true;
    add("the scan stopped at its bound of " + bound +
        ", so what it did not reach cannot be shown to hold no credential");
    return false;
  }

  static const Named* named_anywhere(const WalkEntry& e) {
    const std::string_view path = e.path;
    const std::string_view dir = path.substr(0, path.rfind('/'));
    const std::string_view parent = dir.substr(dir.rfind('/') + 1);
    for (const auto& a : kAnywhereFiles) {
      if (a.named.relative == e.name && (a.parent.empty() || a.parent == parent)) {
        return &a.named;
      }
    }
    return nullptr;
  }

  // Reads the first bytes of `fd` without moving its offset.
  static bool skipped_by_type(int fd) {
    std::array<char, kMagicBytes> head{};
    const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
    const std::string_view got(head.data(), n < 0 ? 0 : static_cast<std::size_t>(n));
    return std::any_of(std::begin(kSkippedMagic), std::end(kSkippedMagic),
                       [&](std::string_view magic) { return got.starts_with(magic); });
  }

  CredentialScan out_;
  std::set<std::string> messages_;
  // Paths checked by name and paths read for tokens: a home's file met again by the walk is not
  // read twice.
  std::set<std::string> checked_;
  std::set<std::string> read_;
  std::size_t entries_ = 0;
  bool stopped_ = false;
  std::optional<std::chrono::steady_clock::time_point> started_;
  // Apart, so that a tree walked for sockets is still read for tokens.
  WalkedDirectories walked_for_sockets_;
  WalkedDirectories walked_for_content_;
};

}  // namespace

CredentialScan scan_for_credentials(const ScanRoots& roots,
                                    const std::vector<ScanEnvironment>& environments) {
  Scanner scan;
  for (const auto& env : environments) {
    scan.environment(env);
  }
  for (const auto& home : roots.homes) {
    scan.named_files(home, std::begin(kHomeFiles), std::end(kHomeFiles), home);
    scan.ssh_keys(home);
  }
  for (const auto& dir : roots.config_homes) {
    scan.named_files(dir, std::begin(kConfigHomeFiles), std::end(kConfigHomeFiles), "");
  }
  for (const auto& dir : roots.system_dirs) {
    scan.named_files(dir, std::begin(kSystemFiles), std::end(kSystemFiles), "");
  }
  for (const auto& dir : roots.runtime_dirs) {
    scan.runtime_dir(dir);
  }
  // A root inside a skipped tree (HOME below /tmp/review) was named on purpose: it is walked
  // before the skipped trees are closed to the other walks.
  auto inside_skipped = [&](const std::string& tree) {
    return std::any_of(roots.skipped_trees.begin(), roots.skipped_trees.end(),
                       [&](const std::string& s) {
                         return tree == s || tree.starts_with(s.ends_with('/') ? s : s + "/");
                       });
  };
  for (const auto& tree : roots.content_trees) {
    if (inside_skipped(tree)) {
      scan.content_tree(tree, roots.limits);
    }
  }
  for (const auto& dir : roots.skipped_trees) {
    scan.skip_tree(dir);
  }
  for (const auto& tree : roots.content_trees) {
    if (!inside_skipped(tree)) {
      scan.content_tree(tree, roots.limits);
    }
  }
  return scan.finish();
}

}  // namespace reviewer::credentials
