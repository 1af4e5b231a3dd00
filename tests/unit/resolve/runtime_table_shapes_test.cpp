// The matrix's string shapes against the regular expressions they replaced (kept here as the
// oracle): the same verdict for hand-picked strings and for random ones near each shape.
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/resolve/runtime_table_shapes.h"

namespace reviewer::resolve::shapes {
namespace {

struct Shape {
  const char* pattern;
  bool (*scan)(std::string_view);
  std::vector<std::string> seeds;
};

const std::string kHex64(64, 'a');

std::vector<Shape> shapes() {
  return {
      {"[0-9a-f]{64}", sha256_hex, {kHex64, "0f" + kHex64.substr(2)}},
      {"sha256:[0-9a-f]{64}", sha256_digest, {"sha256:" + kHex64}},
      {"sha512-[A-Za-z0-9+/]{86}==", sha512_integrity, {"sha512-" + std::string(86, 'Z') + "=="}},
      {"[a-z0-9][a-z0-9.+-]*", debian_name, {"libc6", "g++-12", "a.b"}},
      {"([0-9]+:)?[0-9][A-Za-z0-9.+~-]*", debian_version, {"1:2.36-9+deb12u4", "12~rc1", "2:"}},
      {"deb https?://deb\\.debian\\.org/debian(-security)? [a-z]+(-[a-z]+)? [a-z ]+",
       debian_source,
       {"deb http://deb.debian.org/debian bookworm main",
        "deb https://deb.debian.org/debian-security bookworm-security main contrib"}},
      {"((@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*)@(.+)",
       npm_package,
       {"node@22.1.0", "@oven/bun-linux-x64@1.3.10", "@a/b@c@d"}},
      {"(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*",
       package_path,
       {"bin/node", "a/../b", "./x", "x/.", "a..b/.c", "a//b"}},
      {"[a-z0-9][a-z0-9._-]{0,127}", image_name, {"node22-bun1", std::string(128, 'a')}},
      {"minbase|essential|apt|required|important|standard",
       mmdebstrap_variant,
       {"apt", "aptx", "standard"}},
  };
}

// A seed with a few characters changed, inserted or removed.
std::string mutate(std::string s, std::mt19937& rng) {
  const std::string alphabet = "aZ09.-+/@:_~ =\n";
  std::uniform_int_distribution<int> pick(0, 1 << 20);
  for (int n = pick(rng) % 4; n > 0; --n) {
    const std::size_t at = s.empty() ? 0 : static_cast<std::size_t>(pick(rng)) % s.size();
    const char c = alphabet[static_cast<std::size_t>(pick(rng)) % alphabet.size()];
    switch (pick(rng) % 3) {
      case 0:
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), c);
        break;
      case 1:
        if (!s.empty()) {
          s[at] = c;
        }
        break;
      default:
        if (!s.empty()) {
          s.erase(at, 1);
        }
    }
  }
  return s;
}

TEST(MatrixShapes, AgreeWithTheRegularExpressions) {
  std::mt19937 rng(15);
  for (const Shape& shape : shapes()) {
    const std::regex re(shape.pattern);
    for (const std::string& seed : shape.seeds) {
      EXPECT_EQ(shape.scan(seed), std::regex_match(seed, re)) << shape.pattern << " " << seed;
      for (int i = 0; i < 400; ++i) {
        const std::string s = mutate(seed, rng);
        EXPECT_EQ(shape.scan(s), std::regex_match(s, re)) << shape.pattern << " \"" << s << '"';
      }
    }
  }
}

TEST(MatrixShapes, NpmPackageVersionIsTheTextAfterTheNamesAt) {
  EXPECT_EQ(npm_package_version("@oven/bun-linux-x64@1.3.10"), "1.3.10");
  EXPECT_EQ(npm_package_version("node@22.1.0"), "22.1.0");
  EXPECT_EQ(npm_package_version("node@"), std::nullopt);
  EXPECT_EQ(npm_package_version("Node@1"), std::nullopt);
}

}  // namespace
}  // namespace reviewer::resolve::shapes
