#include "core/contract/runtime_set_check.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/util/sha256.h"
#include "tests/support/temp_dir.h"

namespace reviewer::contract {
namespace {

using test_support::TempDir;

resolve::CatalogueRelease release(const std::string& version, const std::string& bytes,
                                  const std::string& file = "") {
  resolve::CatalogueRelease r;
  r.version = version;
  r.sha256 = util::sha256_hex(bytes);
  r.file = file;
  return r;
}

class RuntimeSetCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    root.write("node/bin/node", "node 24.18.1");
    root.write("node/lib/node_modules/npm/bin/npm-cli.js", "npm 11.16.0");
    root.write("node/lib/node_modules/corepack/dist/lib/corepack.cjs", "corepack 0.35.0");
    root.write("bun/bin/bun", "bun 1.2.19");
    set.node = &node;
    set.npm = &npm;
    set.corepack = &corepack;
    set.bun = &bun;
  }

  TempDir root;
  resolve::CatalogueRelease node = release("24.18.1", "node 24.18.1");
  resolve::CatalogueRelease npm = release("11.16.0", "npm 11.16.0", "bin/npm-cli.js");
  resolve::CatalogueRelease corepack =
      release("0.35.0", "corepack 0.35.0", "dist/lib/corepack.cjs");
  resolve::CatalogueRelease bun = release("1.2.19", "bun 1.2.19");
  resolve::RuntimeSet set;
};

TEST_F(RuntimeSetCheck, TheCataloguesBytesPass) {
  auto checked = check_runtime_set(root.path(), set);
  EXPECT_TRUE(checked) << checked.error().message;
}

TEST_F(RuntimeSetCheck, AnImpostorBinaryIsRefusedNamingBothChecksums) {
  root.write("node/bin/node", "#!/bin/sh\necho v24.18.1\n");
  auto checked = check_runtime_set(root.path(), set);
  ASSERT_FALSE(checked);
  ASSERT_EQ(checked.refusals().size(), 1u);
  EXPECT_EQ(checked.error().rule, "runtime-checksum");
  EXPECT_EQ(checked.error().message, "node 24.18.1 at " + root.path() +
                                         "/node/bin/node has SHA-256 " +
                                         util::sha256_hex("#!/bin/sh\necho v24.18.1\n") +
                                         ", the runtime catalogue records " + node.sha256);
}

TEST_F(RuntimeSetCheck, EveryFileIsCheckedAndEveryFailureGiven) {
  root.write("node/lib/node_modules/npm/bin/npm-cli.js", "another npm");
  root.write("bun/bin/bun", "another bun");
  auto checked = check_runtime_set(root.path(), set);
  ASSERT_FALSE(checked);
  ASSERT_EQ(checked.refusals().size(), 2u);
  EXPECT_EQ(checked.refusals()[0].message.rfind("npm 11.16.0 at ", 0), 0u);
  EXPECT_EQ(checked.refusals()[1].message.rfind("bun 1.2.19 at ", 0), 0u);
}

TEST_F(RuntimeSetCheck, ALinkToTheRightBytesIsNotFollowed) {
  root.write("elsewhere/node", "node 24.18.1");
  std::filesystem::remove(root / "node/bin/node");
  std::filesystem::create_symlink(root / "elsewhere/node", root / "node/bin/node");
  auto checked = check_runtime_set(root.path(), set);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().rule, "runtime-checksum");
  EXPECT_NE(checked.error().message.find("cannot be checked"), std::string::npos)
      << checked.error().message;
}

TEST_F(RuntimeSetCheck, AMissingRuntimeIsRefusedAndAnAbsentOneIsNotAsked) {
  std::filesystem::remove(root / "bun/bin/bun");
  auto checked = check_runtime_set(root.path(), set);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().rule, "runtime-checksum");
  set.bun = nullptr;  // no job pins bun: nothing to hold
  set.corepack = nullptr;
  EXPECT_TRUE(check_runtime_set(root.path(), set));
}

}  // namespace
}  // namespace reviewer::contract
