#include "core/credentials/credential_settings.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/credentials/git_config_text.h"
#include "core/util/text.h"

namespace reviewer::credentials {
namespace {

// The white space of a line of .npmrc or .netrc (lines are already split at '\n').
std::string_view trim(std::string_view s) { return util::trim(s, " \t\r\f\v"); }

using util::lower;

// The user information of `url` ("user:password" in scheme://user:password@host/), if any.
std::string_view userinfo(std::string_view url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return {};
  }
  auto authority = url.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  auto at = authority.rfind('@');
  return at == std::string_view::npos ? std::string_view() : authority.substr(0, at);
}

// ssh://git@host/ names the account SSH logs in as, which is no secret; a user name in an http(s)
// URL is often the token itself (https://x-access-token:…@ or https://ghp_…@).
bool carries_credentials(std::string_view url) {
  auto info = userinfo(url);
  if (info.empty()) {
    return false;
  }
  auto scheme = lower(url.substr(0, url.find("://")));
  bool ssh = scheme == "ssh" || scheme == "git+ssh" || scheme == "ssh+git";
  return !ssh || info.find(':') != std::string_view::npos;
}

// Calls `line_fn(number, trimmed text)` for every line that is neither blank nor a comment.
template <class Fn>
void for_each_line(std::string_view text, Fn line_fn) {
  std::uint32_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    ++number;
    auto end = text.find('\n', start);
    auto line = trim(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (!line.empty() && line[0] != '#' && line[0] != ';') {
      line_fn(number, line);
    }
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
}

// npm's credential keys, also registry-scoped (`//host/path/:_authToken`: the part after the last
// colon is the key npm uses).
bool is_npm_credential_key(std::string_view key) {
  auto colon = key.rfind(':');
  auto leaf = colon == std::string_view::npos ? key : key.substr(colon + 1);
  return leaf == "_authToken" || leaf == "_auth" || leaf == "_password";
}

// A value that says nothing: empty, or an empty quoted string.
bool empty_value(std::string_view value) {
  value = trim(value);
  return value.empty() || value == "\"\"" || value == "''";
}

std::string_view unquoted(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}

bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// The TOML key `key` set in `line` (bare, as bunfig writes it, also inside an inline table) with
// a value that is not empty.
bool sets_toml_key(std::string_view line, std::string_view key) {
  for (auto at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at > 0 && is_bare_key_char(line[at - 1])) {
      continue;
    }
    auto rest = trim(line.substr(at + key.size()));
    if (!rest.starts_with('=')) {
      continue;
    }
    rest = trim(rest.substr(1));
    auto end = rest.find_first_of(",}");
    if (!rest.empty() && rest[0] == '"') {
      end = rest.find('"', 1) == std::string_view::npos ? rest.size() : rest.find('"', 1) + 1;
    }
    if (!empty_value(rest.substr(0, end))) {
      return true;
    }
  }
  return false;
}

// A quoted string in `line` that is an http(s) URL carrying credentials.
bool holds_url_with_login(std::string_view line) {
  for (auto open = line.find('"'); open != std::string_view::npos;) {
    auto close = line.find('"', open + 1);
    if (close == std::string_view::npos) {
      break;
    }
    auto value = line.substr(open + 1, close - open - 1);
    if ((value.starts_with("https://") || value.starts_with("http://")) &&
        userinfo(value).find(':') != std::string_view::npos) {
      return true;
    }
    open = line.find('"', close + 1);
  }
  return false;
}

bool non_empty_string(const nlohmann::json& j, const char* field) {
  auto it = j.find(field);
  return it != j.end() && it->is_string() && !it->get<std::string>().empty();
}

}  // namespace

std::string without_userinfo(std::string_view url) {
  auto info = userinfo(url);
  if (info.empty()) {
    return std::string(url);
  }
  auto start = static_cast<std::size_t>(info.data() - url.data());
  return std::string(url.substr(0, start)) + "…" + std::string(url.substr(start + info.size()));
}

std::vector<CredentialSetting> git_config_settings(std::string_view text,
                                                   std::vector<std::string>* includes) {
  std::vector<CredentialSetting> out;
  for (const auto& e : parse_git_config(text)) {
    const std::string name = e.section +
                             (e.subsection.empty() ? "" : "." + without_userinfo(e.subsection)) +
                             "." + e.key;
    if (e.section == "credential" && e.key == "helper" && !e.value.empty()) {
      out.push_back({e.line, "sets " + name + ": git would run a credential helper"});
    } else if (e.section == "http" && e.key == "extraheader" && !e.value.empty()) {
      out.push_back({e.line, "sets " + name + ": git would send an extra HTTP header"});
    } else if (e.section == "url" && (e.key == "insteadof" || e.key == "pushinsteadof") &&
               (carries_credentials(e.subsection) || carries_credentials(e.value))) {
      out.push_back({e.line, "sets " + name +
                                 ": git would rewrite URLs to ones carrying a user or password"});
    } else if (e.key == "path" && !e.value.empty() &&
               (e.section == "include" || (e.section == "includeif" && !e.subsection.empty()))) {
      includes->push_back(e.value);
    }
  }
  return out;
}

std::vector<CredentialSetting> npmrc_settings(std::string_view text) {
  std::vector<CredentialSetting> out;
  for_each_line(text, [&](std::uint32_t number, std::string_view line) {
    auto eq = line.find('=');
    if (eq == std::string_view::npos || trim(line.substr(eq + 1)).empty()) {
      return;
    }
    auto key = trim(line.substr(0, eq));
    if (is_npm_credential_key(key)) {
      out.push_back(
          {number, "sets " + std::string(key) + ": npm would send a registry credential"});
    }
  });
  return out;
}

std::vector<CredentialSetting> yarnrc_settings(std::string_view text) {
  std::vector<CredentialSetting> out;
  for_each_line(text, [&](std::uint32_t number, std::string_view line) {
    std::size_t key_end = 0;
    if (line[0] == '"') {
      key_end = line.find('"', 1);
      key_end = key_end == std::string_view::npos ? line.size() : key_end + 1;
    } else {
      key_end = std::min(line.find_first_of(" \t"), line.size());
    }
    auto key = unquoted(line.substr(0, key_end));
    if (is_npm_credential_key(key) && !empty_value(line.substr(key_end))) {
      out.push_back(
          {number, "sets " + std::string(key) + ": yarn would send a registry credential"});
    }
  });
  return out;
}

std::vector<CredentialSetting> yarnrc_yml_settings(std::string_view text) {
  std::vector<CredentialSetting> out;
  for_each_line(text, [&](std::uint32_t number, std::string_view line) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      return;
    }
    auto key = unquoted(trim(line.substr(0, colon)));
    auto value = line.substr(colon + 1);
    value = value.substr(0, value.find(" #"));
    if ((key == "npmAuthToken" || key == "npmAuthIdent") && !empty_value(value)) {
      out.push_back(
          {number, "sets " + std::string(key) + ": yarn would send a registry credential"});
    }
  });
  return out;
}

std::vector<CredentialSetting> bunfig_settings(std::string_view text) {
  std::vector<CredentialSetting> out;
  for_each_line(text, [&](std::uint32_t number, std::string_view line) {
    for (std::string_view key : {"token", "password"}) {
      if (sets_toml_key(line, key)) {
        out.push_back(
            {number, "sets " + std::string(key) + ": bun would send a registry credential"});
      }
    }
    if (holds_url_with_login(line)) {
      out.push_back({number,
                     "sets a registry URL carrying a user and password: bun would send a "
                     "registry credential"});
    }
  });
  return out;
}

std::vector<CredentialSetting> gh_hosts_settings(std::string_view text) {
  std::vector<CredentialSetting> out;
  for_each_line(text, [&](std::uint32_t number, std::string_view line) {
    if (!line.starts_with("oauth_token:")) {
      return;
    }
    auto value = trim(line.substr(12));
    if (!value.empty() && value[0] != '#' && value != "\"\"" && value != "''") {
      out.push_back({number, "holds oauth_token: the GitHub CLI would use its token"});
    }
  });
  return out;
}

std::vector<CredentialSetting> registry_auth_settings(std::string_view text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return {{0, "is not a JSON object, so it cannot be shown to hold no registry login"}};
  }
  std::vector<CredentialSetting> out;
  if (auto auths = j.find("auths"); auths != j.end() && auths->is_object()) {
    for (const auto& [registry, login] : auths->items()) {
      if (login.is_object() &&
          (non_empty_string(login, "auth") || non_empty_string(login, "identitytoken") ||
           non_empty_string(login, "registrytoken") || non_empty_string(login, "password"))) {
        out.push_back({0, "holds a login for '" + registry + "' under \"auths\""});
      }
    }
  }
  if (non_empty_string(j, "credsStore")) {
    out.push_back({0, "sets \"credsStore\": the client would ask a credential store for logins"});
  }
  if (auto helpers = j.find("credHelpers");
      helpers != j.end() && helpers->is_object() && !helpers->empty()) {
    out.push_back({0, "sets \"credHelpers\": the client would ask credential helpers for logins"});
  }
  return out;
}

}  // namespace reviewer::credentials
