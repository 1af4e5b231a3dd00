#include "core/resolve/matrix.h"

#include <algorithm>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "core/resolve/declaration.h"
#include "core/resolve/safe_file.h"
#include "core/resolve/semver_version.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

// Validation walks the document with a JSON pointer for messages; the first problem wins.
class Validator {
 public:
  explicit Validator(std::string name) : name_(std::move(name)) {}

  util::Refusal fail(const std::string& pointer, const std::string& what) const {
    return util::refusal("invalid-matrix",
                         name_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
  }

  // Checks that `obj` is an object holding every `required` key and only `allowed` ones.
  std::optional<util::Refusal> object(const json& obj, const std::string& pointer,
                                      const std::vector<std::string>& required,
                                      const std::vector<std::string>& optional_keys = {}) const {
    if (!obj.is_object()) {
      return fail(pointer, std::string("must be an object, not ") + obj.type_name());
    }
    for (const auto& key : required) {
      if (!obj.contains(key)) {
        return fail(pointer, "missing key " + quote(key));
      }
    }
    for (const auto& item : obj.items()) {
      const bool known =
          std::find(required.begin(), required.end(), item.key()) != required.end() ||
          std::find(optional_keys.begin(), optional_keys.end(), item.key()) != optional_keys.end();
      if (!known) {
        return fail(pointer, "unknown key " + quote(item.key()));
      }
    }
    return std::nullopt;
  }

  std::optional<util::Refusal> string(const json& v, const std::string& pointer,
                                      const std::regex& pattern,
                                      const std::string& expected) const {
    if (!v.is_string()) {
      return fail(pointer, "must be a string (" + expected + ")");
    }
    if (!std::regex_match(v.get<std::string>(), pattern)) {
      return fail(pointer, quote(v.get<std::string>()) + " is not " + expected);
    }
    return std::nullopt;
  }

 private:
  std::string name_;
};

bool is_known_tool(const std::string& tool) {
  return std::find(std::begin(kKnownTools), std::end(kKnownTools), tool) != std::end(kKnownTools);
}

// An exact version written canonically: what node-semver's valid() returns for it.
bool is_canonical_version(const std::string& v) {
  auto parsed = parse_version(v);
  return parsed && parsed->to_string() == v && v.front() != 'v';
}

}  // namespace

util::Result<Matrix> parse_matrix(std::string_view text, const std::string& name) {
  static const std::regex kDigest("sha256:([0-9a-f]{64}|placeholder)");
  static const std::regex kPlatform("linux/amd64");
  static const std::regex kNonEmpty(".+");
  static const std::regex kUrl("https://[^\\s]+");
  static const std::regex kSha256("[0-9a-f]{64}|placeholder");
  static const std::regex kImageName("[a-z0-9][a-z0-9._-]{0,127}");
  const Validator check(name);

  json doc;
  try {  // nlohmann reports syntax errors only by exception; it stops here
    doc = json::parse(text);
  } catch (const json::exception& e) {
    return check.fail("", std::string("not valid JSON: ") + e.what());
  }
  if (auto e = check.object(doc, "", {"schema_version", "base", "runtimes", "images"}, {"note"})) {
    return *e;
  }
  if (!doc["schema_version"].is_number_integer() ||
      doc["schema_version"].get<int>() != kMatrixSchemaVersion) {
    return check.fail("/schema_version", "must be " + std::to_string(kMatrixSchemaVersion));
  }
  if (doc.contains("note") && !doc["note"].is_string()) {
    return check.fail("/note", "must be a string");
  }

  Matrix m;
  const json& base = doc["base"];
  if (auto e = check.object(base, "/base", {"image", "digest", "platform"})) {
    return *e;
  }
  if (auto e = check.string(base["image"], "/base/image", kNonEmpty, "an image name")) {
    return *e;
  }
  if (auto e = check.string(base["digest"], "/base/digest", kDigest,
                            "sha256:<64 lowercase hex digits> or sha256:placeholder")) {
    return *e;
  }
  if (auto e = check.string(base["platform"], "/base/platform", kPlatform, "linux/amd64")) {
    return *e;
  }
  m.base = {base["image"].get<std::string>(), base["digest"].get<std::string>(),
            base["platform"].get<std::string>()};

  const json& runtimes = doc["runtimes"];
  if (!runtimes.is_object()) {
    return check.fail("/runtimes", "must be an object");
  }
  for (const auto& [tool, versions] : runtimes.items()) {
    const std::string tp = "/runtimes/" + tool;
    if (!is_known_tool(tool)) {
      return check.fail("/runtimes", "unknown key " + quote(tool));
    }
    if (!versions.is_object()) {
      return check.fail(tp, "must be an object of versions");
    }
    for (const auto& [version, artifact] : versions.items()) {
      const std::string vp = tp + "/" + version;
      if (!is_canonical_version(version)) {
        return check.fail(tp, quote(version) + " is not an exact version such as 22.22.1");
      }
      if (auto e = check.object(artifact, vp, {"url", "sha256"})) {
        return *e;
      }
      if (auto e = check.string(artifact["url"], vp + "/url", kUrl, "an https:// URL")) {
        return *e;
      }
      if (auto e = check.string(artifact["sha256"], vp + "/sha256", kSha256,
                                "64 lowercase hex digits or \"placeholder\"")) {
        return *e;
      }
      m.runtimes[tool][version] = {artifact["url"].get<std::string>(),
                                   artifact["sha256"].get<std::string>()};
    }
  }

  const json& images = doc["images"];
  if (!images.is_array() || images.empty()) {
    return check.fail("/images", "must be a non-empty array");
  }
  std::set<std::string> names;
  std::set<std::map<std::string, std::string>> contents;
  for (std::size_t i = 0; i < images.size(); ++i) {
    const std::string ip = "/images/" + std::to_string(i);
    const json& img = images[i];
    if (auto e = check.object(img, ip, {"name", "runtimes"})) {
      return *e;
    }
    if (auto e = check.string(img["name"], ip + "/name", kImageName,
                              "an image name ([a-z0-9][a-z0-9._-]*)")) {
      return *e;
    }
    Image image;
    image.name = img["name"].get<std::string>();
    if (!names.insert(image.name).second) {
      return check.fail(ip + "/name", "duplicate image name " + quote(image.name));
    }
    const json& rt = img["runtimes"];
    if (auto e = check.object(rt, ip + "/runtimes", {"node", "bun"}, {"pnpm", "yarn", "npm"})) {
      return *e;
    }
    for (const auto& [tool, version] : rt.items()) {
      const std::string vp = ip + "/runtimes/" + tool;
      if (!version.is_string()) {
        return check.fail(vp, "must be a version string");
      }
      const std::string v = version.get<std::string>();
      const auto listed = m.runtimes.find(tool);
      if (listed == m.runtimes.end() || !listed->second.contains(v)) {
        return check.fail(
            vp, quote(v) + " is not listed under /runtimes/" + tool + " with its checksum");
      }
      image.runtimes[tool] = v;
    }
    if (!contents.insert(image.runtimes).second) {
      return check.fail(
          ip, "image " + quote(image.name) + " carries the same versions as an earlier image");
    }
    m.images.push_back(std::move(image));
  }
  return m;
}

util::Result<Matrix> load_matrix(const std::string& path) {
  auto text = read_bounded_file(path, kMaxMatrixBytes, "invalid-matrix");
  if (!text) {
    return text.error();
  }
  return parse_matrix(*text, path);
}

}  // namespace reviewer::resolve
