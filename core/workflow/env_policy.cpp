#include "core/workflow/env_policy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace reviewer::workflow {
namespace {

using namespace std::string_view_literals;

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool valid_name(std::string_view n) {
  if (n.empty() || !(std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_')) {
    return false;
  }
  return std::all_of(n.begin(), n.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

constexpr std::array kLauncherExact = {"CI"sv,      "HOME"sv,   "PATH"sv,  "TMPDIR"sv,
                                       "PWD"sv,     "OLDPWD"sv, "SHELL"sv, "USER"sv,
                                       "LOGNAME"sv, "TMP"sv,    "TEMP"sv};
// The package managers' names here are those core/deps/provision sets (a test there holds the two
// together): the planner, below core/deps, refuses them before any dependency exists.
constexpr std::array kLauncherPrefixes = {"GITHUB_"sv,
                                          "RUNNER_"sv,
                                          "ACTIONS_"sv,
                                          "XDG_"sv,
                                          "REVIEWER_"sv,
                                          "NPM_CONFIG_CACHE"sv,
                                          "NPM_CONFIG_OFFLINE"sv,
                                          "NPM_CONFIG_LOGS_DIR"sv,
                                          "NPM_CONFIG_PREFIX"sv,
                                          "NPM_CONFIG_REGISTRY"sv,
                                          "PNPM_CONFIG_REGISTRY"sv,
                                          "BUN_INSTALL_CACHE_DIR"sv,
                                          "YARN_YARN_OFFLINE_MIRROR"sv,
                                          "YARN_NPM_REGISTRY_SERVER"sv,
                                          "YARN_UNSAFE_HTTP_WHITELIST"sv};

constexpr std::array kCredentialExact = {
    "GH_TOKEN"sv,        "GITHUB_TOKEN"sv, "GH_ENTERPRISE_TOKEN"sv, "GITHUB_ENTERPRISE_TOKEN"sv,
    "NODE_AUTH_TOKEN"sv, "NPM_TOKEN"sv};
constexpr std::array kCredentialSuffixes = {"_TOKEN"sv,       "_SECRET"sv, "_KEY"sv,
                                            "_PASSWORD"sv,    "_PASSWD"sv, "_PAT"sv,
                                            "_CREDENTIALS"sv, "_AUTH"sv};
constexpr std::array kCredentialPrefixes = {"AWS_"sv, "AZURE_"sv,
                                            "GOOGLE_APPLICATION_CREDENTIALS"sv, "SOCKET_API_"sv};

constexpr std::array kRedirectPrefixes = {"BASH_"sv,
                                          "ENV"sv,
                                          "SHELLOPTS"sv,
                                          "BASHOPTS"sv,
                                          "PS0"sv,
                                          "PS1"sv,
                                          "PS2"sv,
                                          "PS3"sv,
                                          "PS4"sv,
                                          "PROMPT_COMMAND"sv,
                                          "IFS"sv,
                                          "CDPATH"sv,
                                          "GLOBIGNORE"sv,
                                          "LD_"sv,
                                          "GCONV_PATH"sv,
                                          "LOCPATH"sv,
                                          "HOSTALIASES"sv,
                                          "MALLOC_"sv,
                                          "GETCONF_DIR"sv,
                                          "LOCALDOMAIN"sv,
                                          "NODE_OPTIONS"sv,
                                          "NODE_PATH"sv,
                                          "NODE_EXTRA_CA_CERTS"sv,
                                          "NODE_TLS_REJECT_UNAUTHORIZED"sv,
                                          "NPM_CONFIG_"sv,
                                          "YARN_"sv,
                                          "BUN_"sv,
                                          "PNPM_"sv,
                                          "COREPACK_"sv,
                                          "PYTHONPATH"sv,
                                          "PYTHONHOME"sv,
                                          "PYTHONSTARTUP"sv,
                                          "PYTHONUSERBASE"sv,
                                          "PYTHONINSPECT"sv,
                                          "PYTHONBREAKPOINT"sv,
                                          "PIP_"sv,
                                          "PERL5OPT"sv,
                                          "PERL5LIB"sv,
                                          "PERLLIB"sv,
                                          "PERL5DB"sv,
                                          "RUBYOPT"sv,
                                          "RUBYLIB"sv,
                                          "JAVA_TOOL_OPTIONS"sv,
                                          "_JAVA_OPTIONS"sv,
                                          "JDK_JAVA_OPTIONS"sv,
                                          "CLASSPATH"sv,
                                          "MAVEN_OPTS"sv,
                                          "GRADLE_OPTS"sv,
                                          "GIT_"sv,
                                          "SSH_"sv,
                                          "SSL_CERT_"sv,
                                          "CURL_"sv,
                                          "REQUESTS_CA_BUNDLE"sv,
                                          "GH_"sv,
                                          "TINI_"sv};

// `u` is already upper case: check_env_name() upper-cases once for all its lists.
bool launcher_owned_upper(std::string_view u) {
  for (std::string_view e : kLauncherExact) {
    if (u == e) {
      return true;
    }
  }
  for (std::string_view p : kLauncherPrefixes) {
    if (u.starts_with(p)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool is_launcher_owned(std::string_view name) { return launcher_owned_upper(upper(name)); }

std::optional<EnvVerdict> check_env_name(std::string_view name) {
  if (!valid_name(name)) {
    return EnvVerdict{"invalid-env-name",
                      "not a plain variable name ([A-Za-z_][A-Za-z0-9_]*); exported bash "
                      "functions and odd names can change how the harness runs"};
  }
  const std::string u = upper(name);
  for (std::string_view e : kCredentialExact) {
    if (u == e) {
      return EnvVerdict{"credential-shaped-env", "names a credential", true};
    }
  }
  if (launcher_owned_upper(u)) {
    return EnvVerdict{"launcher-owned-env", "the launcher sets this variable itself"};
  }
  for (std::string_view s : kCredentialSuffixes) {
    if (u.ends_with(s)) {
      return EnvVerdict{"credential-shaped-env", "is shaped like a credential", true};
    }
  }
  for (std::string_view p : kCredentialPrefixes) {
    if (u.starts_with(p)) {
      return EnvVerdict{"credential-shaped-env", "is shaped like a credential", true};
    }
  }
  if (u.ends_with("_PROXY")) {
    return EnvVerdict{"config-redirecting-env", "redirects network traffic through a proxy"};
  }
  for (std::string_view p : kRedirectPrefixes) {
    if (u.starts_with(p)) {
      return EnvVerdict{"config-redirecting-env",
                        "changes how bash, the loader or a tool reads its configuration"};
    }
  }
  return std::nullopt;
}

std::optional<EnvVerdict> check_env_entry(std::string_view name, std::string_view value) {
  auto verdict = check_env_name(name);
  if (verdict && verdict->credential && value.empty()) {
    return std::nullopt;
  }
  return verdict;
}

}  // namespace reviewer::workflow
