// `reviewer matrix check FILE` as CI runs it: the shipped table passes, and each bad shape is
// refused with its rule id, exit 3.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.h"
#include "tests/unit/cli/run_reviewer.h"

namespace reviewer::cli {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using testing::run_reviewer;
using ::testing::StartsWith;

const std::string kShipped = std::string(REVIEWER_SOURCE_DIR) + "/matrix/runtime-matrix.json";

json shipped() {
  std::ifstream in(kShipped);
  return json::parse(in);
}

class MatrixCheck : public ::testing::Test {
 protected:
  // Writes `doc` and runs `reviewer matrix check` on it.
  std::pair<int, std::string> check(const json& doc) {
    dir_.write("m.json", doc.dump(2));
    return run_reviewer("matrix check " + (dir_ / "m.json"));
  }
  test_support::TempDir dir_;
};

TEST_F(MatrixCheck, ShippedTablePasses) {
  auto [code, out] = run_reviewer("matrix check " + kShipped);
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr(": ok: 4 images, "));
  EXPECT_THAT(out, HasSubstr("base bookworm sha256:"));
}

TEST_F(MatrixCheck, EachBadShapeIsRefusedByRule) {
  struct Case {
    const char* what;
    void (*mutate)(json&);
    const char* expected;  // the whole first line
  };
  const Case cases[] = {
      {"unknown key", [](json& d) { d["images"][0]["latest"] = true; },
       "matrix-unknown-key: M: /images/0: unknown key \"latest\""},
      {"download URL", [](json& d) { d["runtimes"]["bun"]["1.3.10"]["url"] = "https://x"; },
       "matrix-unknown-key: M: /runtimes/bun/1.3.10: unknown key \"url\""},
      {"duplicate name", [](json& d) { d["images"][1]["name"] = d["images"][0]["name"]; },
       "matrix-duplicate-name: M: /images/1/name: duplicate image name "
       "\"reviewer-node20-bun1310\""},
      {"placeholder digest", [](json& d) { d["base"]["digest"] = "sha256:placeholder"; },
       "matrix-checksum-shape: M: /base/digest: \"sha256:placeholder\" is not "
       "sha256:<64 lowercase hex digits>"},
      {"short sha256", [](json& d) { d["runtimes"]["node"]["20.20.2"]["sha256"] = "abc"; },
       "matrix-checksum-shape: M: /runtimes/node/20.20.2/sha256: \"abc\" is not 64 lowercase hex "
       "digits"},
      {"sha1 integrity",
       [](json& d) { d["runtimes"]["npm"]["11.21.2"]["integrity"] = "sha1-AAAA"; },
       "matrix-checksum-shape: M: /runtimes/npm/11.21.2/integrity: \"sha1-AAAA\" is not a "
       "registry integrity sha512-<86 base64 characters>=="},
      {"missing key", [](json& d) { d["base"].erase("packages"); },
       "invalid-matrix: M: /base: missing key \"packages\""},
      {"wrong type", [](json& d) { d["images"] = json::object(); },
       "invalid-matrix: M: /images: must be a non-empty array"},
  };
  for (const auto& c : cases) {
    json doc = shipped();
    c.mutate(doc);
    auto [code, out] = check(doc);
    EXPECT_EQ(code, 3) << c.what << "\n" << out;
    std::string expected = c.expected;
    expected.replace(expected.find('M'), 1, dir_ / "m.json");
    EXPECT_EQ(out, expected + "\n") << c.what;
  }
}

TEST_F(MatrixCheck, UnreadableFileAndUsage) {
  auto [code, out] = run_reviewer("matrix check " + (dir_ / "absent.json"));
  EXPECT_EQ(code, 3);
  EXPECT_THAT(out, StartsWith("invalid-matrix: "));
  EXPECT_EQ(run_reviewer("matrix check").first, 2);
  EXPECT_EQ(run_reviewer("matrix").first, 2);
}

}  // namespace
}  // namespace reviewer::cli
