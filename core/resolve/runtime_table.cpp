#include "core/resolve/runtime_table.h"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "core/resolve/declaration.h"
#include "core/resolve/json_validator.h"
#include "core/resolve/node_schedule_json.h"
#include "core/resolve/runtime_table_shapes.h"
#include "core/resolve/safe_file.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

// The declared tools, and corepack: images carry it as Node's distributions do (its
// `corepack enable` is a run step's), but no declaration selects an image by it.
bool is_known_tool(const std::string& tool) {
  return tool == "corepack" ||
         std::find(std::begin(kKnownTools), std::end(kKnownTools), tool) != std::end(kKnownTools);
}

util::Status parse_base(const json& base, const JsonValidator& check, BaseImage& out) {
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
                            const JsonValidator& check, RuntimeArtifact& out) {
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

util::Status parse_runtimes(const json& runtimes, const JsonValidator& check, RuntimeTable& m) {
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
      if (!shapes::canonical_version(version)) {
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

util::Status parse_images(const json& images, const JsonValidator& check, RuntimeTable& m) {
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

}  // namespace

util::Result<RuntimeTable> parse_runtime_table(std::string_view text, const std::string& name) {
  const JsonValidator check(
      name, {.invalid_rule = "invalid-matrix", .unknown_key_rule = "matrix-unknown-key"});
  auto parsed = check.parse(text);
  if (!parsed) {
    return parsed.refusals();
  }
  const json& doc = *parsed;
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
