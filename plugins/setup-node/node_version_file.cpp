#include "node_version_file.h"

#include <reviewer/sdk/js_text.hpp>

#include <optional>
#include <utility>
#include <vector>

#include "../json-common/parse_json.h"

namespace setup_node {
namespace {

namespace js = reviewer::sdk::js;
using json_common::member;
using nlohmann::json;
using reviewer::sdk::FileResult;
using reviewer::sdk::FileVersion;
using reviewer::sdk::in_quotes;
using reviewer::sdk::invalid_declaration;
using reviewer::sdk::location_in;
using reviewer::sdk::Place;

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

bool is_node(const std::string& name) {
  // toLowerCase maps no non-ASCII character to an ASCII letter of "node", so ASCII folding is
  // exact.
  if (name.size() != 4) {
    return false;
  }
  for (std::size_t i = 0; i < 4; ++i) {
    const char c = name[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != "node"[i]) {
      return false;
    }
  }
  return true;
}

FileVersion text_version(std::string_view text, const std::string& path) {
  if (const auto m = match_version_line(text)) {
    return {std::string(text.substr(m->first, m->second - m->first)),
            location_in(text, m->first, path)};
  }
  const std::string_view whole = js::trim(text);
  return {std::string(whole),
          whole.empty()
              ? Place{path}
              : location_in(text, static_cast<std::size_t>(whole.data() - text.data()), path)};
}

FileResult<FileVersion> field(const json& v, const std::string& path, const std::string& name) {
  if (!v.is_string()) {
    return invalid_declaration(path + " " + name + " is " + in_quotes(v.dump()) +
                                   ", not a string; actions/setup-node fails the step on a "
                                   "version that is not one",
                               Place{path});
  }
  return FileVersion{v.get<std::string>(), Place{path}};
}

// [devEngines.runtime].flat().find(({name, version}) => name?.toLowerCase() === 'node' &&
// version): the entry's version, nullopt when none matches, or a refusal where the callback
// throws (the action then reads the manifest as text).
FileResult<std::optional<FileVersion>> dev_engines_entry(const json& runtime,
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
    const std::string at =
        "devEngines.runtime" + (runtime.is_array() ? "[" + std::to_string(i) + "]" : std::string());
    const std::string throws = ", on which actions/setup-node's reader throws and then reads " +
                               in_quotes(path) +
                               " as plain text, which holds no version a build can use";
    if (entries[i]->is_null()) {
      return invalid_declaration(path + " " + at + " is null" + throws, Place{path});
    }
    const json* name = member(entries[i], "name");
    if (name == nullptr || name->is_null()) {
      continue;
    }
    if (!name->is_string()) {
      return invalid_declaration(
          path + " " + at + ".name is " + in_quotes(name->dump()) + ", not a string" + throws,
          Place{path});
    }
    const json* version = member(entries[i], "version");
    if (is_node(name->get<std::string>()) && truthy(version)) {
      auto v = field(*version, path, at + ".version");
      if (!v) {
        return v.refusal();
      }
      return std::optional<FileVersion>(std::move(*v));
    }
  }
  return std::optional<FileVersion>();
}

class Reader {
 public:
  Reader(NodeFileRules rules, const reviewer::sdk::RepositoryReader& read)
      : rules_(rules), read_(read) {}

  // The file `path` (normalised) as getNodeVersionFromFile reads it; `what` and `where` name
  // what led to it for the messages.
  FileResult<FileVersion> read(const std::string& path, const std::string& what, const Place& where,
                               int depth) {
    const std::string if_missing =
        depth == 0
            ? "actions/setup-node fails the step there (\"The specified node version file at: "
              "... does not exist\")"
            : "actions/setup-node's reader then gives up on the extending file and reads it as "
              "plain text, which holds no version a build can use";
    auto text = reviewer::sdk::read_version_file(read_, path, what, where, if_missing);
    if (!text) {
      return text.refusal();
    }
    const std::size_t first = text->find_first_not_of(" \t\n\r");
    const bool json_like = !text->starts_with("\xEF\xBB\xBF") && first != std::string::npos &&
                           ((*text)[first] == '{' || (*text)[first] == '[');
    if (!json_like) {
      // JSON.parse rejects this text or reads a scalar (22, "x", null): the action reads lines.
      return text_version(*text, path);
    }
    auto doc = json_common::parse_json(*text, path);
    if (!doc) {
      return invalid_declaration(
          path + " starts as JSON but does not parse here (" + doc.refusal().message +
              "); actions/setup-node reads a file JSON.parse rejects as plain text, and which of "
              "the two it does cannot be told",
          Place{path});
    }
    return manifest(*doc, *text, path, depth);
  }

 private:
  // What a manifest (a JSON object or array) gives, in the action's order.
  FileResult<FileVersion> manifest(const json& m, std::string_view text, const std::string& path,
                                   int depth) {
    if (const json* v = member(member(&m, "volta"), "node"); truthy(v)) {
      return field(*v, path, "volta.node");
    }
    if (rules_ == NodeFileRules::kDevEngines) {
      if (const json* runtime = member(member(&m, "devEngines"), "runtime"); truthy(runtime)) {
        auto found = dev_engines_entry(*runtime, path);
        if (!found) {
          return found.refusal();
        }
        if (found->has_value()) {
          return **found;
        }
      }
    }
    if (const json* v = member(member(&m, "engines"), "node"); truthy(v)) {
      return field(*v, path, "engines.node");
    }
    if (rules_ == NodeFileRules::kV3) {
      const FileVersion line = text_version(text, path);
      return invalid_declaration(
          path +
              " has no volta.node or engines.node; actions/setup-node v3 then reads the JSON "
              "text line by line and takes " +
              in_quotes(line.version) +
              " as the version, which it fails to install; write engines.node, or name a file "
              "that holds only the version",
          line.where);
    }
    if (const json* extends = member(member(&m, "volta"), "extends"); truthy(extends)) {
      return follow(*extends, path, depth);
    }
    return FileVersion{"", Place{path}};
  }

  // volta.extends: the file it names, read the same way.
  FileResult<FileVersion> follow(const json& extends, const std::string& path, int depth) {
    const Place here{path};
    const std::string cannot = "; actions/setup-node's reader then reads " + in_quotes(path) +
                               " as plain text, which holds no version a build can use";
    if (!extends.is_string()) {
      return invalid_declaration(
          path + " volta.extends is " + in_quotes(extends.dump()) + ", not a path" + cannot, here);
    }
    const std::string& target = extends.get_ref<const std::string&>();
    const std::string what = path + " volta.extends " + in_quotes(target);
    if (depth + 1 >= kMaxExtends) {
      return invalid_declaration(what + " extends a chain of " + std::to_string(kMaxExtends) +
                                     " files (a cycle?)" + cannot,
                                 here);
    }
    auto next =
        reviewer::sdk::resolve_in_workspace(reviewer::sdk::directory_of(path), target, what, here);
    if (!next) {
      return next.refusal();
    }
    return read(*next, what, here, depth + 1);
  }

  NodeFileRules rules_;
  const reviewer::sdk::RepositoryReader& read_;
};

}  // namespace

FileResult<FileVersion> read_node_version_file(const reviewer::sdk::NamedFile& file,
                                               NodeFileRules rules,
                                               const reviewer::sdk::RepositoryReader& read) {
  auto path = reviewer::sdk::join_in_workspace(file);
  if (!path) {
    return path.refusal();
  }
  Reader reader(rules, read);
  return reader.read(*path, "'" + file.input + "'", file.where, 0);
}

}  // namespace setup_node
