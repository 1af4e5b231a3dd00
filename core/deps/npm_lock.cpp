#include "core/deps/npm_lock.h"

#include <nlohmann/json.hpp>

#include "core/deps/json_fields.h"

#include "core/util/text.h"

namespace reviewer::deps {
namespace {

using nlohmann::json;

util::Refusal invalid(const std::string& file, const std::string& why) {
  return util::refusal("dependency-lock-invalid", file + " " + why);
}

// Counts values and nesting before any tree exists, so a lock file of a million tiny values or a
// deep nest costs a bounded pass over the bytes and nothing else.
class BoundsCheck final : public nlohmann::json_sax<json> {
 public:
  explicit BoundsCheck(const LockBounds& b) : bounds_(b) {}
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool key(string_t&) override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    why_ = "is not valid JSON (at byte " + std::to_string(position) + ")";
    return false;
  }
  const std::string& why() const { return why_; }

 private:
  bool value() {
    if (++nodes_ > bounds_.max_nodes) {
      why_ = "has more than " + std::to_string(bounds_.max_nodes) + " JSON values";
      return false;
    }
    return true;
  }
  bool open() {
    if (++depth_ > bounds_.max_depth) {
      why_ = "nests deeper than " + std::to_string(bounds_.max_depth) + " levels";
      return false;
    }
    return value();
  }
  bool close() {
    --depth_;
    return true;
  }
  const LockBounds& bounds_;
  std::size_t nodes_ = 0;
  std::size_t depth_ = 0;
  std::string why_;
};

bool flag(const json& entry, const char* key) {
  auto it = entry.find(key);
  return it != entry.end() && it->is_boolean() && it->get<bool>();
}

// Dependencies as arborist's edges see them: peers marked optional in peerDependenciesMeta are
// optional edges, and a name in both dependencies and optionalDependencies is optional.
bool read_wants(const json& entry, LockedPackage& p) {
  std::map<std::string, std::string> peers;
  if (!read_string_map(entry, "dependencies", p.wants) ||
      !read_string_map(entry, "devDependencies", p.wants) ||
      !read_string_map(entry, "optionalDependencies", p.wants_optional) ||
      !read_string_map(entry, "peerDependencies", peers)) {
    return false;
  }
  auto meta = entry.find("peerDependenciesMeta");
  for (const auto& [name, spec] : peers) {
    bool optional = meta != entry.end() && meta->is_object() && meta->contains(name) &&
                    (*meta)[name].is_object() && flag((*meta)[name], "optional");
    (optional ? p.wants_optional : p.wants)[name] = spec;
  }
  for (const auto& [name, spec] : p.wants_optional) {
    p.wants.erase(name);
  }
  return true;
}

// "node_modules/a/node_modules/@s/b" -> "@s/b"; "" when the key is not under node_modules (a
// workspace folder).
std::string name_from_path(const std::string& path) {
  const std::string marker = "node_modules/";
  auto at = path.rfind(marker);
  if (at == std::string::npos || (at != 0 && path[at - 1] != '/')) {
    return "";
  }
  return path.substr(at + marker.size());
}

}  // namespace

util::Status check_json_bounds(std::string_view text, const std::string& file,
                               const LockBounds& bounds, bool comments) {
  if (text.size() > bounds.max_bytes) {
    return invalid(file, "is " + std::to_string(text.size()) + " bytes, over the " +
                             std::to_string(bounds.max_bytes) + "-byte bound");
  }
  BoundsCheck check(bounds);
  if (!json::sax_parse(text, &check, json::input_format_t::json, false, comments)) {
    return invalid(file, check.why());
  }
  return util::ok_status();
}

util::Result<NpmLock> parse_npm_lock(std::string_view text, const std::string& file,
                                     const LockBounds& bounds) {
  if (text.size() > bounds.max_bytes) {
    return invalid(file, "is " + std::to_string(text.size()) + " bytes, over the " +
                             std::to_string(bounds.max_bytes) + "-byte bound");
  }
  BoundsCheck check(bounds);
  if (!json::sax_parse(text, &check, json::input_format_t::json, false)) {
    return invalid(file, check.why());
  }
  const json doc = json::parse(text, nullptr, false);
  if (!doc.is_object()) {
    return invalid(file, "is not a JSON object");
  }
  NpmLock lock;
  lock.file = file;
  auto version = doc.find("lockfileVersion");
  if (version == doc.end() || !version->is_number_integer()) {
    return util::refusal("dependency-lock-version",
                         file +
                             " has no lockfileVersion (npm 6 or older); accepted: 2 or 3, "
                             "written by npm 7 or later (`npm install --lockfile-version 3`)");
  }
  lock.version = version->get<int>();
  if (lock.version != 2 && lock.version != 3) {
    return util::refusal("dependency-lock-version",
                         file + " has lockfileVersion " + std::to_string(lock.version) +
                             "; accepted: 2 or 3, written by npm 7 or later, whose `packages` "
                             "map pins every tarball (`npm install --lockfile-version 3`)");
  }
  auto packages = doc.find("packages");
  if (packages == doc.end() || !packages->is_object()) {
    return invalid(file, "has no `packages` object");
  }
  if (packages->size() > bounds.max_packages) {
    return invalid(file, "has " + std::to_string(packages->size()) + " packages, over the " +
                             std::to_string(bounds.max_packages) + " bound");
  }
  for (const auto& [path, entry] : packages->items()) {
    if (path.empty()) {
      continue;  // the root project: package.json is what npm ci holds the lock to
    }
    if (!entry.is_object()) {
      return invalid(file, "entry \"" + path + "\" is not an object");
    }
    LockedPackage p;
    p.path = path;
    p.name = name_from_path(path);
    p.folder = p.name.empty();
    auto text_field = [&fields = entry](const char* key, std::string& out) {
      auto it = fields.find(key);
      if (it == fields.end()) {
        return true;
      }
      if (!it->is_string()) {
        return false;
      }
      out = it->get<std::string>();
      return true;
    };
    std::string alias;
    if (!text_field("name", alias) || !text_field("version", p.version) ||
        !text_field("resolved", p.resolved) || !text_field("integrity", p.integrity) ||
        !read_string_list(entry, "os", p.os) || !read_string_list(entry, "cpu", p.cpu) ||
        !read_string_list(entry, "libc", p.libc) || !read_wants(entry, p)) {
      return invalid(file, "entry \"" + path + "\" has a field of the wrong type");
    }
    if (!alias.empty()) {
      p.name = alias;
    }
    p.optional = flag(entry, "optional") || flag(entry, "devOptional");
    p.link = flag(entry, "link");
    p.in_bundle = flag(entry, "inBundle");
    lock.packages.push_back(std::move(p));
  }
  return lock;
}

util::Result<LockedPackage> parse_manifest(std::string_view text) {
  LockBounds bounds;
  bounds.max_bytes = 1u << 20;
  BoundsCheck check(bounds);
  if (text.size() > bounds.max_bytes ||
      !json::sax_parse(text, &check, json::input_format_t::json, false)) {
    return util::refusal(
        "dependency-manifest-invalid",
        "package.json " +
            (text.size() > bounds.max_bytes ? std::string("is over 1 MiB") : check.why()));
  }
  const json doc = json::parse(text, nullptr, false);
  LockedPackage root;
  if (!doc.is_object() || !read_wants(doc, root)) {
    return util::refusal("dependency-manifest-invalid",
                         "package.json is not an object whose dependency fields map names to "
                         "version strings");
  }
  return root;
}

}  // namespace reviewer::deps
