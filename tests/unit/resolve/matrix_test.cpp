// The runtime matrix: the shipped file loads; every validation rule refuses by pointer.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/resolve/matrix.h"
#include "tests/support/temp_dir.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

const std::string kShipped = std::string(REVIEWER_SOURCE_DIR) + "/matrix/runtime-matrix.json";

json minimal() {
  return json::parse(R"({
    "schema_version": 1,
    "base": {"image": "debian:bookworm-slim", "digest": "sha256:placeholder", "platform": "linux/amd64"},
    "runtimes": {
      "node": {"22.22.1": {"url": "https://nodejs.org/x.tar.xz", "sha256": "placeholder"}},
      "bun": {"1.3.10": {"url": "https://github.com/x.zip",
                         "sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}}
    },
    "images": [{"name": "img", "runtimes": {"node": "22.22.1", "bun": "1.3.10"}}]
  })");
}

std::string error_of(const json& doc) {
  auto m = parse_matrix(doc.dump(), "m.json");
  if (m.ok()) {
    return "ok";
  }
  EXPECT_EQ(m.error().rule, "invalid-matrix");
  return m.error().message;
}

TEST(Matrix, ShippedFileLoads) {
  auto m = load_matrix(kShipped);
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_GE(m->images.size(), 3U);
  EXPECT_EQ(m->base.platform, "linux/amd64");
  std::map<std::string, std::map<std::string, std::string>> by_name;
  for (const auto& image : m->images) {
    by_name[image.name] = image.runtimes;
  }
  EXPECT_EQ(by_name["reviewer-node20-bun13"],
            (std::map<std::string, std::string>{{"node", "20.20.2"}, {"bun", "1.3.10"}}));
  EXPECT_EQ(by_name["reviewer-node22-bun1310"],
            (std::map<std::string, std::string>{{"node", "22.22.1"}, {"bun", "1.3.10"}}));
  EXPECT_EQ(by_name["reviewer-node24-bun1310"].at("node").substr(0, 3), "24.");
}

TEST(Matrix, MinimalIsValid) { EXPECT_EQ(error_of(minimal()), "ok"); }

TEST(Matrix, UnknownKeysRefusedAtEveryLevel) {
  auto doc = minimal();
  doc["extra"] = 1;
  EXPECT_EQ(error_of(doc), "m.json: /: unknown key \"extra\"");
  doc = minimal();
  doc["base"]["tag"] = "x";
  EXPECT_EQ(error_of(doc), "m.json: /base: unknown key \"tag\"");
  doc = minimal();
  doc["images"][0]["runtimes"]["deno"] = "2.0.0";
  EXPECT_EQ(error_of(doc), "m.json: /images/0/runtimes: unknown key \"deno\"");
  doc = minimal();
  doc["images"][0]["default"] = true;
  EXPECT_EQ(error_of(doc), "m.json: /images/0: unknown key \"default\"");
  doc = minimal();
  doc["runtimes"]["node"]["22.22.1"]["sha512"] = "x";
  EXPECT_EQ(error_of(doc), "m.json: /runtimes/node/22.22.1: unknown key \"sha512\"");
  doc = minimal();
  doc["runtimes"]["deno"] = json::object();
  EXPECT_EQ(error_of(doc), "m.json: /runtimes: unknown key \"deno\"");
}

TEST(Matrix, ValuesChecked) {
  auto doc = minimal();
  doc["schema_version"] = 2;
  EXPECT_EQ(error_of(doc), "m.json: /schema_version: must be 1");
  doc = minimal();
  doc["base"]["platform"] = "linux/arm64";
  EXPECT_EQ(error_of(doc), "m.json: /base/platform: \"linux/arm64\" is not linux/amd64");
  doc = minimal();
  doc["base"]["digest"] = "sha256:abc";
  EXPECT_EQ(error_of(doc),
            "m.json: /base/digest: \"sha256:abc\" is not sha256:<64 lowercase hex digits> or "
            "sha256:placeholder");
  doc = minimal();
  doc["runtimes"]["node"]["v22.22.1"] = doc["runtimes"]["node"]["22.22.1"];
  EXPECT_EQ(error_of(doc),
            "m.json: /runtimes/node: \"v22.22.1\" is not an exact version such as 22.22.1");
  doc = minimal();
  doc["runtimes"]["node"]["22.22.1"]["url"] = "http://insecure";
  EXPECT_EQ(error_of(doc),
            "m.json: /runtimes/node/22.22.1/url: \"http://insecure\" is not an https:// URL");
  doc = minimal();
  doc["images"][0]["runtimes"]["node"] = "22.22.2";
  EXPECT_EQ(error_of(doc),
            "m.json: /images/0/runtimes/node: \"22.22.2\" is not listed under /runtimes/node "
            "with its checksum");
  doc = minimal();
  doc["images"][0]["runtimes"].erase("bun");
  EXPECT_EQ(error_of(doc), "m.json: /images/0/runtimes: missing key \"bun\"");
  doc = minimal();
  doc["images"].push_back(doc["images"][0]);
  EXPECT_EQ(error_of(doc), "m.json: /images/1/name: duplicate image name \"img\"");
  doc["images"][1]["name"] = "img2";
  EXPECT_EQ(error_of(doc),
            "m.json: /images/1: image \"img2\" carries the same versions as an earlier image");
  doc = minimal();
  doc["images"] = json::array();
  EXPECT_EQ(error_of(doc), "m.json: /images: must be a non-empty array");
  EXPECT_EQ(parse_matrix("{", "m.json").error().message.rfind("m.json: /: not valid JSON", 0), 0U);
}

TEST(Matrix, FileErrors) {
  test_support::TempDir dir;
  EXPECT_EQ(load_matrix(dir / "absent.json").error().rule, "invalid-matrix");
  EXPECT_EQ(load_matrix(dir.path()).error().rule, "invalid-matrix");
  dir.write("big.json", std::string(kMaxMatrixBytes + 1, ' '));
  EXPECT_EQ(load_matrix(dir / "big.json").error().message,
            "\"" + (dir / "big.json") + "\" is 1048577 bytes, over the 1048576-byte bound");
}

}  // namespace
}  // namespace reviewer::resolve
