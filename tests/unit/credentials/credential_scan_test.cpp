// The self-check's credential scan over real files: each credential kind is found by name and
// message, no token value is ever printed, links are not followed, the bounds hold, and a clean
// tree full of look-alikes yields nothing.
#include "core/credentials/credential_scan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/credentials/credential_fixture.h"

namespace reviewer::credentials {
namespace {

using namespace credtest;  // NOLINT(google-build-using-namespace): the fixture
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

ScanRoots home_roots(const TempTree& t) {
  ScanRoots roots;
  roots.homes = {t / "home"};
  roots.content_trees = {t / "home"};
  return roots;
}

// A credential file is a finding by its name alone, whatever it holds.
struct CredentialFile {
  std::string name;
  std::string relative;
  std::string what;
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const CredentialFile& c, std::ostream* os) { *os << c.name; }

class ACredentialFile : public ::testing::TestWithParam<CredentialFile> {};

TEST_P(ACredentialFile, IsAFindingWhenItExists) {
  TempTree t;
  t.write("home/" + GetParam().relative, "machine example.com login me password hunter2\n");
  EXPECT_THAT(scan(home_roots(t)), ElementsAre("image-credential: '" + t.path() + "/home/" +
                                               GetParam().relative + "' is " + GetParam().what));
}

TEST_P(ACredentialFile, IsAFindingAsASymbolicLinkWithoutBeingFollowed) {
  TempTree t;
  t.write("elsewhere/target", "x\n");
  t.symlink(t / "elsewhere/target", "home/" + GetParam().relative);
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre("image-credential: '" + t.path() + "/home/" + GetParam().relative +
                          "' is a symbolic link named like " + GetParam().what));
}

TEST_P(ACredentialFile, IsAFindingEvenWhenTheScanCannotReadIt) {
  TempTree t;
  t.write("home/" + GetParam().relative, "x\n", 0);
  EXPECT_THAT(as_unprivileged([&] { return scan(home_roots(t)); }),
              ElementsAre("image-credential: '" + t.path() + "/home/" + GetParam().relative +
                          "' is " + GetParam().what));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ACredentialFile,
    ::testing::Values(
        CredentialFile{"GitCredentials", ".git-credentials", "a git credential store"},
        CredentialFile{"XdgGitCredentials", ".config/git/credentials", "a git credential store"},
        CredentialFile{"SshEd25519", ".ssh/id_ed25519", "an SSH private key"},
        CredentialFile{"SshRsa", ".ssh/id_rsa", "an SSH private key"},
        CredentialFile{"SshCopy", ".ssh/id_ecdsa.old", "an SSH private key"},
        CredentialFile{"Netrc", ".netrc", "a netrc login file"},
        CredentialFile{"UnderscoreNetrc", "_netrc", "a netrc login file"},
        CredentialFile{"AwsCredentials", ".aws/credentials", "an AWS credentials file"},
        CredentialFile{"Kubeconfig", ".kube/config", "a Kubernetes kubeconfig"},
        CredentialFile{"Pypirc", ".pypirc", "a PyPI upload configuration"},
        CredentialFile{"CargoCredentials", ".cargo/credentials", "a Cargo registry token file"},
        CredentialFile{"CargoCredentialsToml", ".cargo/credentials.toml",
                       "a Cargo registry token file"},
        CredentialFile{"VaultToken", ".vault-token", "a Vault token file"},
        CredentialFile{"LegacyDockerConfig", ".dockercfg", "a legacy Docker credentials file"}),
    [](const auto& p) { return p.param.name; });

// A configuration file in a home is a finding when it holds a credential setting.
class ACredentialSetting : public ::testing::TestWithParam<PlacedFile> {};

TEST_P(ACredentialSetting, IsAFindingAtItsLine) {
  TempTree t;
  t.write("home/" + GetParam().relative, GetParam().text);
  EXPECT_THAT(scan(home_roots(t)), ElementsAre("image-credential: '" + t.path() + "/home/" +
                                               GetParam().relative + GetParam().finding));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ACredentialSetting,
    ::testing::Values(
        PlacedFile{"GitHelper", ".gitconfig",
                   "[user]\n\tname = x\n[credential]\n\thelper = store\n",
                   ":4' sets credential.helper: git would run a credential helper"},
        PlacedFile{"XdgGitHelper", ".config/git/config", "[credential]\n\thelper = cache\n",
                   ":2' sets credential.helper: git would run a credential helper"},
        PlacedFile{"GitExtraHeader", ".gitconfig",
                   "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic x\n",
                   ":2' sets http.https://github.com/.extraheader: git would send an extra "
                   "HTTP header"},
        PlacedFile{"GitInsteadOfWithUserinfo", ".gitconfig",
                   "[url \"https://me:pw@github.com/\"]\n\tinsteadOf = https://github.com/\n",
                   ":2' sets url.https://…@github.com/.insteadof: git would rewrite URLs to "
                   "ones carrying a user or password"},
        PlacedFile{"NpmAuthToken", ".npmrc", "_authToken=abc\n",
                   ":1' sets _authToken: npm would send a registry credential"},
        PlacedFile{"NpmScopedAuthToken", ".npmrc",
                   "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=abc\n",
                   ":2' sets //registry.npmjs.org/:_authToken: npm would send a registry "
                   "credential"},
        PlacedFile{"NpmAuth", ".npmrc", "_auth=dXNlcjpwYXNz\n",
                   ":1' sets _auth: npm would send a registry credential"},
        PlacedFile{"NpmPassword", ".npmrc", "username=me\n_password=cGFzcw==\n",
                   ":2' sets _password: npm would send a registry credential"},
        PlacedFile{"GhOauthToken", ".config/gh/hosts.yml",
                   "github.com:\n    user: me\n    oauth_token: abc\n",
                   ":3' holds oauth_token: the GitHub CLI would use its token"},
        PlacedFile{"DockerAuths", ".docker/config.json",
                   R"({"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNz"}}})",
                   "' holds a login for 'ghcr.io' under \"auths\""},
        PlacedFile{"DockerCredsStore", ".docker/config.json", R"({"credsStore": "pass"})",
                   "' sets \"credsStore\": the client would ask a credential store for "
                   "logins"},
        PlacedFile{"DockerCredHelpers", ".docker/config.json",
                   R"({"credHelpers": {"gcr.io": "gcloud"}})",
                   "' sets \"credHelpers\": the client would ask credential helpers for "
                   "logins"},
        PlacedFile{"ContainersAuth", ".config/containers/auth.json",
                   R"({"auths": {"quay.io": {"auth": "dXNlcjpwYXNz"}}})",
                   "' holds a login for 'quay.io' under \"auths\""}),
    [](const auto& p) { return p.param.name; });

TEST(CredentialScan, SystemGitConfigAndNpmrc) {
  TempTree t;
  t.write("etc/gitconfig", "[credential]\n\thelper = store\n");
  t.write("etc/npmrc", "_authToken=abc\n");
  ScanRoots roots;
  roots.system_dirs = {t / "etc"};
  EXPECT_THAT(scan(roots),
              ElementsAre("image-credential: '" + t.path() +
                              "/etc/gitconfig:2' sets credential.helper: git would run a "
                              "credential helper",
                          "image-credential: '" + t.path() +
                              "/etc/npmrc:1' sets _authToken: npm would send a registry "
                              "credential"));
}

TEST(CredentialScan, XdgConfigHomeFiles) {
  TempTree t;
  t.write("xdg/git/credentials", "https://me:pw@example.com\n");
  t.write("xdg/git/config", "[credential]\n\thelper = store\n");
  t.write("xdg/gh/hosts.yml", "github.com:\n    oauth_token: abc\n");
  t.write("xdg/containers/auth.json", R"({"credsStore": "secretservice"})");
  ScanRoots roots;
  roots.config_homes = {t / "xdg"};
  const std::string x = "image-credential: '" + t.path() + "/xdg/";
  EXPECT_THAT(scan(roots),
              ElementsAre(x + "git/credentials' is a git credential store",
                          x + "git/config:2' sets credential.helper: git would run a credential "
                              "helper",
                          x + "gh/hosts.yml:2' holds oauth_token: the GitHub CLI would use its "
                              "token",
                          x + "containers/auth.json' sets \"credsStore\": the client would ask "
                              "a credential store for logins"));
}

TEST(CredentialScan, RuntimeContainerAuthFiles) {
  TempTree t;
  const std::string login = R"({"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNz"}}})";
  t.write("run/containers/0/auth.json", login);
  t.write("run/user/1000/containers/auth.json", login);
  ScanRoots roots;
  roots.runtime_dirs = {t / "run", t / "run/user/1000"};
  const std::string r = "image-credential: '" + t.path() + "/run/";
  EXPECT_THAT(scan(roots),
              ElementsAre(r + "containers/0/auth.json' holds a login for 'ghcr.io' under \"auths\"",
                          r + "user/1000/containers/auth.json' holds a login for 'ghcr.io' "
                              "under \"auths\""));
}

TEST(CredentialScan, ADockerSocketAnywhereInTheRuntimeDirectories) {
  TempTree t;
  ASSERT_TRUE(t.socket("run/docker.sock"));
  ASSERT_TRUE(t.socket("run/user/1000/docker.sock"));
  ASSERT_TRUE(t.socket("run/other.sock"));
  t.symlink("/nonexistent/docker.sock", "run/sub/docker.sock");
  t.write("run/notasocket/docker.sock", "");
  ScanRoots roots;
  roots.runtime_dirs = {t / "run"};
  const std::string r = "image-credential: '" + t.path() + "/run/";
  EXPECT_THAT(scan(roots),
              ElementsAre(r + "docker.sock' is a Docker socket",
                          r + "sub/docker.sock' is a symbolic link named like a Docker socket",
                          r + "user/1000/docker.sock' is a Docker socket"));
}

TEST(CredentialScan, ALinkedRuntimeDirectoryIsWalkedOnce) {
  TempTree t;
  ASSERT_TRUE(t.socket("run/docker.sock"));
  t.symlink(t / "run", "var/run");
  ScanRoots roots;
  roots.runtime_dirs = {t / "run", t / "var/run"};
  EXPECT_THAT(scan(roots), ElementsAre("image-credential: '" + t.path() +
                                       "/run/docker.sock' is a Docker socket"));
}

TEST(CredentialScan, ConfigurationsThatAreLinksAreFindingsAndNotFollowed) {
  TempTree t;
  t.write("elsewhere/npmrc", "registry=https://registry.npmjs.org/\n");
  t.symlink(t / "elsewhere/npmrc", "home/.npmrc");
  t.symlink(t / "elsewhere/npmrc", "home/.gitconfig");
  const std::string h = "image-credential: '" + t.path() + "/home/";
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre(h + ".gitconfig' is a symbolic link named like a git configuration",
                          h + ".npmrc' is a symbolic link named like an npm configuration"));
}

TEST(CredentialScan, AConfigurationThatCannotBeReadCannotBeShownClean) {
  TempTree t;
  t.write("home/.npmrc", "registry=https://registry.npmjs.org/\n", 0);
  t.fifo("home/.gitconfig");
  const std::string h = "image-credential: '" + t.path() + "/home/";
  EXPECT_THAT(as_unprivileged([&] { return scan(home_roots(t)); }),
              ElementsAre(h + ".gitconfig' is a git configuration that cannot be read (not a "
                              "regular file), so it cannot be shown to hold no credential",
                          h + ".npmrc' is an npm configuration that cannot be read (Permission "
                              "denied), so it cannot be shown to hold no credential"));
}

TEST(CredentialScan, OtherFilesTheBuildCannotReadEitherAreSkipped) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root to make files another user cannot read";
  }
  TempTree t;
  t.write("home/.bashrc", "export X=" + fake("ghp_", kAlnum, 36) + "\n", 0);
  t.write("home/private/notes", fake("ghp_", kAlnum, 36), 0644);
  ::chmod((t / "home/private").c_str(), 0700);
  EXPECT_THAT(as_unprivileged([&] { return scan(home_roots(t)); }), IsEmpty());
}

TEST(CredentialScan, GitIncludesAreReadAsGitReadsThem) {
  TempTree t;
  t.write("home/.gitconfig",
          "[include]\n\tpath = ~/.gitconfig-creds\n[includeIf \"gitdir:/w/\"]\n\tpath = "
          "conf/work.inc\n");
  t.write("home/.gitconfig-creds", "[credential]\n\thelper = store\n");
  t.write("home/conf/work.inc", "[include]\n\tpath = deeper.inc\n");
  t.write("home/conf/deeper.inc", "\n[http]\n\textraheader = X: y\n");
  const std::string h = "image-credential: '" + t.path() + "/home/";
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre(h + ".gitconfig-creds:2' sets credential.helper: git would run a "
                              "credential helper",
                          h + "conf/deeper.inc:3' sets http.extraheader: git would send an extra "
                              "HTTP header"));
}

TEST(CredentialScan, AnIncludeLoopEnds) {
  TempTree t;
  t.write("home/.gitconfig", "[include]\n\tpath = .gitconfig\n[credential]\n\thelper = x\n");
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre("image-credential: '" + t.path() +
                          "/home/.gitconfig:4' sets credential.helper: git would run a credential "
                          "helper"));
}

// Every token shape, in an ordinary file below a home, by line, kind and keyword only.
struct TokenFile {
  std::string name;
  std::string token;
  std::string finding;
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const TokenFile& c, std::ostream* os) { *os << c.name; }

class ATokenInAFile : public ::testing::TestWithParam<TokenFile> {};

TEST_P(ATokenInAFile, IsAFindingThatNeverShowsTheToken) {
  TempTree t;
  t.write("home/.config/tool/settings", "# settings\nkey: \"" + GetParam().token + "\"\n");
  auto found = scan(home_roots(t));
  EXPECT_THAT(found, ElementsAre("image-credential: '" + t.path() +
                                 "/home/.config/tool/settings:2' holds " + GetParam().finding));
  const std::string& token = GetParam().token;
  for (const auto& f : found) {
    EXPECT_THAT(f, Not(HasSubstr(token.substr(token.size() / 2, 10))));
  }
}

std::string digits(unsigned seed) { return fake("", kDigits, 12, seed); }

INSTANTIATE_TEST_SUITE_P(
    Kinds, ATokenInAFile,
    ::testing::Values(
        TokenFile{"GitHubPat", fake("ghp_", kAlnum, 36),
                  "a GitHub personal access token (github-pat): ghp_…"},
        TokenFile{"GitHubOauth", fake("gho_", kAlnum, 36),
                  "a GitHub OAuth token (github-oauth): gho_…"},
        TokenFile{"GitHubUser", fake("ghu_", kAlnum, 36),
                  "a GitHub App token (github-app-token): ghu_…"},
        TokenFile{"GitHubServer", fake("ghs_", kAlnum, 36),
                  "a GitHub App token (github-app-token): ghs_…"},
        TokenFile{"GitHubRefresh", fake("ghr_", kAlnum, 36),
                  "a GitHub refresh token (github-refresh-token): ghr_…"},
        TokenFile{"GitHubFineGrained", fake("github_pat_", kAlnum, 82),
                  "a GitHub fine-grained personal access token (github-fine-grained-pat): "
                  "github_pat_…"},
        TokenFile{"GitLab", fake("glpat-", kAlnum, 20),
                  "a GitLab personal access token (gitlab-pat): glpat-…"},
        TokenFile{"Npm", fake("npm_", kLowerAlnum, 36),
                  "an npm access token (npm-access-token): npm_…"},
        TokenFile{"Aws", fake("AKIA", kUpperBase32, 16),
                  "an AWS access key id (aws-access-token): AKIA…"},
        TokenFile{"SlackBot", "xoxb-" + digits(1) + "-" + digits(2) + "-" + fake("", kAlnum, 24),
                  "a Slack bot token (slack-bot-token): xoxb-…"},
        TokenFile{
            "SlackUser",
            "xoxp-" + digits(1) + "-" + digits(2) + "-" + digits(3) + "-" + fake("", kAlnum, 32),
            "a Slack user token (slack-user-token): xoxp-…"},
        TokenFile{"SlackApp",
                  "xapp-1-A" + fake("", kDigits, 9) + "-" + digits(4) + "-" +
                      fake("", "abcdef0123456789", 64),
                  "a Slack app token (slack-app-token): xapp-…"},
        TokenFile{"Google", fake("AIza", kWordDash, 35), "a Google API key (gcp-api-key): AIza…"},
        TokenFile{"Vault", fake("hvs.", kWordDash, 100),
                  "a HashiCorp Vault token (vault-service-token): hvs.…"},
        TokenFile{"HuggingFace", fake("hf_", kLetters, 34),
                  "a Hugging Face access token (huggingface-access-token): hf_…"},
        TokenFile{"Anthropic", fake("sk-ant-api03-", kWordDash, 93) + "AA",
                  "an Anthropic API key (anthropic-api-key): sk-ant-api03-…"},
        TokenFile{
            "Jwt",
            fake("eyJ", kAlnum, 30) + "." + fake("eyJ", kAlnum, 60) + "." + fake("", kWordDash, 43),
            "a JSON web token (jwt): ey…"},
        TokenFile{"PrivateKey", pem("EC PRIVATE KEY"),
                  "a private key (private-key): -----BEGIN EC PRIVATE KEY-----"}),
    [](const auto& p) { return p.param.name; });

TEST(CredentialScan, ATokenInACredentialFileIsNamedToo) {
  TempTree t;
  const std::string token = fake("ghp_", kAlnum, 36);
  t.write("home/.git-credentials", "https://me:" + token + "@github.com\n");
  const std::string h = "image-credential: '" + t.path() + "/home/.git-credentials";
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre(h + "' is a git credential store",
                          h + ":1' holds a GitHub personal access token (github-pat): ghp_…"));
}

TEST(CredentialScan, TokensInEnvironmentsByVariableAndWhose) {
  const std::string pat = fake("ghp_", kAlnum, 36);
  const std::string aws = fake("AKIA", kUpperBase32, 16);
  std::vector<ScanEnvironment> envs{
      {"the launcher", {{"PATH", "/usr/bin"}, {"SOME_VALUE", "x " + pat}}},
      {"PID 1",
       {{"HOME", "/tmp/review"},
        {"EXTRA", aws},
        {"GH_TOKEN", "not-shaped"},
        {"NPM_TOKEN", ""},
        {"SSH_AUTH_SOCK", "/run/agent"}}},
  };
  auto found = scan(ScanRoots{}, envs);
  EXPECT_THAT(found,
              ElementsAre("image-credential: environment variable SOME_VALUE of the launcher holds "
                          "a GitHub personal access token (github-pat): ghp_…",
                          "image-credential: environment variable EXTRA of PID 1 holds an AWS "
                          "access key id (aws-access-token): AKIA…",
                          "image-credential: environment variable GH_TOKEN of PID 1 is set: a "
                          "GitHub token variable",
                          "image-credential: environment variable SSH_AUTH_SOCK of PID 1 is set: "
                          "an SSH agent socket"));
  for (const auto& f : found) {
    EXPECT_THAT(f, Not(HasSubstr(pat.substr(4))));
    EXPECT_THAT(f, Not(HasSubstr(aws.substr(4))));
    EXPECT_THAT(f, Not(HasSubstr("not-shaped")));
  }
}

TEST(CredentialScan, FilesOverTheSizeBoundAreNotRead) {
  TempTree t;
  const std::string token = fake("ghp_", kAlnum, 36);
  std::string exact(kScanMaxFileBytes - token.size(), '\n');
  t.write("home/at-bound", exact + token);
  t.write("home/over-bound", exact + " " + token);
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre("image-credential: '" + t.path() +
                          "/home/at-bound:" + std::to_string(exact.size() + 1) +
                          "' holds a GitHub personal access token (github-pat): ghp_…"));
}

TEST(CredentialScan, TreesAreNotOpenedBelowTheDepthBound) {
  TempTree t;
  std::string deepest = "home";
  for (int i = 1; i < kScanMaxDepth; ++i) {
    deepest += "/d";
  }
  t.write(deepest + "/at-bound", fake("ghp_", kAlnum, 36));
  t.write(deepest + "/d/below-bound", fake("ghp_", kAlnum, 36));
  EXPECT_THAT(scan(home_roots(t)),
              ElementsAre("image-credential: '" + t.path() + "/" + deepest +
                          "/at-bound:1' holds a GitHub personal access token (github-pat): ghp_…"));
}

TEST(CredentialScan, LinksInATreeAreNeverFollowed) {
  TempTree t;
  t.write("outside/secret", fake("ghp_", kAlnum, 36));
  t.write("outside/dir/secret", fake("ghp_", kAlnum, 36));
  t.symlink(t / "outside/secret", "home/link-to-file");
  t.symlink(t / "outside/dir", "home/link-to-dir");
  t.symlink("/dev/zero", "home/zero");
  t.fifo("home/fifo");
  EXPECT_THAT(scan(home_roots(t)), IsEmpty());
}

TEST(CredentialScan, ATreeReachedTwiceIsReadOnce) {
  TempTree t;
  t.write("home/me/.bashrc", "export X=" + fake("ghp_", kAlnum, 36) + "\n");
  ScanRoots roots;
  roots.homes = {t / "home/me", t / "home/me/"};
  roots.content_trees = {t / "home", t / "home/me"};
  auto result = scan_for_credentials(roots, {});
  EXPECT_THAT(texts(result.findings),
              ElementsAre("image-credential: '" + t.path() +
                          "/home/me/.bashrc:1' holds a GitHub personal access token (github-pat): "
                          "ghp_…"));
  EXPECT_EQ(result.files_read, 1u);
  EXPECT_EQ(result.directories_read, 2u);
}

TEST(CredentialScan, MissingRootsAreEmpty) {
  ScanRoots roots;
  roots.homes = {"/nonexistent/home"};
  roots.config_homes = {"/nonexistent/xdg"};
  roots.system_dirs = {"/nonexistent/etc"};
  roots.runtime_dirs = {"/nonexistent/run"};
  roots.content_trees = {"/nonexistent/home"};
  EXPECT_THAT(scan(roots), IsEmpty());
}

// A clean home and /etc with everything that looks like a credential but is not one.
TEST(CredentialScan, LookAlikesAreNotFindings) {
  TempTree t;
  t.write("home/.ssh/id_ed25519.pub",
          "ssh-ed25519 " + fake("AAAAC3NzaC1lZDI1NTE5AAAA", kAlnum, 44) + " me\n");
  t.write("home/.ssh/id_rsa-cert.pub", "ssh-rsa-cert-v01@openssh.com AAAA me\n");
  t.write("home/.ssh/known_hosts", "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA\n");
  t.write("home/.ssh/config", "Host *\n  IdentitiesOnly yes\n");
  t.write("home/.npmrc", "registry=https://registry.npmjs.org/\nfund=false\n");
  t.write("home/.gitconfig",
          "[user]\n\tname = Me\n\temail = me@example.com\n"
          "[url \"https://github.com/\"]\n\tinsteadOf = git://github.com/\n"
          "[url \"git@github.com:\"]\n\tpushInsteadOf = https://github.com/\n"
          "[credential]\n\thelper =\n[init]\n\tdefaultBranch = main\n");
  t.write("home/.config/gh/config.yml", "git_protocol: https\neditor: vim\n");
  t.write("home/.config/gh/hosts.yml", "github.com:\n    user: me\n    git_protocol: https\n");
  t.write("home/.docker/config.json", R"({"auths": {"ghcr.io": {}}, "detachKeys": "ctrl-q"})");
  t.write("home/.config/containers/auth.json", R"({"auths": {}})");
  t.write("home/.bashrc", "# not quite: " + fake("ghp_", kAlnum, 35) + " ghp_" +
                              std::string(36, 'x') + " AKIAIOSFODNN7EXAMPLE\n" +
                              "alias k='they keyed the eyes'\n");
  t.write("home/.profile", "export PATH=\"$HOME/bin:$PATH\"\n");
  t.write("home/.cache/sha", fake("", "0123456789abcdef", 64));
  t.write("etc/gitconfig", "[core]\n\teditor = vim\n");
  t.write("etc/ssl/certs/ca.pem", pem("CERTIFICATE"));
  t.symlink("ca.pem", "etc/ssl/certs/5ad8a5d6.0");
  t.write("etc/ssl/public.pem", pem("PUBLIC KEY"));
  t.write("etc/ssh/ssh_host_ed25519_key.pub", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA root@h\n");
  t.symlink("/run/docker.sock.d", "etc/docker.sock.d");
  ScanRoots roots = home_roots(t);
  roots.system_dirs = {t / "etc"};
  roots.content_trees.push_back(t / "etc");
  auto result = scan_for_credentials(roots, {{"the launcher", {{"HOME", t / "home"}}}});
  EXPECT_THAT(texts(result.findings), IsEmpty());
  // Each file is read once: the 5 home and 1 /etc configurations as such, and the walk reads the
  // other 8 + 3 regular files it meets.
  EXPECT_EQ(result.files_read, 17u) << "6 configurations, then 8 + 3 other files walked";
}

}  // namespace
}  // namespace reviewer::credentials
