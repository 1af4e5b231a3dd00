#include "core/plugins/manifest.h"

#include <gtest/gtest.h>

namespace reviewer::plugins {
namespace {

const std::string kHash(64, 'a');

TEST(Manifest, ParsesSha256sumLines) {
  auto m = parse_manifest(kHash + "  run.so\n" + std::string(64, 'b') + "  checkout.so\n", "M");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->size(), 2u);
  EXPECT_EQ(m->at("run.so"), kHash);
}

TEST(Manifest, RefusesMalformedLinesByPosition) {
  for (const std::string& bad : {std::string("xyz  run.so"), kHash + " run.so", kHash + "  ",
                                 kHash + "  ../run.so", std::string(64, 'A') + "  run.so"}) {
    auto m = parse_manifest("\n" + bad + "\n", "M");
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.error().rule, "plugin-manifest-invalid");
    EXPECT_EQ(m.error().location->to_string(), "M:2:1");
  }
}

}  // namespace
}  // namespace reviewer::plugins
