// The shipped catalogue against the shipped matrix: two files written by different means (the
// update's downloads, the image build's) must give every runtime both name the same integrity and
// the same SHA-256 of its file.
#include <gtest/gtest.h>

#include "core/resolve/runtime_catalogue.h"
#include "core/resolve/runtime_table.h"

namespace reviewer::resolve {
namespace {

TEST(ShippedCatalogue, EveryRuntimeTheMatrixNamesIsInItWithTheSameChecksums) {
  auto catalogue = load_runtime_catalogue(REVIEWER_SOURCE_DIR "/matrix/runtimes.json");
  ASSERT_TRUE(catalogue) << catalogue.error().message;
  auto matrix = load_runtime_table(REVIEWER_SOURCE_DIR "/matrix/runtime-matrix.json");
  ASSERT_TRUE(matrix) << matrix.error().message;
  int compared = 0;
  for (const auto& [tool, versions] : matrix->runtimes) {
    for (const auto& [version, artifact] : versions) {
      const CatalogueRelease* release = catalogue->find(tool, version);
      if (release == nullptr) {
        // The images' npm is the newest npm, which no Node release the catalogue's release notes
        // reach bundles.
        EXPECT_EQ(tool, "npm") << version;
        continue;
      }
      EXPECT_EQ(release->integrity, artifact.integrity) << tool << " " << version;
      EXPECT_EQ(release->sha256, artifact.sha256) << tool << " " << version;
      EXPECT_EQ(release->file, artifact.binary) << tool << " " << version;
      ++compared;
    }
  }
  EXPECT_GE(compared, 6);
}

TEST(ShippedCatalogue, HoldsEveryNodeLineFrom18AndBunFrom1) {
  auto catalogue = load_runtime_catalogue(REVIEWER_SOURCE_DIR "/matrix/runtimes.json");
  ASSERT_TRUE(catalogue) << catalogue.error().message;
  for (const char* version : {"18.0.0", "20.0.0", "22.0.0", "24.18.1", "24.7.0", "26.12.1"}) {
    EXPECT_NE(catalogue->find("node", version), nullptr) << version;
  }
  for (const char* version : {"1.0.0", "1.2.19", "1.3.0", "1.3.10"}) {
    EXPECT_NE(catalogue->find("bun", version), nullptr) << version;
  }
}

}  // namespace
}  // namespace reviewer::resolve
