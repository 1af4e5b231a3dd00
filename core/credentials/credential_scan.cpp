#include "core/credentials/credential_scan.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
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
  return e.rule == util::kFileSymlink ? "a symbolic link" : e.message;
}

constexpr const char* kRuleImageCredential = "image-credential";
constexpr int kMaxGitIncludeDepth = 10;  // git's own bound

enum class Check { kExists, kGitConfig, kNpmrc, kGhHosts, kRegistryAuth };

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
                                [&](const CredentialVariable& v) { return v.name == name; });
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
    out_.directories_read += walk_tree(dir, kScanMaxDepth, walked_for_sockets_,
                                       [&](const WalkEntry& e) { docker_socket(e); });
  }

  void content_tree(const std::string& root) {
    out_.directories_read +=
        walk_tree(root, kScanMaxDepth, walked_for_content_, [&](const WalkEntry& e) {
          docker_socket(e);
          if (!S_ISREG(e.st.st_mode) ||
              static_cast<std::size_t>(e.st.st_size) > kScanMaxFileBytes) {
            return;
          }
          if (auto text = util::read_regular_file(e.dir_fd, e.name, {kScanMaxFileBytes})) {
            tokens_in(e.path, *text);
          }
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

  CredentialScan out_;
  std::set<std::string> messages_;
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
  for (const auto& tree : roots.content_trees) {
    scan.content_tree(tree);
  }
  return scan.finish();
}

}  // namespace reviewer::credentials
