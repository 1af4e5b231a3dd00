#include "core/workflow/env_policy.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace reviewer::workflow {
namespace {

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

constexpr std::array kLauncherExact = {"CI",    "HOME", "PATH",    "TMPDIR", "PWD", "OLDPWD",
                                       "SHELL", "USER", "LOGNAME", "TMP",    "TEMP"};
constexpr std::array kLauncherPrefixes = {"GITHUB_",
                                          "RUNNER_",
                                          "ACTIONS_",
                                          "XDG_",
                                          "REVIEWER_",
                                          "NPM_CONFIG_CACHE",
                                          "BUN_INSTALL_CACHE_DIR"};

constexpr std::array kCredentialExact = {
    "GH_TOKEN",        "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
    "NODE_AUTH_TOKEN", "NPM_TOKEN"};
constexpr std::array kCredentialSuffixes = {"_TOKEN",  "_SECRET", "_KEY",         "_PASSWORD",
                                            "_PASSWD", "_PAT",    "_CREDENTIALS", "_AUTH"};
constexpr std::array kCredentialPrefixes = {"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS",
                                            "SOCKET_API_"};

constexpr std::array kRedirectPrefixes = {"BASH_",
                                          "ENV",
                                          "SHELLOPTS",
                                          "BASHOPTS",
                                          "PS0",
                                          "PS1",
                                          "PS2",
                                          "PS3",
                                          "PS4",
                                          "PROMPT_COMMAND",
                                          "IFS",
                                          "CDPATH",
                                          "GLOBIGNORE",
                                          "LD_",
                                          "GCONV_PATH",
                                          "LOCPATH",
                                          "HOSTALIASES",
                                          "MALLOC_",
                                          "GETCONF_DIR",
                                          "LOCALDOMAIN",
                                          "NODE_OPTIONS",
                                          "NODE_PATH",
                                          "NODE_EXTRA_CA_CERTS",
                                          "NODE_TLS_REJECT_UNAUTHORIZED",
                                          "NPM_CONFIG_",
                                          "YARN_",
                                          "BUN_",
                                          "PNPM_",
                                          "COREPACK_",
                                          "PYTHONPATH",
                                          "PYTHONHOME",
                                          "PYTHONSTARTUP",
                                          "PYTHONUSERBASE",
                                          "PYTHONINSPECT",
                                          "PYTHONBREAKPOINT",
                                          "PIP_",
                                          "PERL5OPT",
                                          "PERL5LIB",
                                          "PERLLIB",
                                          "PERL5DB",
                                          "RUBYOPT",
                                          "RUBYLIB",
                                          "JAVA_TOOL_OPTIONS",
                                          "_JAVA_OPTIONS",
                                          "JDK_JAVA_OPTIONS",
                                          "CLASSPATH",
                                          "MAVEN_OPTS",
                                          "GRADLE_OPTS",
                                          "GIT_",
                                          "SSH_",
                                          "SSL_CERT_",
                                          "CURL_",
                                          "REQUESTS_CA_BUNDLE",
                                          "GH_",
                                          "TINI_"};

}  // namespace

bool is_launcher_owned(std::string_view name) {
  const std::string u = upper(name);
  for (const char* e : kLauncherExact) {
    if (u == e) {
      return true;
    }
  }
  for (const char* p : kLauncherPrefixes) {
    if (u.starts_with(p)) {
      return true;
    }
  }
  return false;
}

std::optional<EnvVerdict> check_env_name(std::string_view name) {
  if (!valid_name(name)) {
    return EnvVerdict{"invalid-env-name",
                      "not a plain variable name ([A-Za-z_][A-Za-z0-9_]*); exported bash "
                      "functions and odd names can change how the harness runs"};
  }
  const std::string u = upper(name);
  for (const char* e : kCredentialExact) {
    if (u == e) {
      return EnvVerdict{"credential-shaped-env", "names a credential"};
    }
  }
  if (is_launcher_owned(name)) {
    return EnvVerdict{"launcher-owned-env", "the launcher sets this variable itself"};
  }
  for (const char* s : kCredentialSuffixes) {
    if (u.ends_with(s)) {
      return EnvVerdict{"credential-shaped-env", "is shaped like a credential"};
    }
  }
  for (const char* p : kCredentialPrefixes) {
    if (u.starts_with(p)) {
      return EnvVerdict{"credential-shaped-env", "is shaped like a credential"};
    }
  }
  if (u.ends_with("_PROXY")) {
    return EnvVerdict{"config-redirecting-env", "redirects network traffic through a proxy"};
  }
  for (const char* p : kRedirectPrefixes) {
    if (u.starts_with(p)) {
      return EnvVerdict{"config-redirecting-env",
                        "changes how bash, the loader or a tool reads its configuration"};
    }
  }
  return std::nullopt;
}

}  // namespace reviewer::workflow
