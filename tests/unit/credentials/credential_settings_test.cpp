// The settings by which a configuration file hands a tool a credential, decided by key and
// named without their values.
#include "core/credentials/credential_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::credentials {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> shown(const std::vector<CredentialSetting>& settings) {
  std::vector<std::string> out;
  for (const auto& s : settings) {
    out.push_back(std::to_string(s.line) + ": " + s.what);
  }
  return out;
}

std::vector<std::string> git(std::string_view text, std::vector<std::string>* includes = nullptr) {
  std::vector<std::string> ignored;
  return shown(git_config_settings(text, includes != nullptr ? includes : &ignored));
}

TEST(GitConfigSettings, ACredentialHelperOfAnyUrl) {
  EXPECT_THAT(git("[credential]\n\thelper = store\n"
                  "[credential \"https://github.com\"]\n\thelper = !gh auth git-credential\n"),
              ElementsAre("2: sets credential.helper: git would run a credential helper",
                          "4: sets credential.https://github.com.helper: git would run a "
                          "credential helper"));
}

TEST(GitConfigSettings, AnExtraHeader) {
  EXPECT_THAT(git("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic x\n"
                  "[http]\n\textraHeader = X-Other: y\n"),
              ElementsAre("2: sets http.https://github.com/.extraheader: git would send an extra "
                          "HTTP header",
                          "4: sets http.extraheader: git would send an extra HTTP header"));
}

TEST(GitConfigSettings, AUrlRewriteToOneCarryingCredentialsWithoutShowingThem) {
  EXPECT_THAT(
      git("[url \"https://x-access-token:secret-value@github.com/\"]\n\tinsteadOf = "
          "https://github.com/\n"
          "[url \"https://tokenasuser@github.com/\"]\n\tpushInsteadOf = https://github.com/\n"
          "[url \"https://github.com/\"]\n\tinsteadOf = https://user:pw@example.com/\n"
          "[url \"ssh://git:pw@github.com/\"]\n\tinsteadOf = https://github.com/\n"),
      ElementsAre("2: sets url.https://…@github.com/.insteadof: git would rewrite URLs to ones "
                  "carrying a user or password",
                  "4: sets url.https://…@github.com/.pushinsteadof: git would rewrite URLs to "
                  "ones carrying a user or password",
                  "6: sets url.https://github.com/.insteadof: git would rewrite URLs to ones "
                  "carrying a user or password",
                  "8: sets url.ssh://…@github.com/.insteadof: git would rewrite URLs to ones "
                  "carrying a user or password"));
}

TEST(GitConfigSettings, PlainRewritesSshAccountsAndResetsAreNotCredentials) {
  EXPECT_THAT(git("[user]\n\tname = Someone\n\temail = someone@example.com\n"
                  "[url \"https://github.com/\"]\n\tinsteadOf = git://github.com/\n"
                  "[url \"git@github.com:\"]\n\tinsteadOf = https://github.com/\n"
                  "[url \"ssh://git@github.com/\"]\n\tpushInsteadOf = https://github.com/\n"
                  "[credential]\n\thelper =\n\tusername = someone\n"
                  "[http]\n\textraheader =\n\tsslVerify = true\n"
                  "[safe]\n\tdirectory = *\n"),
              IsEmpty());
}

TEST(GitConfigSettings, IncludesAreHandedBackToBeRead) {
  std::vector<std::string> includes;
  EXPECT_THAT(git("[include]\n\tpath = ~/.gitconfig-creds\n"
                  "[includeIf \"gitdir:/work/\"]\n\tpath = work.inc\n"
                  "[include]\n\tpath =\n",
                  &includes),
              IsEmpty());
  EXPECT_THAT(includes, ElementsAre("~/.gitconfig-creds", "work.inc"));
}

TEST(NpmrcSettings, AuthKeysPlainAndRegistryScoped) {
  EXPECT_THAT(shown(npmrc_settings("registry=https://registry.npmjs.org/\n"
                                   "_authToken=abc\n"
                                   "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"
                                   "  //npm.example:8080/path/:_auth = dXNlcjpwYXNz\n"
                                   "_password=cGFzcw==\n")),
              ElementsAre("2: sets _authToken: npm would send a registry credential",
                          "3: sets //registry.npmjs.org/:_authToken: npm would send a registry "
                          "credential",
                          "4: sets //npm.example:8080/path/:_auth: npm would send a registry "
                          "credential",
                          "5: sets _password: npm would send a registry credential"));
}

TEST(NpmrcSettings, RegistriesCommentsAndEmptyValuesAreNotCredentials) {
  EXPECT_THAT(shown(npmrc_settings("registry=https://registry.npmjs.org/\n"
                                   "@scope:registry=https://npm.example/\n"
                                   "; _authToken=commented\n# _auth=commented\n"
                                   "_authToken=\n"
                                   "always-auth=true\nfund=false\n")),
              IsEmpty());
}

TEST(GhHostsSettings, AnOauthTokenWithAValue) {
  EXPECT_THAT(shown(gh_hosts_settings("github.com:\n    user: someone\n    oauth_token: abc\n"
                                      "    git_protocol: https\n")),
              ElementsAre("3: holds oauth_token: the GitHub CLI would use its token"));
}

TEST(GhHostsSettings, HostsWithoutATokenAreNotCredentials) {
  EXPECT_THAT(shown(gh_hosts_settings("github.com:\n    user: someone\n    oauth_token:\n"
                                      "    oauth_token: \"\"\n    # oauth_token: x\n")),
              IsEmpty());
}

TEST(RegistryAuthSettings, LoginsStoresAndHelpers) {
  EXPECT_THAT(shown(registry_auth_settings(
                  R"({"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNz"},)"
                  R"( "https://index.docker.io/v1/": {"identitytoken": "x"}, "quay.io": {}},)"
                  R"( "credsStore": "desktop", "credHelpers": {"gcr.io": "gcloud"}})")),
              ElementsAre("0: holds a login for 'ghcr.io' under \"auths\"",
                          "0: holds a login for 'https://index.docker.io/v1/' under \"auths\"",
                          "0: sets \"credsStore\": the client would ask a credential store for "
                          "logins",
                          "0: sets \"credHelpers\": the client would ask credential helpers for "
                          "logins"));
}

TEST(RegistryAuthSettings, EmptyConfigurationsAreNotCredentials) {
  EXPECT_THAT(shown(registry_auth_settings(R"({"auths": {}})")), IsEmpty());
  EXPECT_THAT(shown(registry_auth_settings(R"({"auths": {"quay.io": {}}, "credsStore": "",)"
                                           R"( "credHelpers": {}, "detachKeys": "ctrl-e"})")),
              IsEmpty());
}

TEST(RegistryAuthSettings, AFileThatIsNotJsonCannotBeShownClean) {
  EXPECT_THAT(shown(registry_auth_settings("{\"auths\": ")),
              ElementsAre("0: is not a JSON object, so it cannot be shown to hold no registry "
                          "login"));
}

TEST(WithoutUserinfo, HidesWhatAUrlCarriesBeforeItsHost) {
  EXPECT_EQ(without_userinfo("https://user:pw@host/path@x"), "https://…@host/path@x");
  EXPECT_EQ(without_userinfo("https://host/"), "https://host/");
  EXPECT_EQ(without_userinfo("git@github.com:"), "git@github.com:");
}

}  // namespace
}  // namespace reviewer::credentials
