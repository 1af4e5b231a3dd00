#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace reviewer::test_support {

// A registry-shaped tarball (one top folder, `package/`) of `files`, each holding a line naming
// itself, made by tar as npm packs, at `at` under `dir`.
inline void pack_npm_tarball(const TempDir& dir, const std::string& at,
                             const std::vector<std::string>& files) {
  TempDir src;
  for (const auto& f : files) {
    src.write("package/" + f, "// " + f + "\n");
  }
  std::filesystem::create_directories(std::filesystem::path(dir.path() + "/" + at).parent_path());
  const std::string cmd =
      "tar -czf '" + dir.path() + "/" + at + "' -C '" + src.path() + "' package";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
}

}  // namespace reviewer::test_support
