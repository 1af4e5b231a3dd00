// The trusted runtime catalogue: every rule refuses its hostile input by rule id and JSON pointer;
// what the renderer writes parses back to the same catalogue and renders to the same bytes; the
// file is read bounded and without following a symlink.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/resolve/runtime_catalogue.h"
#include "tests/support/temp_dir.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

const std::string kSha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const std::string kIntegrity = "sha512-" + std::string(86, 'A') + "==";
const std::string kFixture = std::string(REVIEWER_SOURCE_DIR) + "/tests/data/runtimes/valid.json";

// A node or bun release as the file writes it (its file is implied).
json runtime_release(const std::string& version, const std::string& date) {
  return {{"version", version}, {"date", date}, {"integrity", kIntegrity}, {"sha256", kSha}};
}

// An npm or corepack release: it names its file.
json bundle_release(const std::string& version, const std::string& file) {
  return {{"version", version}, {"integrity", kIntegrity}, {"file", file}, {"sha256", kSha}};
}

// The smallest catalogue with every kind of entry: two node releases (one with its bundle
// recorded, one without corepack), a bun release, an npm and a corepack release.
json minimal() {
  json node18 = runtime_release("18.0.0", "2022-04-19");
  node18["npm"] = "8.6.0";
  node18["corepack"] = "0.10.0";
  json node25 = runtime_release("25.0.0", "2025-10-15");
  node25["corepack"] = "none";
  json schedule = {
      {"source", "the schedule"},
      {"lines",
       {{"18", {{"start", "2022-04-19"}, {"lts", "2022-10-25"}, {"codename", "Hydrogen"}}},
        {"25", {{"start", "2025-10-15"}}}}}};
  return {{"schema_version", 1},
          {"note", "test"},
          {"node_schedule", schedule},
          {"node", json::array({node18, node25})},
          {"bun", json::array({runtime_release("1.0.0", "2023-09-08")})},
          {"npm", json::array({bundle_release("8.6.0", "bin/npm-cli.js")})},
          {"corepack", json::array({bundle_release("0.10.0", "dist/corepack.js")})}};
}

// "rule: message", or "ok".
std::string error_of(const json& doc) {
  auto c = parse_runtime_catalogue(doc.dump(), "c.json");
  return c ? "ok" : c.error().rule + ": " + c.error().message;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Case {
  const char* what;
  void (*mutate)(json&);
  std::string expected;  // "rule: message"
};

void expect_cases(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    json doc = minimal();
    c.mutate(doc);
    EXPECT_EQ(error_of(doc), c.expected) << c.what;
  }
}

TEST(RuntimeCatalogue, MinimalParses) {
  auto c = parse_runtime_catalogue(minimal().dump(), "c.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->source, "c.json");
  ASSERT_EQ(c->node.size(), 2U);
  EXPECT_EQ(c->node[0].file, "bin/node");  // implied by kCatalogueTools
  EXPECT_EQ(c->node[0].npm, "8.6.0");
  EXPECT_EQ(c->node[0].corepack, "0.10.0");
  EXPECT_EQ(c->node[1].npm, "");
  EXPECT_EQ(c->node[1].corepack, kNotBundled);
  EXPECT_FALSE(c->node[1].dated_by_registry);
  EXPECT_EQ(c->bun.at(0).file, "bin/bun");
  EXPECT_EQ(c->bun.at(0).date, "2023-09-08");
  EXPECT_EQ(c->npm.at(0).file, "bin/npm-cli.js");
  EXPECT_EQ(c->npm.at(0).date, "");
  EXPECT_EQ(c->corepack.at(0).integrity, kIntegrity);
  ASSERT_EQ(c->node_schedule.lines.size(), 2U);
  EXPECT_EQ(c->node_schedule.lines[0].codename, "Hydrogen");
  EXPECT_EQ(c->node_schedule.lines[1].lts, "");
}

TEST(RuntimeCatalogue, UnknownKeysAtEveryLevel) {
  expect_cases({
      {"top level", [](json& d) { d["url"] = "https://x"; },
       "catalogue-unknown-key: c.json: /: unknown key \"url\""},
      {"a node release's file, which is implied", [](json& d) { d["node"][1]["file"] = "x"; },
       "catalogue-unknown-key: c.json: /node/1: unknown key \"file\""},
      {"a bun release's npm", [](json& d) { d["bun"][0]["npm"] = "8.6.0"; },
       "catalogue-unknown-key: c.json: /bun/0: unknown key \"npm\""},
      {"an npm release's date", [](json& d) { d["npm"][0]["date"] = "2022-04-19"; },
       "catalogue-unknown-key: c.json: /npm/0: unknown key \"date\""},
      {"a corepack download url", [](json& d) { d["corepack"][0]["url"] = "https://x"; },
       "catalogue-unknown-key: c.json: /corepack/0: unknown key \"url\""},
      {"a schedule line's eol", [](json& d) { d["node_schedule"]["lines"]["25"]["eol"] = "x"; },
       "catalogue-unknown-key: c.json: /node_schedule/lines/25: unknown key \"eol\""},
  });
}

TEST(RuntimeCatalogue, ChecksumShapes) {
  expect_cases({
      {"short sha256", [](json& d) { d["node"][1]["sha256"] = "abc"; },
       "catalogue-checksum-shape: c.json: /node/1/sha256: \"abc\" is not 64 lowercase hex "
       "digits"},
      {"uppercase sha256", [](json& d) { d["npm"][0]["sha256"] = std::string(64, 'A'); },
       "catalogue-checksum-shape: c.json: /npm/0/sha256: \"" + std::string(64, 'A') +
           "\" is not 64 lowercase hex digits"},
      {"sha1 integrity", [](json& d) { d["bun"][0]["integrity"] = "sha1-AAAA"; },
       "catalogue-checksum-shape: c.json: /bun/0/integrity: \"sha1-AAAA\" is not a registry "
       "integrity sha512-<86 base64 characters>=="},
      {"placeholder integrity", [](json& d) { d["corepack"][0]["integrity"] = "sha512-TODO"; },
       "catalogue-checksum-shape: c.json: /corepack/0/integrity: \"sha512-TODO\" is not a "
       "registry integrity sha512-<86 base64 characters>=="},
  });
}

TEST(RuntimeCatalogue, ReleasesAscendStrictly) {
  expect_cases({
      {"descending node", [](json& d) { std::swap(d["node"][0], d["node"][1]); },
       "catalogue-order: c.json: /node/1/version: \"18.0.0\" does not come after \"25.0.0\" "
       "(/node/0): each tool's releases ascend strictly by version"},
      {"duplicate bun", [](json& d) { d["bun"].push_back(runtime_release("1.0.0", "2023-09-08")); },
       "catalogue-order: c.json: /bun/1/version: \"1.0.0\" does not come after \"1.0.0\" "
       "(/bun/0): each tool's releases ascend strictly by version"},
      {"semver, not text: 8.10.0 after 8.9.0",
       [](json& d) {
         d["npm"].push_back(bundle_release("8.10.0", "bin/npm-cli.js"));
         d["npm"].push_back(bundle_release("8.9.0", "bin/npm-cli.js"));
       },
       "catalogue-order: c.json: /npm/2/version: \"8.9.0\" does not come after \"8.10.0\" "
       "(/npm/1): each tool's releases ascend strictly by version"},
  });
}

TEST(RuntimeCatalogue, BundledVersionsAreListed) {
  expect_cases({
      {"npm not listed", [](json& d) { d["node"][1]["npm"] = "11.6.2"; },
       "catalogue-bundle-missing: c.json: /node/1/npm: npm \"11.6.2\" is not listed under /npm: "
       "a bundled release needs its own entry with its checksums"},
      {"corepack not listed", [](json& d) { d["node"][0]["corepack"] = "0.11.0"; },
       "catalogue-bundle-missing: c.json: /node/0/corepack: corepack \"0.11.0\" is not listed "
       "under /corepack: a bundled release needs its own entry with its checksums"},
      {"listed under the other tool",
       [](json& d) {
         d["npm"].push_back(bundle_release("9.0.0", "bin/npm-cli.js"));
         d["node"][1]["corepack"] = "9.0.0";
       },
       "catalogue-bundle-missing: c.json: /node/1/corepack: corepack \"9.0.0\" is not listed "
       "under /corepack: a bundled release needs its own entry with its checksums"},
  });
}

TEST(RuntimeCatalogue, TheDocumentAndItsTypes) {
  expect_cases({
      {"wrong schema", [](json& d) { d["schema_version"] = 2; },
       "invalid-catalogue: c.json: /schema_version: must be 1"},
      {"schema as text", [](json& d) { d["schema_version"] = "1"; },
       "invalid-catalogue: c.json: /schema_version: must be 1"},
      {"schema as a fraction", [](json& d) { d["schema_version"] = 1.0; },
       "invalid-catalogue: c.json: /schema_version: must be 1"},
      {"missing tool", [](json& d) { d.erase("corepack"); },
       "invalid-catalogue: c.json: /: missing key \"corepack\""},
      {"missing note", [](json& d) { d.erase("note"); },
       "invalid-catalogue: c.json: /: missing key \"note\""},
      {"note not text", [](json& d) { d["note"] = 1; },
       "invalid-catalogue: c.json: /note: must be a string"},
      {"releases not a list", [](json& d) { d["bun"] = json::object(); },
       "invalid-catalogue: c.json: /bun: must be an array of releases"},
      {"release not an object", [](json& d) { d["npm"][0] = "8.6.0"; },
       "invalid-catalogue: c.json: /npm/0: must be an object, not string"},
      {"release without its sha256", [](json& d) { d["node"][0].erase("sha256"); },
       "invalid-catalogue: c.json: /node/0: missing key \"sha256\""},
      {"npm release without its file", [](json& d) { d["npm"][0].erase("file"); },
       "invalid-catalogue: c.json: /npm/0: missing key \"file\""},
      {"schedule", [](json& d) { d["node_schedule"]["lines"] = json::object(); },
       "invalid-catalogue: c.json: /node_schedule/lines: must be a non-empty object"},
      {"schedule date", [](json& d) { d["node_schedule"]["lines"]["25"]["start"] = "2025"; },
       "invalid-catalogue: c.json: /node_schedule/lines/25/start: \"2025\" is not a YYYY-MM-DD "
       "date"},
  });
  EXPECT_EQ(error_of(json::array()), "invalid-catalogue: c.json: /: must be an object, not array");
  auto c = parse_runtime_catalogue("{\"node\": [", "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().rule, "invalid-catalogue");
  EXPECT_EQ(c.error().message.rfind("c.json: /: not valid JSON", 0), 0U) << c.error().message;
}

TEST(RuntimeCatalogue, VersionsAreExactReleases) {
  const std::string exact =
      "is not an exact release version such as 22.23.5 (no prerelease, no build)";
  struct Bad {
    const char* tool;
    const char* version;
  };
  for (const auto& [tool, version] :
       {Bad{"node", "v18.0.0"}, Bad{"node", "18.0.0-rc.1"}, Bad{"node", "18.0.0+build"},
        Bad{"node", "18.00.0"}, Bad{"node", " 18.0.0"}, Bad{"bun", "1.3.0-canary.1"},
        Bad{"npm", "8.6"}, Bad{"corepack", "latest"}}) {
    json doc = minimal();
    doc[tool][0]["version"] = version;
    EXPECT_EQ(error_of(doc), "invalid-catalogue: c.json: /" + std::string(tool) + "/0/version: \"" +
                                 version + "\" " + exact)
        << tool << " " << version;
  }
  json doc = minimal();
  doc["node"][0]["version"] = 18;
  EXPECT_EQ(error_of(doc),
            "invalid-catalogue: c.json: /node/0/version: must be a string (an exact release "
            "version such as 22.23.5 (no prerelease, no build))");
}

TEST(RuntimeCatalogue, OldestReleases) {
  expect_cases({
      {"node 17", [](json& d) { d["node"][0]["version"] = "17.9.1"; },
       "invalid-catalogue: c.json: /node/0/version: \"17.9.1\" is before 18.0.0, the oldest node "
       "release the catalogue holds"},
      {"bun 0.8", [](json& d) { d["bun"][0]["version"] = "0.8.1"; },
       "invalid-catalogue: c.json: /bun/0/version: \"0.8.1\" is before 1.0.0, the oldest bun "
       "release the catalogue holds"},
      {"npm has no oldest", [](json& d) { d["npm"][0]["version"] = "0.0.1"; },
       "catalogue-bundle-missing: c.json: /node/0/npm: npm \"8.6.0\" is not listed under /npm: "
       "a bundled release needs its own entry with its checksums"},
  });
}

TEST(RuntimeCatalogue, DatesAndRegistryDating) {
  expect_cases({
      {"short date", [](json& d) { d["node"][0]["date"] = "2022-4-19"; },
       "invalid-catalogue: c.json: /node/0/date: \"2022-4-19\" is not a YYYY-MM-DD date"},
      {"a time", [](json& d) { d["bun"][0]["date"] = "2023-09-08T00:00:00Z"; },
       "invalid-catalogue: c.json: /bun/0/date: \"2023-09-08T00:00:00Z\" is not a YYYY-MM-DD "
       "date"},
      {"false is written by leaving the key out",
       [](json& d) { d["node"][0]["dated_by_registry"] = false; },
       "invalid-catalogue: c.json: /node/0/dated_by_registry: must be true (leave the key out "
       "when false)"},
      {"true as text", [](json& d) { d["bun"][0]["dated_by_registry"] = "true"; },
       "invalid-catalogue: c.json: /bun/0/dated_by_registry: must be true (leave the key out "
       "when false)"},
  });
  json doc = minimal();
  doc["bun"][0]["dated_by_registry"] = true;
  auto c = parse_runtime_catalogue(doc.dump(), "c.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->bun[0].dated_by_registry);
}

TEST(RuntimeCatalogue, FilesArePlainRelativePaths) {
  struct Bad {
    const char* file;
    const char* quoted;  // as the message quotes it
  };
  for (const auto& [file, quoted] :
       {Bad{"/bin/npm-cli.js", "\"/bin/npm-cli.js\""}, Bad{"../npm-cli.js", "\"../npm-cli.js\""},
        Bad{"bin/../../x", "\"bin/../../x\""}, Bad{"bin//npm-cli.js", "\"bin//npm-cli.js\""},
        Bad{"bin/", "\"bin/\""}, Bad{"", "\"\""}, Bad{"bin/./npm-cli.js", "\"bin/./npm-cli.js\""},
        Bad{"bin/npm\x01.js", "\"bin/npm\\x01.js\""}}) {
    json doc = minimal();
    doc["npm"][0]["file"] = file;
    EXPECT_EQ(error_of(doc), "invalid-catalogue: c.json: /npm/0/file: " + std::string(quoted) +
                                 " is not a plain relative path inside the package (such as "
                                 "bin/npm-cli.js)")
        << quoted;
  }
}

TEST(RuntimeCatalogue, BundleFields) {
  expect_cases({
      {"npm none: every node bundles npm", [](json& d) { d["node"][1]["npm"] = "none"; },
       "invalid-catalogue: c.json: /node/1/npm: \"none\" is not an exact npm release version "
       "such as 10.9.2"},
      {"corepack a range", [](json& d) { d["node"][0]["corepack"] = "^0.10.0"; },
       "invalid-catalogue: c.json: /node/0/corepack: \"^0.10.0\" is not an exact corepack "
       "release version such as 0.31.0, or \"none\""},
      {"npm a number", [](json& d) { d["node"][0]["npm"] = 8; },
       "invalid-catalogue: c.json: /node/0/npm: must be a string (an exact npm release version "
       "such as 10.9.2)"},
  });
}

TEST(RuntimeCatalogue, TheFirstProblemWins) {
  json doc = minimal();
  doc["node"][0]["sha256"] = "abc";
  doc["node"][1]["url"] = "x";
  EXPECT_EQ(error_of(doc),
            "catalogue-checksum-shape: c.json: /node/0/sha256: \"abc\" is not 64 lowercase hex "
            "digits");
}

// A catalogue as `reviewer runtimes update` would hold it, with what the text must escape.
RuntimeCatalogue sample() {
  RuntimeCatalogue c;
  c.node_schedule = {"the \"schedule\"",
                     {{20, "2023-04-18", "2023-10-24", "Iron"},
                      {18, "2022-04-19", "2022-10-25", "Hydrogen"},
                      {27, "2027-04-22", "2027-10-20", ""},
                      {25, "2025-10-15", "", ""}}};
  c.node = {{"18.0.0", kIntegrity, "bin/node", kSha, "2022-04-19", false, "8.6.0", "0.10.0"},
            {"20.0.0", kIntegrity, "bin/node", kSha, "2023-04-18", true, "", ""},
            {"25.0.0", kIntegrity, "bin/node", kSha, "2025-10-15", false, "8.6.0", "none"}};
  c.bun = {{"1.0.0", kIntegrity, "bin/bun", kSha, "2023-09-08", true, "", ""}};
  c.npm = {{"8.6.0", kIntegrity, "bin/npm-cli.js", kSha, "", false, "", ""}};
  c.corepack = {{"0.10.0", kIntegrity, "dist/corepack.js", kSha, "", false, "", ""}};
  return c;
}

TEST(RuntimeCatalogue, RendersOneReleaseALine) {
  RuntimeCatalogue c;
  c.node_schedule = {"s",
                     {{18, "2022-04-19", "2022-10-25", "Hydrogen"}, {25, "2025-10-15", "", ""}}};
  c.node = {{"18.0.0", "I", "bin/node", "S", "2022-04-19", false, "8.6.0", "none"},
            {"25.0.0", "I", "bin/node", "S", "2025-10-15", true, "", ""}};
  c.bun = {{"1.0.0", "I", "bin/bun", "S", "2023-09-08", false, "", ""}};
  c.npm = {{"8.6.0", "I", "bin/npm-cli.js", "S", "", false, "", ""}};
  EXPECT_EQ(render_runtime_catalogue(c, "n\t\"x\""),
            "{\n"
            "\"schema_version\": 1,\n"
            "\"note\": \"n\\t\\\"x\\\"\",\n"
            "\"node_schedule\": {\"source\": \"s\", \"lines\": {\"18\": {\"start\": "
            "\"2022-04-19\", \"lts\": \"2022-10-25\", \"codename\": \"Hydrogen\"}, \"25\": "
            "{\"start\": \"2025-10-15\"}}},\n"
            "\"node\": [\n"
            "{\"version\": \"18.0.0\", \"date\": \"2022-04-19\", \"integrity\": \"I\", \"sha256\": "
            "\"S\", \"npm\": \"8.6.0\", \"corepack\": \"none\"},\n"
            "{\"version\": \"25.0.0\", \"date\": \"2025-10-15\", \"dated_by_registry\": true, "
            "\"integrity\": \"I\", \"sha256\": \"S\"}\n"
            "],\n"
            "\"bun\": [\n"
            "{\"version\": \"1.0.0\", \"date\": \"2023-09-08\", \"integrity\": \"I\", \"sha256\": "
            "\"S\"}\n"
            "],\n"
            "\"npm\": [\n"
            "{\"version\": \"8.6.0\", \"integrity\": \"I\", \"file\": \"bin/npm-cli.js\", "
            "\"sha256\": \"S\"}\n"
            "],\n"
            "\"corepack\": []\n"
            "}\n");
}

void expect_same_releases(const std::vector<CatalogueRelease>& a,
                          const std::vector<CatalogueRelease>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].version, b[i].version);
    EXPECT_EQ(a[i].integrity, b[i].integrity);
    EXPECT_EQ(a[i].file, b[i].file);
    EXPECT_EQ(a[i].sha256, b[i].sha256);
    EXPECT_EQ(a[i].date, b[i].date);
    EXPECT_EQ(a[i].dated_by_registry, b[i].dated_by_registry);
    EXPECT_EQ(a[i].npm, b[i].npm);
    EXPECT_EQ(a[i].corepack, b[i].corepack);
  }
}

TEST(RuntimeCatalogue, RoundTrip) {
  const RuntimeCatalogue original = sample();
  const std::string note = "made by a test: \"quotes\", a \\ and a line\nbreak, and é";
  const std::string text = render_runtime_catalogue(original, note);
  auto parsed = parse_runtime_catalogue(text, "c.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message << "\n" << text;
  for (const char* tool : {"node", "bun", "npm", "corepack"}) {
    SCOPED_TRACE(tool);
    expect_same_releases(*parsed->releases(tool), *original.releases(tool));
  }
  ASSERT_EQ(parsed->node_schedule.lines.size(), 4U);
  EXPECT_EQ(parsed->node_schedule.source, original.node_schedule.source);
  EXPECT_EQ(parsed->node_schedule.lines[0].major, 18);  // written ascending by major
  EXPECT_EQ(parsed->node_schedule.lines[3].codename, "");
  EXPECT_EQ(json::parse(text)["note"], note);
  EXPECT_EQ(render_runtime_catalogue(*parsed, note), text);
}

TEST(RuntimeCatalogue, TheFixtureIsWrittenAsTheRendererWritesIt) {
  const std::string text = slurp(kFixture);
  auto c = load_runtime_catalogue(kFixture);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(render_runtime_catalogue(*c, json::parse(text)["note"].get<std::string>()), text);
}

TEST(RuntimeCatalogue, FindAndReleases) {
  auto c = parse_runtime_catalogue(minimal().dump(), "c.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_NE(c->releases("node"), nullptr);
  EXPECT_EQ(c->releases("node"), &c->node);
  EXPECT_EQ(c->releases("bun"), &c->bun);
  EXPECT_EQ(c->releases("npm"), &c->npm);
  EXPECT_EQ(c->releases("corepack"), &c->corepack);
  EXPECT_EQ(c->releases("yarn"), nullptr);
  EXPECT_EQ(c->releases(""), nullptr);
  ASSERT_NE(c->find("node", "25.0.0"), nullptr);
  EXPECT_EQ(c->find("node", "25.0.0"), &c->node[1]);
  EXPECT_EQ(c->find("npm", "8.6.0")->file, "bin/npm-cli.js");
  EXPECT_EQ(c->find("corepack", "0.10.0")->file, "dist/corepack.js");
  EXPECT_EQ(c->find("node", "20.0.0"), nullptr);
  EXPECT_EQ(c->find("node", "v18.0.0"), nullptr);  // exact text only
  EXPECT_EQ(c->find("bun", "18.0.0"), nullptr);
  EXPECT_EQ(c->find("deno", "1.0.0"), nullptr);
}

TEST(RuntimeCatalogue, FileErrors) {
  test_support::TempDir dir;
  dir.write("c.json", minimal().dump());
  auto c = load_runtime_catalogue(dir / "c.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->source, dir / "c.json");

  ASSERT_EQ(::symlink((dir / "c.json").c_str(), (dir / "link.json").c_str()), 0);
  c = load_runtime_catalogue(dir / "link.json");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().rule, "invalid-catalogue");
  EXPECT_EQ(c.error().message,
            "\"" + (dir / "link.json") + "\" is a symlink; it must be a regular file, not a link");

  dir.write("big.json", std::string(kMaxRuntimeCatalogueBytes + 1, ' '));
  c = load_runtime_catalogue(dir / "big.json");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().rule, "invalid-catalogue");
  EXPECT_EQ(c.error().message,
            "\"" + (dir / "big.json") + "\" is 4194305 bytes, over the 4194304-byte bound");

  EXPECT_EQ(load_runtime_catalogue(dir / "absent.json").error().rule, "invalid-catalogue");
  EXPECT_EQ(load_runtime_catalogue(dir.path()).error().rule, "invalid-catalogue");
  dir.write("bad.json", "[]");
  EXPECT_EQ(load_runtime_catalogue(dir / "bad.json").error().message,
            dir / "bad.json" + ": /: must be an object, not array");
}

}  // namespace
}  // namespace reviewer::resolve
