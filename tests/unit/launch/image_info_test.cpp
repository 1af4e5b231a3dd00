// The runtimes the image describes are the runtimes it holds: each one's version as it reports
// it (npm's as `npm --version` reads it, from its package.json), against image.json's.
#include "core/launch/image_info.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

class RuntimeVersions : public ::testing::Test {
 protected:
  void SetUp() override {
    script("node/bin/node", "echo v22.23.5");
    script("bun/bin/bun", "echo 1.3.10");
    // npm's entry point would need node to run; its version is read, not printed.
    script("node/lib/node_modules/npm/bin/npm-cli.js", "echo never-run; exit 1");
    npm_version("11.21.2");
    script("node/lib/node_modules/corepack/dist/lib/corepack.cjs", "echo never-run; exit 1");
    package_version("corepack", "0.35.0");
  }
  void script(const std::string& rel, const std::string& body) {
    const std::string path = dir_ / rel;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::trunc) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
  }
  void npm_version(const std::string& v) { package_version("npm", v); }
  void package_version(const std::string& name, const std::string& v) {
    std::ofstream(dir_ / ("node/lib/node_modules/" + name + "/package.json"), std::ios::trunc)
        << R"({"name": ")" << name << R"(", "version": ")" << v << "\"}\n";
  }
  ImageInfo image() const {
    ImageInfo info;
    info.name = "reviewer-node22-bun1310";
    info.runtimes["node"] = {dir_ / "node/bin/node", "22.23.5"};
    info.runtimes["bun"] = {dir_ / "bun/bin/bun", "1.3.10"};
    info.runtimes["npm"] = {dir_ / "node/lib/node_modules/npm/bin/npm-cli.js", "11.21.2"};
    info.runtimes["corepack"] = {dir_ / "node/lib/node_modules/corepack/dist/lib/corepack.cjs",
                                 "0.35.0"};
    info.path = {dir_ / "node/bin"};
    return info;
  }
  test_support::TempDir dir_;
};

TEST_F(RuntimeVersions, TheImagesOwnVersionsPass) { EXPECT_TRUE(verify_runtimes(image())); }

TEST_F(RuntimeVersions, AnotherNpmPackageIsAMismatch) {
  npm_version("10.9.0");
  auto r = verify_runtimes(image());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(), "runtime-mismatch: npm at " +
                                       (dir_ / "node/lib/node_modules/npm/bin/npm-cli.js") +
                                       " has version '10.9.0', the image declares 11.21.2");
}

TEST_F(RuntimeVersions, AnNpmWithoutItsPackageJsonIsAMismatch) {
  std::filesystem::remove(dir_ / "node/lib/node_modules/npm/package.json");
  auto r = verify_runtimes(image());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "runtime-mismatch");
}

// corepack's hashed file is two folders deep; its version is its package's, as npm's is.
TEST_F(RuntimeVersions, AnotherCorepackPackageIsAMismatch) {
  package_version("corepack", "0.34.0");
  auto r = verify_runtimes(image());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "runtime-mismatch: corepack at " +
                (dir_ / "node/lib/node_modules/corepack/dist/lib/corepack.cjs") +
                " has version '0.34.0', the image declares 0.35.0");
  std::filesystem::remove(dir_ / "node/lib/node_modules/corepack/package.json");
  auto none = verify_runtimes(image());
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rule, "runtime-mismatch");
}

TEST_F(RuntimeVersions, ANodeThatPrintsAnotherVersionIsAMismatch) {
  script("node/bin/node", "echo v22.0.0");
  auto r = verify_runtimes(image());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(), "runtime-mismatch: node at " + (dir_ / "node/bin/node") +
                                       " printed '22.0.0', the image declares 22.23.5");
}

}  // namespace
}  // namespace reviewer::launch
