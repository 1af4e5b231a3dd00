// Every forbidden configuration key, at repository level, through include.path and at the
// global/XDG levels of the job's HOME: refused by key, never by value, and never executed.

#include <sys/stat.h>

#include "core/git/rules.h"
#include "tests/unit/git/git_fixture.h"

namespace reviewer::git::testing {
namespace {

struct ForbiddenKey {
  const char* test_name;
  const char* key;        // as written with `git config`
  const char* canonical;  // as the refusal names it
  // The value written; nullptr writes a canary command. Keys git itself parses at startup
  // need a valid value, or the test's own git calls would die.
  const char* value = nullptr;
};

const ForbiddenKey kForbidden[] = {
    {"fsmonitor", "core.fsmonitor", "core.fsmonitor"},
    {"hooks_path", "core.hooksPath", "core.hookspath"},
    {"pager", "core.pager", "core.pager"},
    {"editor", "core.editor", "core.editor"},
    {"ssh_command", "core.sshCommand", "core.sshcommand"},
    {"git_proxy", "core.gitProxy", "core.gitproxy"},
    {"askpass", "core.askPass", "core.askpass"},
    {"attributes_file", "core.attributesFile", "core.attributesfile"},
    {"excludes_file", "core.excludesFile", "core.excludesfile"},
    {"autocrlf", "core.autocrlf", "core.autocrlf", "input"},
    {"include_path", "include.path", "include.path"},
    {"include_if", "includeIf.gitdir:/nowhere/.path", "includeif.gitdir:/nowhere/.path"},
    {"protocol_allow", "protocol.allow", "protocol.allow"},
    {"protocol_ext_allow", "protocol.ext.allow", "protocol.ext.allow"},
    {"uploadpack_hook", "uploadpack.packObjectsHook", "uploadpack.packobjectshook"},
    {"remote_uploadpack", "remote.origin.uploadpack", "remote.origin.uploadpack"},
    {"remote_receivepack", "remote.origin.receivepack", "remote.origin.receivepack"},
    {"insteadof", "url.https://evil.example/.insteadOf", "url.https://evil.example/.insteadof"},
    {"push_insteadof", "url.https://evil.example/.pushInsteadOf",
     "url.https://evil.example/.pushinsteadof"},
    {"credential_helper", "credential.helper", "credential.helper"},
    {"credential_url_helper", "credential.https://github.com.helper",
     "credential.https://github.com.helper"},
    {"http_extra_header", "http.extraHeader", "http.extraheader"},
    {"http_url_extra_header", "http.https://github.com/.extraheader",
     "http.https://github.com/.extraheader"},
    {"http_proxy", "http.proxy", "http.proxy"},
    {"filter_clean", "filter.evil.clean", "filter.evil.clean"},
    {"filter_smudge", "filter.evil.smudge", "filter.evil.smudge"},
    {"filter_process", "filter.evil.process", "filter.evil.process"},
    {"diff_textconv", "diff.evil.textconv", "diff.evil.textconv"},
    {"diff_external", "diff.external", "diff.external"},
    {"merge_driver", "merge.evil.driver", "merge.evil.driver"},
    {"gpg_program", "gpg.program", "gpg.program"},
    {"sequence_editor", "sequence.editor", "sequence.editor"},
    {"safe_directory", "safe.directory", "safe.directory"},
    {"mixed_case", "Core.FSMonitor", "core.fsmonitor"},
    {"extensions", "extensions.worktreeConfig", "extensions.worktreeconfig", "true"},
    {"use_replace_refs", "core.useReplaceRefs", "core.usereplacerefs", "true"},
    {"unknown", "reviewer.anything", "reviewer.anything"},
};

class ForbiddenKeyTest : public GitFixture, public ::testing::WithParamInterface<ForbiddenKey> {
 protected:
  // The value is a canary command: if anything ran it, a file would appear.
  std::string value() const {
    return GetParam().value ? GetParam().value : canary() + " " + GetParam().test_name;
  }
};

std::string expected_message(const std::string& key, const std::string& where) {
  return "key '" + key + "' " + where +
         " is outside the clone baseline (refused by key, whatever its value); accepted: "
         "core.repositoryformatversion, core.filemode, core.bare, core.logallrefupdates, "
         "remote.<name>.url/.fetch/.tagopt, branch.<name>.remote/.merge, user.name, user.email";
}

const report::Refusal* find_key(const report::Refusals& rs, const std::string& key) {
  for (const auto& r : rs) {
    if (r.rule == kRuleConfigKey && r.message.find("key '" + key + "'") != std::string::npos) {
      return &r;
    }
  }
  return nullptr;
}

TEST_P(ForbiddenKeyTest, RepositoryLevel) {
  clone(1);
  const Baseline b = pin();
  in_wt("git config '" + std::string(GetParam().key) + "' '" + value() + "'");
  const report::Refusals r = before(b, 1);
  const std::string key = GetParam().canonical;
  const report::Refusal* hit = find_key(r, key);
  ASSERT_NE(hit, nullptr) << describe(r);
  EXPECT_EQ(hit->message, expected_message(key, "at repository level"));
  EXPECT_EQ(hit->location->file, wt() + "/.git/config");
  EXPECT_EQ(hit->message.find(canary()), std::string::npos) << "the value must not be quoted";
  for (const auto& each : r) {
    EXPECT_EQ(each.rule, std::string(kRuleConfigKey)) << describe(r);
  }
  expect_nothing_executed(b, 1);
}

TEST_P(ForbiddenKeyTest, ThroughIncludePath) {
  clone(1);
  const Baseline b = pin();
  const std::string included = home() + "/../included.cfg";
  sh(home(),
     "git config -f ../included.cfg '" + std::string(GetParam().key) + "' '" + value() + "'",
     home());
  in_wt("git config include.path '" + included + "'");
  const report::Refusals r = before(b, 1);
  EXPECT_RULES(r, {std::string(kRuleConfigKey)});
  ASSERT_NE(find_key(r, "include.path"), nullptr) << describe(r);
  const std::string key = GetParam().canonical;
  if (key != "include.path") {
    const report::Refusal* hit = find_key(r, key);
    ASSERT_NE(hit, nullptr) << describe(r);
    EXPECT_EQ(hit->message, expected_message(key, "at repository level (pulled in by an include)"));
  }
  expect_nothing_executed(b, 1);
}

INSTANTIATE_TEST_SUITE_P(Keys, ForbiddenKeyTest, ::testing::ValuesIn(kForbidden),
                         [](const auto& p) { return std::string(p.param.test_name); });

class ConfigLevelTest : public GitFixture {};

TEST_F(ConfigLevelTest, GlobalLevelInTheJobsHome) {
  clone(1);
  const Baseline b = pin();
  sh(home(), "git config --global core.fsmonitor '" + canary() + " global'", home());
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].rule, kRuleConfigKey);
  EXPECT_EQ(r[0].message, expected_message("core.fsmonitor", "at global level"));
  EXPECT_EQ(r[0].location->file, home() + "/.gitconfig");
  expect_nothing_executed(b, 1);
}

TEST_F(ConfigLevelTest, XdgLevelInTheJobsHome) {
  clone(1);
  const Baseline b = pin();
  ::mkdir((home() + "/.config").c_str(), 0700);
  ::mkdir((home() + "/.config/git").c_str(), 0700);
  write_file(home() + "/.config/git/config", "[core]\n\tpager = " + canary() + " xdg\n");
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, expected_message("core.pager", "at xdg level"));
  EXPECT_EQ(r[0].location->file, home() + "/.config/git/config");
  expect_nothing_executed(b, 1);
}

TEST_F(ConfigLevelTest, WorktreeConfigFile) {
  clone(1);
  const Baseline b = pin();
  write_file(wt() + "/.git/config.worktree", "[core]\n\tfsmonitor = " + canary() + " wt\n");
  const report::Refusals r = before(b, 1);
  ASSERT_EQ(r.size(), 1u) << describe(r);
  EXPECT_EQ(r[0].message, expected_message("core.fsmonitor", "in the worktree configuration"));
  EXPECT_EQ(r[0].location->file, wt() + "/.git/config.worktree");
  expect_nothing_executed(b, 1);
}

TEST_F(ConfigLevelTest, HostSystemAndGlobalFilesDoNotLeakIn) {
  // This machine's /etc/gitconfig and the test runner's own ~/.gitconfig are never read: a
  // clean clone passes although the host's files may hold credential helpers.
  clone(1);
  const Baseline b = pin();
  EXPECT_TRUE(before(b, 1).empty());
}

TEST_F(ConfigLevelTest, CoreWorktreeRedirectIsRefused) {
  clone(1);
  const Baseline b = pin();
  in_wt("git config core.worktree " + src());
  const report::Refusals r = before(b, 1);
  EXPECT_RULES(r, {std::string(kRuleConfigKey), std::string(kRuleRepository)});
  expect_nothing_executed(b, 1);
}

TEST_F(ConfigLevelTest, BareFlagIsRefused) {
  clone(1);
  const Baseline b = pin();
  in_wt("git config core.bare true");
  EXPECT_RULES(before(b, 1), {std::string(kRuleRepository)});
}

}  // namespace
}  // namespace reviewer::git::testing
