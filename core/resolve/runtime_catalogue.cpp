#include "core/resolve/runtime_catalogue.h"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/resolve/json_validator.h"
#include "core/resolve/node_schedule_json.h"
#include "core/resolve/runtime_table_shapes.h"
#include "core/resolve/safe_file.h"
#include "core/semver/version.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;
using Releases = std::vector<CatalogueRelease>;

constexpr std::string_view kRuleChecksumShape = "catalogue-checksum-shape";

// How one tool's releases are written. The runtimes (node, bun) are dated and their file is
// implied by kCatalogueTools; the bundled tools (npm, corepack) record their file per release.
struct ToolFormat {
  std::string_view name;
  Releases RuntimeCatalogue::*releases;
  std::string_view minimum;  // the oldest release the catalogue holds; empty: any
};
constexpr ToolFormat kFormats[] = {
    {"node", &RuntimeCatalogue::node, "18.0.0"},
    {"bun", &RuntimeCatalogue::bun, "1.0.0"},
    {"npm", &RuntimeCatalogue::npm, ""},
    {"corepack", &RuntimeCatalogue::corepack, ""},
};

// The runtime's file of a runtime tool; empty for a bundled tool, whose entries name theirs.
std::string_view implied_file(std::string_view tool) {
  const CatalogueTool* t = find_catalogue_tool(tool);
  return t == nullptr ? std::string_view() : t->file;
}

bool is_node(const ToolFormat& f) { return f.name == "node"; }

// A release as a workflow pins it: canonical, and neither a prerelease nor a build (a canonical
// version has a '-' only before its prerelease, and never a '+').
bool release_version(std::string_view s) {
  return shapes::canonical_version(s) && s.find('-') == std::string_view::npos;
}

bool release_or_not_bundled(std::string_view s) { return s == kNotBundled || release_version(s); }

semver::Version version_of(const std::string& canonical) {
  return semver::parse_version(canonical).value();
}

util::Status check_minimum(const CatalogueRelease& r, const ToolFormat& f, const std::string& vp,
                           const JsonValidator& check) {
  if (!f.minimum.empty() && version_of(r.version) < version_of(std::string(f.minimum))) {
    return check.fail(vp, quote(r.version) + " is before " + std::string(f.minimum) +
                              ", the oldest " + std::string(f.name) +
                              " release the catalogue holds");
  }
  return util::ok_status();
}

// "dated_by_registry": true, or no key: false is written by leaving it out, so one catalogue
// has one text.
util::Status parse_dated_by_registry(const json& entry, const std::string& p,
                                     const JsonValidator& check, CatalogueRelease& r) {
  if (!entry.contains("dated_by_registry")) {
    return util::ok_status();
  }
  if (entry["dated_by_registry"] != json(true)) {
    return check.fail(p + "/dated_by_registry", "must be true (leave the key out when false)");
  }
  r.dated_by_registry = true;
  return util::ok_status();
}

// node's "npm" and "corepack": the bundled versions, when recorded. Whether each is listed is
// checked once every tool is read (check_bundles).
util::Status parse_bundles(const json& entry, const std::string& p, const JsonValidator& check,
                           CatalogueRelease& r) {
  if (entry.contains("npm")) {
    if (auto e = check.string(entry["npm"], p + "/npm", release_version,
                              "an exact npm release version such as 10.9.2");
        !e) {
      return e;
    }
    r.npm = entry["npm"].get<std::string>();
  }
  if (entry.contains("corepack")) {
    if (auto e = check.string(entry["corepack"], p + "/corepack", release_or_not_bundled,
                              "an exact corepack release version such as 0.31.0, or \"none\"");
        !e) {
      return e;
    }
    r.corepack = entry["corepack"].get<std::string>();
  }
  return util::ok_status();
}

util::Status check_keys(const json& entry, const ToolFormat& f, const std::string& p,
                        const JsonValidator& check) {
  if (implied_file(f.name).empty()) {
    return check.object(entry, p, {"version", "integrity", "file", "sha256"});
  }
  std::vector<std::string> optional_keys = {"dated_by_registry"};
  if (is_node(f)) {
    optional_keys.insert(optional_keys.end(), {"npm", "corepack"});
  }
  return check.object(entry, p, {"version", "date", "integrity", "sha256"}, optional_keys);
}

// The fields each kind of entry has, in the order they are written.
util::Status parse_fields(const json& entry, const ToolFormat& f, const std::string& p,
                          const JsonValidator& check, CatalogueRelease& r) {
  const bool runtime = !implied_file(f.name).empty();
  if (runtime) {
    if (auto e = check.string(entry["date"], p + "/date", shapes::date, "a YYYY-MM-DD date"); !e) {
      return e;
    }
    r.date = entry["date"].get<std::string>();
    if (auto e = parse_dated_by_registry(entry, p, check, r); !e) {
      return e;
    }
  }
  if (auto e =
          check.string(entry["integrity"], p + "/integrity", shapes::sha512_integrity,
                       "a registry integrity sha512-<86 base64 characters>==", kRuleChecksumShape);
      !e) {
    return e;
  }
  r.integrity = entry["integrity"].get<std::string>();
  r.file = std::string(implied_file(f.name));
  if (!runtime) {
    if (auto e = check.string(entry["file"], p + "/file", shapes::package_path,
                              "a plain relative path inside the package (such as bin/npm-cli.js)");
        !e) {
      return e;
    }
    r.file = entry["file"].get<std::string>();
  }
  if (auto e = check.string(entry["sha256"], p + "/sha256", shapes::sha256_hex,
                            "64 lowercase hex digits", kRuleChecksumShape);
      !e) {
    return e;
  }
  r.sha256 = entry["sha256"].get<std::string>();
  return is_node(f) ? parse_bundles(entry, p, check, r) : util::ok_status();
}

util::Result<CatalogueRelease> parse_release(const json& entry, const ToolFormat& f,
                                             const std::string& p, const JsonValidator& check) {
  if (auto e = check_keys(entry, f, p, check); !e) {
    return e.refusals();
  }
  if (auto e = check.string(entry["version"], p + "/version", release_version,
                            "an exact release version such as 22.23.5 (no prerelease, no build)");
      !e) {
    return e.refusals();
  }
  CatalogueRelease r;
  r.version = entry["version"].get<std::string>();
  if (auto e = check_minimum(r, f, p + "/version", check); !e) {
    return e.refusals();
  }
  if (auto e = parse_fields(entry, f, p, check, r); !e) {
    return e.refusals();
  }
  return r;
}

util::Status parse_tool(const json& doc, const ToolFormat& f, const JsonValidator& check,
                        RuntimeCatalogue& c) {
  const std::string tp = "/" + std::string(f.name);
  const json& list = doc[std::string(f.name)];
  if (!list.is_array()) {
    return check.fail(tp, "must be an array of releases");
  }
  Releases& out = c.*f.releases;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string p = tp + "/" + std::to_string(i);
    auto release = parse_release(list[i], f, p, check);
    if (!release) {
      return release.refusals();
    }
    if (!out.empty() && !(version_of(out.back().version) < version_of(release->version))) {
      return check.refuse("catalogue-order", p + "/version",
                          quote(release->version) + " does not come after " +
                              quote(out.back().version) + " (" + tp + "/" + std::to_string(i - 1) +
                              "): each tool's releases ascend strictly by version");
    }
    out.push_back(std::move(*release));
  }
  return util::ok_status();
}

// Every npm and corepack a node release bundles has its own entry, so what the review installs
// for it is checked by its own checksum.
util::Status check_bundles(const RuntimeCatalogue& c, const JsonValidator& check) {
  for (std::size_t i = 0; i < c.node.size(); ++i) {
    for (std::string_view tool : {"npm", "corepack"}) {
      const std::string& v = tool == "npm" ? c.node[i].npm : c.node[i].corepack;
      if (v.empty() || v == kNotBundled || c.find(tool, v) != nullptr) {
        continue;
      }
      const std::string t(tool);
      return check.refuse("catalogue-bundle-missing", "/node/" + std::to_string(i) + "/" + t,
                          t + " " + quote(v) + " is not listed under /" + t +
                              ": a bundled release needs its own entry with its checksums");
    }
  }
  return util::ok_status();
}

util::Status parse_header(const json& doc, const JsonValidator& check) {
  if (auto e = check.object(
          doc, "", {"schema_version", "note", "node_schedule", "node", "bun", "npm", "corepack"});
      !e) {
    return e;
  }
  const json& version = doc["schema_version"];
  if (!version.is_number_integer() ||
      version.get<std::int64_t>() != kRuntimeCatalogueSchemaVersion) {
    return check.fail("/schema_version",
                      "must be " + std::to_string(kRuntimeCatalogueSchemaVersion));
  }
  if (!doc["note"].is_string()) {
    return check.fail("/note", "must be a string");
  }
  return util::ok_status();
}

// One tool's list: a release a line, so a change to the catalogue reads as added lines.
std::string render_releases(const RuntimeCatalogue& c, const ToolFormat& f) {
  const bool runtime = !implied_file(f.name).empty();
  std::string out;
  for (const CatalogueRelease& r : c.*f.releases) {
    out += (out.empty() ? "[\n" : ",\n");
    out += R"({"version": )" + json_string(r.version);
    const auto field = [&out](std::string_view key, const std::string& value) {
      out += ", \"" + std::string(key) + "\": " + json_string(value);
    };
    if (runtime) {
      field("date", r.date);
      out += r.dated_by_registry ? R"(, "dated_by_registry": true)" : "";
    }
    field("integrity", r.integrity);
    if (!runtime) {
      field("file", r.file);
    }
    field("sha256", r.sha256);
    if (is_node(f) && !r.npm.empty()) {
      field("npm", r.npm);
    }
    if (is_node(f) && !r.corepack.empty()) {
      field("corepack", r.corepack);
    }
    out += "}";
  }
  return out.empty() ? "[]" : out + "\n]";
}

}  // namespace

const Releases* RuntimeCatalogue::releases(std::string_view tool) const {
  for (const auto& f : kFormats) {
    if (f.name == tool) {
      return &(this->*f.releases);
    }
  }
  return nullptr;
}

const CatalogueRelease* RuntimeCatalogue::find(std::string_view tool,
                                               std::string_view version) const {
  const Releases* list = releases(tool);
  if (list == nullptr) {
    return nullptr;
  }
  const auto it = std::find_if(list->begin(), list->end(), [version](const CatalogueRelease& r) {
    return r.version == version;
  });
  return it == list->end() ? nullptr : &*it;
}

util::Result<RuntimeCatalogue> parse_runtime_catalogue(std::string_view text,
                                                       const std::string& name) {
  const JsonValidator check(
      name, {.invalid_rule = "invalid-catalogue", .unknown_key_rule = "catalogue-unknown-key"});
  auto parsed = check.parse(text);
  if (!parsed) {
    return parsed.refusals();
  }
  const json& doc = *parsed;
  if (auto e = parse_header(doc, check); !e) {
    return e.refusals();
  }
  RuntimeCatalogue c;
  c.source = name;
  if (auto e = parse_node_schedule(doc["node_schedule"], check, c.node_schedule); !e) {
    return e.refusals();
  }
  for (const auto& f : kFormats) {
    if (auto e = parse_tool(doc, f, check, c); !e) {
      return e.refusals();
    }
  }
  if (auto e = check_bundles(c, check); !e) {
    return e.refusals();
  }
  return c;
}

util::Result<RuntimeCatalogue> load_runtime_catalogue(const std::string& path) {
  auto text = read_bounded_file(path, kMaxRuntimeCatalogueBytes, "invalid-catalogue",
                                /*follow_link=*/false);
  if (!text) {
    return text.error();
  }
  return parse_runtime_catalogue(*text, path);
}

std::string render_runtime_catalogue(const RuntimeCatalogue& catalogue, std::string_view note) {
  std::string out = "{\n\"schema_version\": " + std::to_string(kRuntimeCatalogueSchemaVersion) +
                    ",\n\"note\": " + json_string(note) +
                    ",\n\"node_schedule\": " + render_node_schedule(catalogue.node_schedule);
  for (const auto& f : kFormats) {
    out += ",\n\"" + std::string(f.name) + "\": " + render_releases(catalogue, f);
  }
  return out + "\n}\n";
}

}  // namespace reviewer::resolve
