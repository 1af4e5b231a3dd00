#include "core/exec/bash_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::exec {
namespace {

using ::testing::ElementsAre;

// The runner's two bash command lines (docs/fidelity.md): `bash -e {0}` when no shell is named,
// `bash --noprofile --norc -eo pipefail {0}` for `shell: bash`.
TEST(BashCommandLine, DefaultShellIsBashE) {
  EXPECT_THAT(*bash_command_line("", "/s.sh"), ElementsAre("/bin/bash", "-e", "/s.sh"));
}

TEST(BashCommandLine, ShellBashAddsPipefailWithoutProfiles) {
  EXPECT_THAT(*bash_command_line("bash", "/s.sh"),
              ElementsAre("/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", "/s.sh"));
}

TEST(BashCommandLine, OtherShellsAreRefusedByName) {
  auto r = bash_command_line("sh", "/s.sh");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(), "non-bash-shell: shell 'sh' is not reproduced");
}

}  // namespace
}  // namespace reviewer::exec
