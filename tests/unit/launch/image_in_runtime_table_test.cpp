#include "core/launch/image_in_runtime_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/refusals_of.h"

namespace reviewer::launch {
namespace {

resolve::RuntimeTable matrix() {
  resolve::RuntimeTable m;
  m.images = {{"reviewer-node20-bun13", {{"node", "20.20.2"}, {"bun", "1.3.10"}}},
              {"reviewer-node22-bun1310", {{"node", "22.22.1"}, {"bun", "1.3.10"}}}};
  return m;
}

ImageInfo image(const std::string& name, const std::string& node, const std::string& bun) {
  ImageInfo info;
  info.name = name;
  if (!node.empty()) {
    info.runtimes["node"] = {"/usr/bin/node", node};
  }
  if (!bun.empty()) {
    info.runtimes["bun"] = {"/opt/reviewer/runtimes/bun/bin/bun", bun};
  }
  return info;
}

// "rule: message" of every refusal of `s`, none when it is ok.
std::vector<std::string> texts(const util::Status& s) {
  std::vector<std::string> out;
  for (const auto& r : test_support::refusals_of(s)) {
    out.push_back(r.rule + ": " + r.message);
  }
  return out;
}

struct Case {
  const char* what;
  ImageInfo image;
  std::vector<std::string> refusals;
};

TEST(ImageMatrix, TheDescriptionMustBeItsMatrixImage) {
  ImageInfo extra = image("reviewer-node20-bun13", "20.20.2", "1.3.10");
  extra.runtimes["deno"] = {"/usr/bin/deno", "2.0.0"};
  const Case cases[] = {
      {"the staged image", image("reviewer-node20-bun13", "20.20.2", "1.3.10"), {}},
      {"another image's name over Node 20",
       image("reviewer-node22-bun1310", "20.20.2", "1.3.10"),
       {"runtime-mismatch: image.json declares node 20.20.2, but matrix image "
        "reviewer-node22-bun1310 carries node 22.22.1"}},
      {"a bun the matrix image does not carry",
       image("reviewer-node20-bun13", "20.20.2", "1.3.9"),
       {"runtime-mismatch: image.json declares bun 1.3.9, but matrix image reviewer-node20-bun13 "
        "carries bun 1.3.10"}},
      {"no bun",
       image("reviewer-node20-bun13", "20.20.2", ""),
       {"image-info-invalid: image.json declares no bun, but matrix image reviewer-node20-bun13 "
        "carries bun 1.3.10"}},
      {"a runtime the matrix image lacks",
       extra,
       {"image-info-invalid: image.json declares deno 2.0.0, which matrix image "
        "reviewer-node20-bun13 does not carry"}},
      {"a name outside the matrix",
       image("reviewer-homemade", "20.20.2", "1.3.10"),
       {"image-info-invalid: image.json: 'reviewer-homemade' is not an image of the matrix "
        "(images: reviewer-node20-bun13, reviewer-node22-bun1310)"}},
  };
  for (const auto& c : cases) {
    EXPECT_THAT(texts(check_image_against_runtime_table(c.image, matrix())),
                ::testing::ElementsAreArray(c.refusals))
        << c.what;
  }
}

}  // namespace
}  // namespace reviewer::launch
