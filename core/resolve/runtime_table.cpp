#include "core/resolve/runtime_table.h"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core/resolve/declaration.h"
#include "core/resolve/runtime_table_shapes.h"
#include "core/resolve/safe_file.h"
#include "core/semver/version.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

// Validation walks the document with a JSON pointer for messages; the first problem wins.
class Validator {
 public:
  explicit Validator(std::string name) : name_(std::move(name)) {}

  util::Refusal refuse(const std::string& rule, const std::string& pointer,
                       const std::string& what) const {
    return util::refusal(rule, name_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
  }

  util::Refusal fail(const std::string& pointer, const std::string& what) const {
    return refuse("invalid-matrix", pointer, what);
  }

  // Checks that `obj` is an object holding every `required` key and only `allowed` ones.
  util::Status object(const json& obj, const std::string& pointer,
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
        return refuse("matrix-unknown-key", pointer, "unknown key " + quote(item.key()));
      }
    }
    return util::ok_status();
  }

  // A string of the shape `matches` checks; a mismatch is refused under `rule`.
  util::Status string(const json& v, const std::string& pointer, bool (*matches)(std::string_view),
                      const std::string& expected,
                      const std::string& rule = "invalid-matrix") const {
    if (!v.is_string()) {
      return fail(pointer, "must be a string (" + expected + ")");
    }
    if (!matches(v.get<std::string>())) {
      return refuse(rule, pointer, quote(v.get<std::string>()) + " is not " + expected);
    }
    return util::ok_status();
  }

 private:
  std::string name_;
};

// The declared tools, and corepack: images carry it as Node's distributions do (its
// `corepack enable` is a run step's), but no declaration selects an image by it.
bool is_known_tool(const std::string& tool) {
  return tool == "corepack" ||
         std::find(std::begin(kKnownTools), std::end(kKnownTools), tool) != std::end(kKnownTools);
}

// An exact version written canonically: what node-semver's valid() returns for it.
bool is_canonical_version(const std::string& v) {
  auto parsed = semver::parse_version(v);
  return parsed && parsed->to_string() == v && v.front() != 'v';
}

util::Status parse_base(const json& base, const Validator& check, BaseImage& out) {
  if (auto e = check.object(base, "/base",
                            {"platform", "builder", "suite", "variant", "source_date_epoch",
                             "sources", "packages", "rootfs_sha256", "digest"});
      !e) {
    return e;
  }
  if (auto e = check.string(base["platform"], "/base/platform", shapes::platform, "linux/amd64");
      !e) {
    return e;
  }
  if (auto e = check.string(base["builder"], "/base/builder", shapes::builder, "mmdebstrap"); !e) {
    return e;
  }
  if (auto e =
          check.string(base["suite"], "/base/suite", shapes::debian_name, "a Debian suite name");
      !e) {
    return e;
  }
  if (auto e = check.string(base["variant"], "/base/variant", shapes::mmdebstrap_variant,
                            "an mmdebstrap variant");
      !e) {
    return e;
  }
  if (!base["source_date_epoch"].is_number_unsigned()) {
    return check.fail("/base/source_date_epoch", "must be a non-negative integer");
  }
  const json& sources = base["sources"];
  if (!sources.is_array() || sources.empty()) {
    return check.fail("/base/sources", "must be a non-empty array of apt source lines");
  }
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (auto e =
            check.string(sources[i], "/base/sources/" + std::to_string(i), shapes::debian_source,
                         "a source line of Debian's archive (deb http://deb.debian.org/...)");
        !e) {
      return e;
    }
    out.sources.push_back(sources[i].get<std::string>());
  }
  const json& packages = base["packages"];
  if (!packages.is_object() || packages.empty()) {
    return check.fail("/base/packages", "must be a non-empty object of package: version");
  }
  for (const auto& [package, version] : packages.items()) {
    const std::string pp = "/base/packages/" + package;
    if (!shapes::debian_name(package)) {
      return check.fail("/base/packages", quote(package) + " is not a Debian package name");
    }
    if (auto e = check.string(version, pp, shapes::debian_version, "an exact Debian version"); !e) {
      return e;
    }
    out.packages[package] = version.get<std::string>();
  }
  if (auto e = check.string(base["rootfs_sha256"], "/base/rootfs_sha256", shapes::sha256_hex,
                            "64 lowercase hex digits", "matrix-checksum-shape");
      !e) {
    return e;
  }
  if (auto e = check.string(base["digest"], "/base/digest", shapes::sha256_digest,
                            "sha256:<64 lowercase hex digits>", "matrix-checksum-shape");
      !e) {
    return e;
  }
  out.platform = base["platform"].get<std::string>();
  out.builder = base["builder"].get<std::string>();
  out.suite = base["suite"].get<std::string>();
  out.variant = base["variant"].get<std::string>();
  out.source_date_epoch = base["source_date_epoch"].get<long long>();
  out.rootfs_sha256 = base["rootfs_sha256"].get<std::string>();
  out.digest = base["digest"].get<std::string>();
  return util::ok_status();
}

util::Status parse_artifact(const json& artifact, const std::string& version, const std::string& vp,
                            const Validator& check, RuntimeArtifact& out) {
  if (auto e = check.object(artifact, vp, {"package", "integrity", "binary", "sha256"}); !e) {
    return e;
  }
  if (auto e = check.string(artifact["package"], vp + "/package", shapes::npm_package,
                            "an npm package name@" + version);
      !e) {
    return e;
  }
  const std::string package = artifact["package"].get<std::string>();
  if (shapes::npm_package_version(package) != version) {
    return check.fail(vp + "/package", quote(package) + " is not version " + version +
                                           " of its package (the entry's own version)");
  }
  if (auto e = check.string(
          artifact["integrity"], vp + "/integrity", shapes::sha512_integrity,
          "a registry integrity sha512-<86 base64 characters>==", "matrix-checksum-shape");
      !e) {
    return e;
  }
  if (auto e = check.string(artifact["binary"], vp + "/binary", shapes::package_path,
                            "a relative path inside the package");
      !e) {
    return e;
  }
  if (auto e = check.string(artifact["sha256"], vp + "/sha256", shapes::sha256_hex,
                            "64 lowercase hex digits", "matrix-checksum-shape");
      !e) {
    return e;
  }
  out = {package, artifact["integrity"].get<std::string>(), artifact["binary"].get<std::string>(),
         artifact["sha256"].get<std::string>()};
  return util::ok_status();
}

util::Status parse_runtimes(const json& runtimes, const Validator& check, RuntimeTable& m) {
  if (!runtimes.is_object()) {
    return check.fail("/runtimes", "must be an object");
  }
  for (const auto& [tool, versions] : runtimes.items()) {
    const std::string tp = "/runtimes/" + tool;
    if (!is_known_tool(tool)) {
      return check.refuse("matrix-unknown-key", "/runtimes", "unknown key " + quote(tool));
    }
    if (!versions.is_object()) {
      return check.fail(tp, "must be an object of versions");
    }
    for (const auto& [version, artifact] : versions.items()) {
      if (!is_canonical_version(version)) {
        return check.fail(tp, quote(version) + " is not an exact version such as 22.23.5");
      }
      if (auto e = parse_artifact(artifact, version, tp + "/" + version, check,
                                  m.runtimes[tool][version]);
          !e) {
        return e;
      }
    }
  }
  return util::ok_status();
}

util::Status parse_images(const json& images, const Validator& check, RuntimeTable& m) {
  if (!images.is_array() || images.empty()) {
    return check.fail("/images", "must be a non-empty array");
  }
  std::set<std::string> names;
  std::set<std::map<std::string, std::string>> contents;
  for (std::size_t i = 0; i < images.size(); ++i) {
    const std::string ip = "/images/" + std::to_string(i);
    const json& img = images[i];
    if (auto e = check.object(img, ip, {"name", "runtimes"}); !e) {
      return e;
    }
    if (auto e = check.string(img["name"], ip + "/name", shapes::image_name,
                              "an image name ([a-z0-9][a-z0-9._-]*)");
        !e) {
      return e;
    }
    Image image;
    image.name = img["name"].get<std::string>();
    if (!names.insert(image.name).second) {
      return check.refuse("matrix-duplicate-name", ip + "/name",
                          "duplicate image name " + quote(image.name));
    }
    const json& rt = img["runtimes"];
    if (auto e = check.object(rt, ip + "/runtimes", {"node", "bun"},
                              {"pnpm", "yarn", "npm", "corepack"});
        !e) {
      return e;
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
  return util::ok_status();
}

bool is_date(std::string_view v) {
  if (v.size() != 10 || v[4] != '-' || v[7] != '-') {
    return false;
  }
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (v[i] < '0' || v[i] > '9') {
      return false;
    }
  }
  return true;
}

// "node_schedule": {"source": "...", "lines": {"26": {"start": D, "lts": D, "codename": N}}}:
// the Release working group's schedule, which setup-node's aliases (lts/*, latest) need.
util::Status parse_node_schedule(const json& ns, const Validator& check, NodeSchedule& out) {
  if (auto e = check.object(ns, "/node_schedule", {"source", "lines"}); !e) {
    return e;
  }
  if (!ns["source"].is_string() || ns["source"].get<std::string>().empty()) {
    return check.fail("/node_schedule/source", "must be a non-empty string");
  }
  out.source = ns["source"].get<std::string>();
  const json& lines = ns["lines"];
  if (!lines.is_object() || lines.empty()) {
    return check.fail("/node_schedule/lines", "must be a non-empty object");
  }
  for (const auto& item : lines.items()) {
    const std::string lp = "/node_schedule/lines/" + item.key();
    const std::string& key = item.key();
    if (key.empty() || key.size() > 3 || key.front() == '0' ||
        key.find_first_not_of("0123456789") != std::string::npos) {
      return check.fail(lp, "a line is named by its major version");
    }
    if (auto e = check.object(item.value(), lp, {"start"}, {"lts", "codename"}); !e) {
      return e;
    }
    NodeLine line;
    line.major = std::stoi(key);
    for (auto [field, dest] : {std::pair{"start", &line.start}, std::pair{"lts", &line.lts}}) {
      if (item.value().contains(field)) {
        if (auto e =
                check.string(item.value()[field], lp + "/" + field, is_date, "a YYYY-MM-DD date");
            !e) {
          return e;
        }
        *dest = item.value()[field].get<std::string>();
      }
    }
    if (item.value().contains("codename")) {
      if (!item.value()["codename"].is_string()) {
        return check.fail(lp + "/codename", "must be a string");
      }
      line.codename = item.value()["codename"].get<std::string>();
    }
    if (line.lts.empty() && !line.codename.empty()) {
      return check.fail(lp, "a codename belongs to an LTS line, which has an lts date");
    }
    out.lines.push_back(std::move(line));
  }
  std::sort(out.lines.begin(), out.lines.end(),
            [](const NodeLine& a, const NodeLine& b) { return a.major < b.major; });
  return util::ok_status();
}

}  // namespace

util::Result<RuntimeTable> parse_runtime_table(std::string_view text, const std::string& name) {
  const Validator check(name);
  json doc;
  try {  // nlohmann reports syntax errors only by exception; it stops here
    doc = json::parse(text);
  } catch (const json::exception& e) {
    return check.fail("", std::string("not valid JSON: ") + e.what());
  }
  if (auto e = check.object(doc, "", {"schema_version", "base", "runtimes", "images"},
                            {"note", "node_schedule"});
      !e) {
    return e.refusals();
  }
  if (!doc["schema_version"].is_number_integer() ||
      doc["schema_version"].get<int>() != kRuntimeTableSchemaVersion) {
    return check.fail("/schema_version", "must be " + std::to_string(kRuntimeTableSchemaVersion));
  }
  if (doc.contains("note") && !doc["note"].is_string()) {
    return check.fail("/note", "must be a string");
  }
  RuntimeTable m;
  if (auto e = parse_base(doc["base"], check, m.base); !e) {
    return e.refusals();
  }
  if (auto e = parse_runtimes(doc["runtimes"], check, m); !e) {
    return e.refusals();
  }
  if (auto e = parse_images(doc["images"], check, m); !e) {
    return e.refusals();
  }
  if (doc.contains("node_schedule")) {
    if (auto e = parse_node_schedule(doc["node_schedule"], check, m.node_schedule); !e) {
      return e.refusals();
    }
  }
  return m;
}

util::Result<RuntimeTable> load_runtime_table(const std::string& path) {
  auto text = read_bounded_file(path, kMaxRuntimeTableBytes, "invalid-matrix");
  if (!text) {
    return text.error();
  }
  auto m = parse_runtime_table(*text, path);
  if (m) {
    m->today = today_utc();
  }
  return m;
}

}  // namespace reviewer::resolve
