#include "core/yaml/bounded_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "core/util/file_read.h"
#include "core/yaml/event_stream.h"
#include "core/yaml/key_index.h"

namespace reviewer::yaml {
namespace {

// Thrown by the builder to stop at the first crossed bound; caught in load() and never
// propagated further.
struct Stop {
  util::Refusal error;
};

// An anchored node is kept once, as written; the tree holds a placeholder wherever it or an
// alias to it stands, and placeholders are replaced only after the whole document stayed
// within bounds. So a refused alias bomb never copies anything, and an accepted document is
// copied at most up to the node and alias-text bounds.
struct Anchored {
  Node node;               // as written: aliases inside it are still placeholders
  std::size_t count = 0;   // nodes in the subtree, every alias inside it counted as its subtree
  std::size_t height = 0;  // collection levels in the subtree (a scalar is 0)
  bool expanded = false;   // `node` has had its placeholders replaced
  std::size_t text = 0;    // scalar bytes in the subtree, keys and what its aliases add included
};

// A placeholder is a null node whose (otherwise always empty) scalar holds the index of its
// Anchored. It never leaves this file.
Node placeholder(std::size_t anchored, const util::SourceLocation& where) {
  Node n;
  n.kind = Node::Kind::kNull;
  n.scalar = std::to_string(anchored);
  n.location = where;
  return n;
}
bool is_placeholder(const Node& n) { return n.is_null() && !n.scalar.empty(); }

struct Frame {
  Node node;
  std::string anchor;  // empty: none
  std::size_t count_at_start = 0;
  std::size_t text_at_start = 0;
  std::size_t height = 1;  // collection levels including this one; grows with the children
  bool has_key = false;
  Node key;
  KeyIndex keys;  // used only once the mapping is large
  yaml_mark_t mark{};
};

bool printable_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return c >= 0x20 && c <= 0x7e; });
}

std::string text_of(const yaml_char_t* s) {
  return s != nullptr ? reinterpret_cast<const char*>(s) : std::string();
}

// The YAML 1.2 core schema's nulls, as yaml-cpp and GitHub's reader see them: only untagged
// plain scalars.
bool is_null_text(std::string_view v) {
  return v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL";
}

class TreeBuilder {
 public:
  TreeBuilder(const std::string& file, const Bounds& bounds) : file_(file), bounds_(bounds) {}

  // Feeds one libyaml event.
  void on(const yaml_event_t& e) {
    switch (e.type) {
      case YAML_DOCUMENT_START_EVENT:
        if (++documents_ > 1) {
          stop("yaml-multiple-documents", "a workflow file holds exactly one YAML document",
               e.start_mark);
        }
        break;
      case YAML_ALIAS_EVENT:
        alias(text_of(e.data.alias.anchor), e.start_mark);
        break;
      case YAML_SCALAR_EVENT:
        scalar(e);
        break;
      case YAML_SEQUENCE_START_EVENT:
        open(Node::Kind::kSequence, e.data.sequence_start.tag, e.data.sequence_start.anchor,
             e.start_mark);
        break;
      case YAML_MAPPING_START_EVENT:
        open(Node::Kind::kMapping, e.data.mapping_start.tag, e.data.mapping_start.anchor,
             e.start_mark);
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        close();
        break;
      default:  // stream start and end, document end, no event
        break;
    }
  }

  // The finished tree with every placeholder replaced by a copy of the node it names.
  Node take_root() {
    if (!anchored_.empty()) {
      expand(root_);  // most workflows have no anchors: skip the walk
    }
    return std::move(root_);
  }

 private:
  util::SourceLocation where(const yaml_mark_t& m) const {
    return {file_, static_cast<std::uint32_t>(m.line + 1),
            static_cast<std::uint32_t>(m.column + 1)};
  }

  [[noreturn]] void stop(const std::string& rule, const std::string& message,
                         const yaml_mark_t& mark) const {
    throw Stop{util::refusal(rule, message, where(mark))};
  }

  void count(std::size_t n, const yaml_mark_t& mark) {
    nodes_ += n;
    if (nodes_ > bounds_.max_nodes) {
      stop("yaml-too-many-nodes",
           "more than " + std::to_string(bounds_.max_nodes) +
               " YAML nodes (every alias use counts as the subtree it names)",
           mark);
    }
  }

  void define(const yaml_char_t* anchor, const yaml_mark_t& mark) {
    if (anchor == nullptr) {
      return;
    }
    const std::string name = text_of(anchor);
    const bool open =
        std::any_of(stack_.begin(), stack_.end(), [&](const Frame& f) { return f.anchor == name; });
    if (open || by_name_.count(name) != 0) {
      // YAML lets a later anchor shadow an earlier one, and readers have disagreed on which
      // one an alias in between names; a workflow never needs the same name twice.
      stop("yaml-anchor", "anchor '&" + name + "' is defined twice", mark);
    }
  }

  void alias(const std::string& name, const yaml_mark_t& mark) {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) {
      const bool open = std::any_of(stack_.begin(), stack_.end(),
                                    [&](const Frame& f) { return f.anchor == name; });
      stop("yaml-anchor",
           open ? "alias refers to an anchor that is still open (a recursive structure)"
                : "the referenced anchor is not defined",
           mark);
    }
    const Anchored& a = anchored_[it->second];
    if (stack_.size() + a.height > bounds_.max_depth) {
      stop("yaml-too-deep",
           "nesting deeper than " + std::to_string(bounds_.max_depth) +
               " levels (counted through this alias)",
           mark);
    }
    count(a.count, mark);
    // Nodes are bounded above, but one node may be a 100 KB scalar: 9,000 aliases of one in a
    // 243 KB file stood for 900 MB of text (issue 37).
    if (a.text > bounds_.max_alias_bytes - alias_text_) {
      stop("yaml-alias-too-large",
           "aliases expand to more than " + std::to_string(bounds_.max_alias_bytes) +
               " bytes of text (every alias use counts as the text of the subtree it names)",
           mark);
    }
    alias_text_ += a.text;
    text_ += a.text;
    add(placeholder(it->second, where(mark)), a.height, mark, /*is_alias=*/true);
  }

  void scalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    const std::string tag = text_of(s.tag);
    // Untagged, or the non-specific tag `!` (which makes a scalar a string); anything else was
    // written as a tag.
    if (s.tag != nullptr && tag != "!") {
      stop("yaml-tag", "explicit YAML tag '" + tag + "' is not accepted", e.start_mark);
    }
    define(s.anchor, e.start_mark);
    count(1, e.start_mark);
    text_ += s.length;
    Node n;
    const std::string_view value(reinterpret_cast<const char*>(s.value), s.length);
    const bool plain = s.style == YAML_PLAIN_SCALAR_STYLE && s.tag == nullptr;
    if (!plain || !is_null_text(value)) {
      n.kind = Node::Kind::kScalar;
      n.scalar.assign(value);
      n.plain = plain;
    }
    n.location = where(e.start_mark);
    if (s.anchor != nullptr) {
      by_name_.emplace(text_of(s.anchor), anchored_.size());
      anchored_.push_back(Anchored{n, 1, 0, true, s.length});
    }
    add(std::move(n), 0, e.start_mark, false);
  }

  void open(Node::Kind kind, const yaml_char_t* tag, const yaml_char_t* anchor,
            const yaml_mark_t& mark) {
    if (tag != nullptr) {
      stop("yaml-tag", "explicit YAML tag '" + text_of(tag) + "' is not accepted", mark);
    }
    if (!stack_.empty() && stack_.back().node.is_mapping() && !stack_.back().has_key) {
      stop("yaml-key-not-plain", "a mapping key must be a plain scalar, not a collection", mark);
    }
    if (stack_.size() + 1 > bounds_.max_depth) {
      stop("yaml-too-deep", "nesting deeper than " + std::to_string(bounds_.max_depth) + " levels",
           mark);
    }
    define(anchor, mark);
    count(1, mark);
    Frame& f = stack_.emplace_back();
    f.node.kind = kind;
    f.node.location = where(mark);
    f.anchor = text_of(anchor);
    f.count_at_start = nodes_;
    f.text_at_start = text_;
    f.mark = mark;
  }

  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.has_key) {
      stop("yaml-syntax", "mapping key without a value", f.mark);
    }
    if (f.anchor.empty()) {
      add(std::move(f.node), f.height, f.mark, false);
      return;
    }
    Node stand_in = placeholder(anchored_.size(), f.node.location);
    by_name_.emplace(f.anchor, anchored_.size());
    anchored_.push_back(Anchored{std::move(f.node), nodes_ - f.count_at_start + 1, f.height, false,
                                 text_ - f.text_at_start});
    add(std::move(stand_in), f.height, f.mark, false);
  }

  // Attaches a finished node to its parent (or makes it the root).
  void add(Node n, std::size_t height, const yaml_mark_t& mark, bool is_alias) {
    if (stack_.empty()) {
      root_ = std::move(n);
      return;
    }
    Frame& parent = stack_.back();
    parent.height = std::max(parent.height, height + 1);
    if (parent.node.is_sequence()) {
      parent.node.items.push_back(std::move(n));
      return;
    }
    if (!parent.has_key) {
      accept_key(parent, n, is_alias, mark);
      parent.key = std::move(n);
      parent.has_key = true;
      return;
    }
    parent.node.entries.emplace_back(std::move(parent.key), std::move(n));
    parent.has_key = false;
  }

  void accept_key(Frame& parent, const Node& key, bool is_alias, const yaml_mark_t& mark) {
    const bool quoted_ok = bounds_.quoted_keys && key.is_scalar() && !key.scalar.empty();
    if (is_alias || !key.is_scalar() || (!key.plain && !quoted_ok)) {
      stop("yaml-key-not-plain",
           "a mapping key must be a plain scalar (no quotes, block scalar, alias or null)", mark);
    }
    if (!printable_ascii(key.scalar) || key.scalar.empty()) {
      stop("yaml-key-not-ascii", "a mapping key must be printable ASCII (0x20-0x7E)", mark);
    }
    if (key.scalar == "<<") {
      stop("yaml-merge-key", "merge keys ('<<') are not accepted", mark);
    }
    // Most mappings are small: compare with the keys so far, and index only large mappings.
    constexpr std::size_t kLinear = 16;
    const auto& entries = parent.node.entries;
    const bool duplicate =
        entries.size() < kLinear
            ? std::any_of(entries.begin(), entries.end(),
                          [&](const auto& e) { return e.first.scalar == key.scalar; })
            : !parent.keys.insert(key.scalar, entries);
    if (duplicate) {
      stop("yaml-duplicate-key",
           "duplicate key '" + key.scalar + "' (YAML readers disagree on which value wins)", mark);
    }
  }

  // Replaces placeholders in document order. An anchor's own node is expanded once, the first
  // time it is met; the depth of this recursion is bounded by max_depth (counted through
  // aliases), and the copies by max_nodes.
  void expand(Node& n) {
    if (is_placeholder(n)) {
      Anchored& a = anchored_.at(std::stoul(n.scalar));
      if (!a.expanded) {
        a.expanded = true;
        expand(a.node);
      }
      util::SourceLocation written = n.location;  // where the alias (or the anchor) stands
      n = a.node;
      n.location = std::move(written);
      return;
    }
    for (auto& item : n.items) {
      expand(item);
    }
    for (auto& entry : n.entries) {
      expand(entry.second);
    }
  }

  const std::string& file_;
  const Bounds& bounds_;
  std::vector<Frame> stack_;
  std::vector<Anchored> anchored_;
  std::unordered_map<std::string, std::size_t> by_name_;  // complete anchors only
  std::size_t nodes_ = 0;
  std::size_t text_ = 0;        // scalar bytes so far, each alias counted as the text it names
  std::size_t alias_text_ = 0;  // the part of text_ that aliases added
  int documents_ = 0;
  Node root_;
};

}  // namespace

util::Result<Node> load(std::string_view text, const std::string& file, const Bounds& bounds) {
  if (text.size() > bounds.max_bytes) {
    return util::refusal("yaml-too-large",
                         "file is larger than " + std::to_string(bounds.max_bytes) +
                             " bytes (the bound is crossed here)",
                         position_of(text, bounds.max_bytes, file));
  }
  TreeBuilder builder(file, bounds);
  EventStream events(text);
  try {
    while (true) {
      if (!events.next()) {
        return events.error(text, file);
      }
      builder.on(events.current());
      if (events.current().type == YAML_STREAM_END_EVENT) {
        break;
      }
    }
  } catch (const Stop& s) {
    return s.error;
  }
  return builder.take_root();
}

util::Result<std::string> read_bounded(const std::string& path, const std::string& display_name,
                                       const Bounds& bounds) {
  // One byte past the bound is enough for load() to name where the bound is crossed.
  return name_read_error(
      util::read_regular_file(AT_FDCWD, path, {bounds.max_bytes + 1, false, true}), display_name);
}

util::Result<std::string> name_read_error(util::Result<std::string> text,
                                          const std::string& display_name) {
  if (text) {
    return text;
  }
  const util::Refusal& e = text.error();
  const util::SourceLocation where{display_name, 0, 0};
  if (util::file_fault(e) == util::FileFault::kNotRegular) {
    return util::refusal("workflow-unreadable", "'" + display_name + "' is not a regular file",
                         where);
  }
  if (util::file_fault(e) == util::FileFault::kReadFailed) {
    return util::refusal("workflow-unreadable", "cannot read '" + display_name + "': " + e.message,
                         where);
  }
  return util::refusal(
      util::file_fault(e) == util::FileFault::kSymlink ? "workflow-symlink" : "workflow-unreadable",
      "cannot open '" + display_name + "': " + e.message, where);
}

util::Result<Node> load_file(const std::string& path, const std::string& display_name,
                             const Bounds& bounds) {
  auto text = read_bounded(path, display_name, bounds);
  if (!text) {
    return text.error();
  }
  return load(*text, display_name, bounds);
}

}  // namespace reviewer::yaml
