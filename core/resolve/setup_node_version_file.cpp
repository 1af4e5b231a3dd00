#include "core/resolve/setup_node_version_file.h"

#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/resolve/declaration.h"
#include "core/resolve/package_json.h"
#include "core/resolve/safe_file.h"
#include "core/semver/js_text.h"
#include "core/util/text.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

// volta.extends followed this many times means a cycle or a chain nobody writes; the action would
// recurse until its stack ran out.
constexpr int kMaxExtends = 8;

// v?(?<version>[^\s]+)$ matched at `q`: the version's bytes, or nullopt.
std::optional<std::pair<std::size_t, std::size_t>> version_at(std::string_view s, std::size_t q) {
  if (q < s.size() && s[q] == 'v') {
    const std::size_t end = js::non_space_run_end(s, q + 1);
    if (end > q + 1 && js::at_line_end(s, end)) {
      return std::pair{q + 1, end};
    }
  }
  const std::size_t end = js::non_space_run_end(s, q);
  if (end > q && js::at_line_end(s, end)) {
    return std::pair{q, end};
  }
  return std::nullopt;
}

// /^(?:node(js)?\s+)?v?(?<version>[^\s]+)$/m as JavaScript matches it: at each line start in
// turn, the optional prefix is tried first ("nodejs", then "node", each followed by white space,
// which may run over line ends), then the bare version. The greedy parts cannot succeed shorter
// (what would follow them is white space), so one try each decides.
std::optional<std::pair<std::size_t, std::size_t>> match_version_line(std::string_view s) {
  for (std::size_t p = 0; p <= s.size();) {
    for (std::string_view prefix : {std::string_view("nodejs"), std::string_view("node")}) {
      if (s.substr(p).starts_with(prefix)) {
        std::size_t q = p + prefix.size();
        while (const std::size_t n = js::whitespace_at(s, q)) {
          q += n;
        }
        if (q > p + prefix.size()) {
          if (auto m = version_at(s, q)) {
            return m;
          }
        }
      }
    }
    if (auto m = version_at(s, p)) {
      return m;
    }
    const auto next = js::next_line_start(s, p);
    if (!next) {
      break;
    }
    p = *next;
  }
  return std::nullopt;
}

// JavaScript's truthiness of a JSON value; a missing one (nullptr) is undefined.
bool truthy(const json* v) {
  if (v == nullptr) {
    return false;
  }
  switch (v->type()) {
    case json::value_t::null:
      return false;
    case json::value_t::boolean:
      return v->get<bool>();
    case json::value_t::number_integer:
      return v->get<std::int64_t>() != 0;
    case json::value_t::number_unsigned:
      return v->get<std::uint64_t>() != 0;
    case json::value_t::number_float:
      return v->get<double>() != 0.0 && v->get<double>() == v->get<double>();
    case json::value_t::string:
      return !v->get_ref<const std::string&>().empty();
    default:
      return true;  // objects and arrays
  }
}

// `v.key` as JavaScript reads it from a JSON value: an object's own member, or undefined (no
// JSON value has an inherited member of the names read here).
const json* member(const json* v, const char* key) {
  if (v == nullptr || !v->is_object()) {
    return nullptr;
  }
  const auto it = v->find(key);
  return it == v->end() ? nullptr : &*it;
}

bool is_node(const std::string& name) {
  // toLowerCase maps no non-ASCII character to an ASCII letter of "node", so ASCII folding is
  // exact.
  return name.size() == 4 && util::lower(name) == "node";
}

class Reader {
 public:
  Reader(SetupNodeRules rules, const RepositoryReader& read) : rules_(rules), read_(read) {}

  // The file `path` (normalised) as getNodeVersionFromFile reads it; `what` and `where` name
  // what led to it for the messages.
  util::Result<FileVersion> read(const std::string& path, const std::string& what,
                                 const util::SourceLocation& where, int depth) {
    const std::string if_missing =
        depth == 0
            ? "actions/setup-node fails the step there (\"The specified node version file at: "
              "... does not exist\")"
            : "actions/setup-node's reader then gives up on the extending file and reads it as "
              "plain text, which holds no version a build can use";
    auto text = read_version_file(read_, path, what, where, if_missing);
    if (!text) {
      return text.refusals();
    }
    const std::size_t first = text->find_first_not_of(" \t\n\r");
    const bool json_like = !text->starts_with("\xEF\xBB\xBF") && first != std::string::npos &&
                           ((*text)[first] == '{' || (*text)[first] == '[');
    if (!json_like) {
      // JSON.parse rejects this text or reads a scalar (22, "x", null): the action reads lines.
      return text_version(*text, path);
    }
    auto doc = parse_json(*text, path);
    if (!doc) {
      return invalid_declaration(
          path + " starts as JSON but does not parse here (" + doc.error().message +
              "); actions/setup-node reads a file JSON.parse rejects as plain text, and which of "
              "the two it does cannot be told",
          util::SourceLocation{path});
    }
    return manifest(*doc, *text, path, depth);
  }

 private:
  static FileVersion text_version(std::string_view text, const std::string& path) {
    if (const auto m = match_version_line(text)) {
      return {std::string(text.substr(m->first, m->second - m->first)),
              location_in(text, m->first, path)};
    }
    const std::string_view whole = js::trim(text);
    return {std::string(whole), whole.empty()
                                    ? util::SourceLocation{path}
                                    : location_in(text, whole.data() - text.data(), path)};
  }

  static util::Result<FileVersion> field(const json& v, const std::string& path,
                                         const std::string& name) {
    if (!v.is_string()) {
      return invalid_declaration(path + " " + name + " is " + quote(v.dump()) +
                                     ", not a string; actions/setup-node fails the step on a "
                                     "version that is not one",
                                 util::SourceLocation{path});
    }
    return FileVersion{v.get<std::string>(), util::SourceLocation{path}};
  }

  // What a manifest (a JSON object or array) gives, in the action's order.
  util::Result<FileVersion> manifest(const json& m, std::string_view text, const std::string& path,
                                     int depth) {
    if (const json* v = member(member(&m, "volta"), "node"); truthy(v)) {
      return field(*v, path, "volta.node");
    }
    if (rules_ == SetupNodeRules::kDevEngines) {
      if (const json* runtime = member(member(&m, "devEngines"), "runtime"); truthy(runtime)) {
        auto found = dev_engines_entry(*runtime, path);
        if (!found || found->has_value()) {
          return found ? util::Result<FileVersion>(**found)
                       : util::Result<FileVersion>(found.refusals());
        }
      }
    }
    if (const json* v = member(member(&m, "engines"), "node"); truthy(v)) {
      return field(*v, path, "engines.node");
    }
    if (rules_ == SetupNodeRules::kV3) {
      const FileVersion line = text_version(text, path);
      return invalid_declaration(
          path +
              " has no volta.node or engines.node; actions/setup-node v3 then reads the JSON "
              "text line by line and takes " +
              quote(line.version) +
              " as the version, which it fails to install; write engines.node, or name a file "
              "that holds only the version",
          line.location);
    }
    if (const json* extends = member(member(&m, "volta"), "extends"); truthy(extends)) {
      const util::SourceLocation here{path};
      const std::string cannot = "; actions/setup-node's reader then reads " + quote(path) +
                                 " as plain text, which holds no version a build can use";
      if (!extends->is_string()) {
        return invalid_declaration(
            path + " volta.extends is " + quote(extends->dump()) + ", not a path" + cannot, here);
      }
      const std::string& target = extends->get_ref<const std::string&>();
      const std::string what = path + " volta.extends " + quote(target);
      if (depth + 1 >= kMaxExtends) {
        return invalid_declaration(what + " extends a chain of " + std::to_string(kMaxExtends) +
                                       " files (a cycle?)" + cannot,
                                   here);
      }
      auto next = resolve_in_workspace(directory_of(path), target, what, here);
      if (!next) {
        return next.refusals();
      }
      return read(*next, what, here, depth + 1);
    }
    return FileVersion{"", util::SourceLocation{path}};
  }

  // [devEngines.runtime].flat().find(({name, version}) => name?.toLowerCase() === 'node' &&
  // version): the entry's version, nullopt when none matches, or a refusal where the callback
  // throws (the action then reads the manifest as text).
  static util::Result<std::optional<FileVersion>> dev_engines_entry(const json& runtime,
                                                                    const std::string& path) {
    std::vector<const json*> entries;
    if (runtime.is_array()) {
      for (const auto& e : runtime) {
        entries.push_back(&e);
      }
    } else {
      entries.push_back(&runtime);
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const std::string at = "devEngines.runtime" +
                             (runtime.is_array() ? "[" + std::to_string(i) + "]" : std::string());
      const std::string throws = ", on which actions/setup-node's reader throws and then reads " +
                                 quote(path) +
                                 " as plain text, which holds no version a build can use";
      if (entries[i]->is_null()) {
        return invalid_declaration(path + " " + at + " is null" + throws,
                                   util::SourceLocation{path});
      }
      const json* name = member(entries[i], "name");
      if (name == nullptr || name->is_null()) {
        continue;
      }
      if (!name->is_string()) {
        return invalid_declaration(
            path + " " + at + ".name is " + quote(name->dump()) + ", not a string" + throws,
            util::SourceLocation{path});
      }
      const json* version = member(entries[i], "version");
      if (is_node(name->get<std::string>()) && truthy(version)) {
        auto v = field(*version, path, at + ".version");
        if (!v) {
          return v.refusals();
        }
        return std::optional<FileVersion>(std::move(*v));
      }
    }
    return std::optional<FileVersion>();
  }

  SetupNodeRules rules_;
  const RepositoryReader& read_;
};

}  // namespace

util::Result<FileVersion> read_setup_node_version_file(const NamedFile& file, SetupNodeRules rules,
                                                       const RepositoryReader& read) {
  auto path = join_in_workspace(file);
  if (!path) {
    return path.refusals();
  }
  Reader reader(rules, read);
  return reader.read(*path, "'" + file.input + "'", file.location, 0);
}

}  // namespace reviewer::resolve
