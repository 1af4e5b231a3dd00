// Yarn's and Bun's registry logins, decided by key and named without their values: what the
// self-check looks for in every .yarnrc, .yarnrc.yml and bunfig.toml it meets.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/credentials/credential_settings.h"

namespace reviewer::credentials {
namespace {

using ::testing::ElementsAreArray;

using Reader = std::vector<CredentialSetting> (*)(std::string_view);

struct Case {
  std::string name;
  Reader read;
  std::string text;
  std::vector<std::string> found;  // "line: what"
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class PackageManagerSettings : public ::testing::TestWithParam<Case> {};

TEST_P(PackageManagerSettings, AreFoundByKeyAtTheirLine) {
  std::vector<std::string> shown;
  for (const auto& s : GetParam().read(GetParam().text)) {
    shown.push_back(std::to_string(s.line) + ": " + s.what);
  }
  EXPECT_THAT(shown, ElementsAreArray(GetParam().found));
}

const std::string kYarn = ": yarn would send a registry credential";
const std::string kBun = ": bun would send a registry credential";

INSTANTIATE_TEST_SUITE_P(
    Texts, PackageManagerSettings,
    ::testing::Values(
        Case{"YarnrcQuotedScopedToken",
             yarnrc_settings,
             "# yarn lockfile v1\n\"//r.example/:_authToken\" \"abc\"\n",
             {"2: sets //r.example/:_authToken" + kYarn}},
        Case{"YarnrcBareKeys",
             yarnrc_settings,
             "_auth dXNlcjpw\n_password   cGFzcw==\n",
             {"1: sets _auth" + kYarn, "2: sets _password" + kYarn}},
        Case{"YarnrcEmptyValuesAndOtherKeys",
             yarnrc_settings,
             "_authToken \"\"\n_auth\nregistry \"https://r.example/\"\n_authTokenX abc\n",
             {}},
        Case{"YarnrcYmlNested",
             yarnrc_yml_settings,
             "npmScopes:\n  org:\n    npmAuthToken: \"${NPM_TOKEN}\"\n    npmAuthIdent: 'me:pw'\n",
             {"3: sets npmAuthToken" + kYarn, "4: sets npmAuthIdent" + kYarn}},
        Case{"YarnrcYmlEmptyCommentedAndOther",
             yarnrc_yml_settings,
             "npmAuthToken: ''\nnpmAuthIdent:  # none\n# npmAuthToken: abc\nnpmAlwaysAuth: true\n",
             {}},
        Case{"BunfigTokenAndPassword",
             bunfig_settings,
             "[install.registry]\nurl = \"https://r.example/\"\ntoken = \"abc\"\n"
             "[install.scopes]\norg = { username = \"me\", password = \"pw\", url = \"x\" }\n",
             {"3: sets token" + kBun, "5: sets password" + kBun}},
        Case{"BunfigUrlWithLogin",
             bunfig_settings,
             "[install]\nregistry = \"https://me:pw@r.example/\"\n"
             "[install.scopes]\norg = \"http://me:pw@r.example/\"\n",
             {"2: sets a registry URL carrying a user and password" + kBun,
              "4: sets a registry URL carrying a user and password" + kBun}},
        Case{"BunfigLookAlikes",
             bunfig_settings,
             "[install]\ntoken = \"\"\nregistry = \"https://me@r.example/\"\nmytoken = \"x\"\n"
             "tokens = 1\n",
             {}}),
    [](const auto& p) { return p.param.name; });

}  // namespace
}  // namespace reviewer::credentials
