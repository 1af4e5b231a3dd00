#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::credentials {

// A setting in a configuration file that hands a tool a credential. `what` names the setting and
// what the tool would do with it, never its value.
struct CredentialSetting {
  std::uint32_t line = 0;  // 1-based; 0 when the finding is about the whole file
  std::string what;        // e.g. "sets credential.helper: git would run a credential helper"
};

// A git configuration (~/.gitconfig, ~/.config/git/config, /etc/gitconfig): credential.helper
// (any URL's), http.extraHeader (any URL's), and url.<base>.insteadOf/pushInsteadOf where the
// base or the rewritten prefix carries a password or, for http(s), any user name. Empty values
// (which reset a list) are not settings. Appends the include.path/includeIf.*.path values to
// `includes`, for the caller to read as git would.
std::vector<CredentialSetting> git_config_settings(std::string_view text,
                                                   std::vector<std::string>* includes);

// An npm configuration (.npmrc): _authToken, _auth or _password, also registry-scoped
// (`//registry.example/:_authToken=`), with a non-empty value.
std::vector<CredentialSetting> npmrc_settings(std::string_view text);

// Yarn 1's .yarnrc (`key value` or `"key" "value"` lines): an npm credential key as npmrc_settings
// names them, with a non-empty value.
std::vector<CredentialSetting> yarnrc_settings(std::string_view text);

// Yarn 2+'s .yarnrc.yml: npmAuthToken or npmAuthIdent at any level (top, npmScopes.*,
// npmRegistries.*) with a value that is not empty.
std::vector<CredentialSetting> yarnrc_yml_settings(std::string_view text);

// Bun's bunfig.toml: a `token` or `password` key with a non-empty value anywhere (install.registry,
// install.scopes.* inline tables), and a quoted http(s) URL carrying a user and password.
std::vector<CredentialSetting> bunfig_settings(std::string_view text);

// GitHub CLI's hosts.yml: an `oauth_token:` with a value.
std::vector<CredentialSetting> gh_hosts_settings(std::string_view text);

// A Docker client config.json or a containers auth.json: a login under "auths" (auth,
// identitytoken, registrytoken or password), a "credsStore", or "credHelpers". A file that is not
// JSON cannot be shown to hold none and is a setting itself (line 0).
std::vector<CredentialSetting> registry_auth_settings(std::string_view text);

// `url` with any user information replaced by "…" (https://…@host/), for naming git keys whose
// subsection is a URL without printing what it carries.
std::string without_userinfo(std::string_view url);

}  // namespace reviewer::credentials
