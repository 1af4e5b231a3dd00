#pragma once

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"

namespace reviewer::cli {

// A plugin author's directory `name` under `root` holding tests/abi's `plugin`.so and, unless told
// otherwise, the manifest `sha256sum` writes.
inline std::string author_dir(const test_support::TempDir& root, const std::string& name,
                              const std::string& plugin, bool manifest = true) {
  const std::string dir = root / name;
  std::filesystem::create_directory(dir);
  ::chmod(dir.c_str(), 0755);
  std::filesystem::copy_file(std::string(REVIEWER_ABI_TEST_DIR) + "/" + plugin + ".so",
                             dir + "/" + plugin + ".so");
  ::chmod((dir + "/" + plugin + ".so").c_str(), 0644);
  if (manifest) {
    EXPECT_EQ(std::system(("cd " + dir + " && sha256sum " + plugin +
                           ".so > MANIFEST.sha256 && chmod 0644 MANIFEST.sha256")
                              .c_str()),
              0);
  }
  return dir;
}

}  // namespace reviewer::cli
