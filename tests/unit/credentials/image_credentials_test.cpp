// Where the self-check looks in the running image, and that its token shapes raise nothing on a
// real /etc.
#include "core/credentials/image_credentials.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "tests/unit/credentials/credential_fixture.h"

namespace reviewer::credentials {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Not;

TEST(ImageCredentials, HomesAreTheSixthFieldOfPasswd) {
  EXPECT_THAT(passwd_homes("root:x:0:0:root:/root:/bin/bash\n"
                           "bin:x:2:2:bin:/bin:/usr/sbin/nologin\n"
                           "weird:x:3:3:a,b,c:relative/home:/bin/sh\n"
                           "short:x:4\n"
                           "# comment\n\n"
                           "again:x:5:5::/root:/bin/sh\n"
                           "last:x:6:6:gecos:/home/last"),
              ElementsAre("/root", "/bin", "/home/last"));
}

TEST(ImageCredentials, SystemTreesAreTheOperatingSystemsOwnDirectories) {
  for (const char* dir :
       {"/", "/bin", "/usr/sbin", "/usr/games", "/dev", "/proc/1", "/lib64/", "/usr"}) {
    EXPECT_TRUE(is_system_tree(dir)) << dir;
  }
  for (const char* dir : {"/root", "/home/me", "/var/www", "/tmp/review", "/binaries", "/usrx",
                          "/var/lib/postgresql", "/run/ircd"}) {
    EXPECT_FALSE(is_system_tree(dir)) << dir;
  }
}

TEST(ImageCredentials, RootsComeFromEveryEnvironmentAndTheImage) {
  std::vector<ScanEnvironment> envs{
      {"the launcher", {{"HOME", "/tmp/review/home"}, {"XDG_CONFIG_HOME", "/tmp/xdg"}}},
      {"PID 1",
       {{"HOME", "/tmp/review"},
        {"XDG_RUNTIME_DIR", "/run/user/1000"},
        {"XDG_CONFIG_HOME", "relative/is/ignored"}}},
  };
  auto roots = image_scan_roots(envs);
  EXPECT_THAT(std::vector(roots.homes.begin(), roots.homes.begin() + 3),
              ElementsAre("/tmp/review/home", "/tmp/review", "/root"));
  EXPECT_THAT(roots.config_homes, ElementsAre("/tmp/xdg"));
  EXPECT_THAT(roots.system_dirs, ElementsAre("/etc"));
  EXPECT_THAT(roots.runtime_dirs, ElementsAre("/run", "/var/run", "/run/user/1000"));
  EXPECT_THAT(roots.content_trees, Contains("/tmp/review/home"));
  EXPECT_THAT(roots.content_trees, Contains("/tmp/xdg"));
  EXPECT_THAT(roots.content_trees, Contains("/etc"));
  // The whole filesystem comes last, so that every home is walked from itself first.
  EXPECT_EQ(roots.content_trees.back(), "/");
  EXPECT_THAT(roots.skipped_trees,
              ElementsAre("/proc", "/sys", "/dev", "/workspace", "/tmp/review"));
  for (const auto& tree : roots.content_trees) {
    EXPECT_TRUE(tree == "/" || !is_system_tree(tree)) << tree;
  }
}

// The token shapes' precision on a real Debian 12 /etc, as the sandbox's unprivileged user reads
// it: certificates, keyrings, documentation and configuration must raise nothing. (The named
// files of /etc, such as a gitconfig configuring a credential helper, are findings by
// construction and are left out here: whether a host has one is the host's business.)
TEST(ImageCredentials, TheTokenShapesFindNothingInThisMachinesEtc) {
  ScanRoots roots;
  roots.content_trees = {"/etc"};
  auto started = std::chrono::steady_clock::now();
  auto found = credtest::as_unprivileged([&] {
    auto result = scan_for_credentials(roots, {});
    auto out = credtest::texts(result.findings);
    out.push_back(std::to_string(result.files_read) + " files, " +
                  std::to_string(result.bytes_read) + " bytes, " +
                  std::to_string(result.directories_read) + " directories");
    return out;
  });
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  started)
                .count();
  ASSERT_FALSE(found.empty());
  ASSERT_THAT(found, Not(Contains("<child failed>")));
  std::cout << "scanned /etc: " << found.back() << " in " << ms << " ms\n";
  found.pop_back();
  EXPECT_THAT(found, IsEmpty());
}

}  // namespace
}  // namespace reviewer::credentials
