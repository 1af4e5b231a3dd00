#include "core/yaml/bounded_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/util/unique_fd.h"

namespace reviewer::yaml {
namespace {

// Thrown by the event handler to stop the parser at the first crossed bound; caught in load()
// and never propagated further.
struct Stop {
  util::Error error;
};

// An anchored node is kept once, as written; the tree holds a placeholder wherever it or an
// alias to it stands, and placeholders are replaced only after the whole document stayed
// within bounds. So a refused alias bomb never copies anything, and an accepted document is
// copied at most up to the node bound.
struct Anchored {
  Node node;               // as written: aliases inside it are still placeholders
  std::size_t count = 0;   // nodes in the subtree, every alias inside it counted as its subtree
  std::size_t height = 0;  // collection levels in the subtree (a scalar is 0)
  bool expanded = false;   // `node` has had its placeholders replaced
};

// A placeholder is a null node whose (otherwise always empty) scalar holds the anchor id. It
// never leaves this file.
Node placeholder(YAML::anchor_t anchor, const util::SourceLocation& where) {
  Node n;
  n.kind = Node::Kind::kNull;
  n.scalar = std::to_string(anchor);
  n.location = where;
  return n;
}
bool is_placeholder(const Node& n) { return n.is_null() && !n.scalar.empty(); }

struct Frame {
  Node node;
  YAML::anchor_t anchor = 0;
  std::size_t count_at_start = 0;
  std::size_t height = 1;  // collection levels including this one; grows with the children
  bool has_key = false;
  Node key;
  std::unordered_set<std::string> keys;  // filled only once the mapping is large
  YAML::Mark mark;
};

bool printable_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return c >= 0x20 && c <= 0x7e; });
}

class TreeBuilder final : public YAML::EventHandler {
 public:
  TreeBuilder(const std::string& file, const Bounds& bounds) : file_(file), bounds_(bounds) {}

  // The finished tree with every placeholder replaced by a copy of the node it names.
  Node take_root() {
    if (!anchors_.empty()) {
      expand(root_);  // most workflows have no anchors: skip the walk
    }
    return std::move(root_);
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) {
      stop("yaml-multiple-documents", "a workflow file holds exactly one YAML document", mark);
    }
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    count(1, mark);
    Node n;
    n.location = where(mark);
    leaf(std::move(n), anchor, mark);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      // yaml-cpp resolves names itself; an id it handed out that is not complete yet is an
      // alias inside its own anchor (a recursive structure).
      stop("yaml-anchor", "alias refers to an anchor that is still open (a recursive structure)",
           mark);
    }
    if (stack_.size() + it->second.height > bounds_.max_depth) {
      stop("yaml-too-deep",
           "nesting deeper than " + std::to_string(bounds_.max_depth) +
               " levels (counted through this alias)",
           mark);
    }
    count(it->second.count, mark);
    add(placeholder(anchor, where(mark)), it->second.height, mark, /*is_alias=*/true);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    // yaml-cpp reports "?" for a plain scalar and "!" for a quoted or block one (or one with the
    // non-specific tag `!`, which also makes it a string); anything else was written as a tag.
    if (tag != "?" && tag != "!") {
      stop("yaml-tag", "explicit YAML tag '" + tag + "' is not accepted", mark);
    }
    count(1, mark);
    Node n;
    n.kind = Node::Kind::kScalar;
    n.scalar = value;
    n.plain = tag == "?";
    n.location = where(mark);
    leaf(std::move(n), anchor, mark);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(Node::Kind::kSequence, tag, anchor, mark);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(Node::Kind::kMapping, tag, anchor, mark);
  }
  void OnMapEnd() override { close(); }

 private:
  util::SourceLocation where(const YAML::Mark& m) const {
    if (m.is_null()) {
      return {file_, 0, 0};
    }
    return {file_, static_cast<std::uint32_t>(m.line + 1),
            static_cast<std::uint32_t>(m.column + 1)};
  }

  [[noreturn]] void stop(const std::string& rule, const std::string& message,
                         const YAML::Mark& mark) const {
    throw Stop{util::make_error(rule, message, where(mark))};
  }

  void count(std::size_t n, const YAML::Mark& mark) {
    nodes_ += n;
    if (nodes_ > bounds_.max_nodes) {
      stop("yaml-too-many-nodes",
           "more than " + std::to_string(bounds_.max_nodes) +
               " YAML nodes (every alias use counts as the subtree it names)",
           mark);
    }
  }

  void open(Node::Kind kind, const std::string& tag, YAML::anchor_t anchor,
            const YAML::Mark& mark) {
    if (tag != "?" && !tag.empty()) {
      stop("yaml-tag", "explicit YAML tag '" + tag + "' is not accepted", mark);
    }
    if (!stack_.empty() && stack_.back().node.is_mapping() && !stack_.back().has_key) {
      stop("yaml-key-not-plain", "a mapping key must be a plain scalar, not a collection", mark);
    }
    if (stack_.size() + 1 > bounds_.max_depth) {
      stop("yaml-too-deep", "nesting deeper than " + std::to_string(bounds_.max_depth) + " levels",
           mark);
    }
    count(1, mark);
    Frame f;
    f.node.kind = kind;
    f.node.location = where(mark);
    f.anchor = anchor;
    f.count_at_start = nodes_;
    f.mark = mark;
    stack_.push_back(std::move(f));
  }

  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.has_key) {
      stop("yaml-syntax", "mapping key without a value", f.mark);
    }
    if (f.anchor == 0) {
      add(std::move(f.node), f.height, f.mark, false);
      return;
    }
    Node stand_in = placeholder(f.anchor, f.node.location);
    anchors_[f.anchor] = Anchored{std::move(f.node), nodes_ - f.count_at_start + 1, f.height};
    add(std::move(stand_in), f.height, f.mark, false);
  }

  void leaf(Node n, YAML::anchor_t anchor, const YAML::Mark& mark) {
    if (anchor != 0) {
      anchors_[anchor] = Anchored{n, 1, 0, true};
    }
    add(std::move(n), 0, mark, false);
  }

  // Attaches a finished node to its parent (or makes it the root).
  void add(Node n, std::size_t height, const YAML::Mark& mark, bool is_alias) {
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

  void accept_key(Frame& parent, const Node& key, bool is_alias, const YAML::Mark& mark) {
    if (is_alias || !key.is_scalar() || !key.plain) {
      stop("yaml-key-not-plain",
           "a mapping key must be a plain scalar (no quotes, block scalar, alias or null)", mark);
    }
    if (!printable_ascii(key.scalar) || key.scalar.empty()) {
      stop("yaml-key-not-ascii", "a mapping key must be printable ASCII (0x20-0x7E)", mark);
    }
    if (key.scalar == "<<") {
      stop("yaml-merge-key", "merge keys ('<<') are not accepted", mark);
    }
    // Most mappings are small: compare with the keys so far, and hash only large mappings.
    constexpr std::size_t kLinear = 16;
    bool duplicate = false;
    const auto& entries = parent.node.entries;
    if (entries.size() < kLinear) {
      duplicate = std::any_of(entries.begin(), entries.end(),
                              [&](const auto& e) { return e.first.scalar == key.scalar; });
    } else {
      if (parent.keys.empty()) {
        parent.keys.reserve(entries.size() * 2);
        for (const auto& e : entries) {
          parent.keys.insert(e.first.scalar);
        }
      }
      duplicate = !parent.keys.insert(key.scalar).second;
    }
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
      Anchored& a = anchors_.at(static_cast<YAML::anchor_t>(std::stoul(n.scalar)));
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
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
  std::size_t nodes_ = 0;
  int documents_ = 0;
  Node root_;
};

// Where byte `offset` of `text` is, for a bound crossed there.
util::SourceLocation position_of(std::string_view text, std::size_t offset,
                                 const std::string& file) {
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {file, line, static_cast<std::uint32_t>(offset - line_start + 1)};
}

}  // namespace

util::Result<Node> load(std::string_view text, const std::string& file, const Bounds& bounds) {
  if (text.size() > bounds.max_bytes) {
    return util::make_error("yaml-too-large",
                            "file is larger than " + std::to_string(bounds.max_bytes) +
                                " bytes (the bound is crossed here)",
                            position_of(text, bounds.max_bytes, file));
  }
  std::istringstream in{std::string(text)};
  TreeBuilder builder(file, bounds);
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const Stop& s) {
    return s.error;
  } catch (const YAML::Exception& e) {
    util::SourceLocation loc{file, 0, 0};
    if (!e.mark.is_null()) {
      loc = {file, static_cast<std::uint32_t>(e.mark.line + 1),
             static_cast<std::uint32_t>(e.mark.column + 1)};
    }
    std::string rule = e.msg.find("anchor") != std::string::npos ? "yaml-anchor" : "yaml-syntax";
    return util::make_error(rule, e.msg, loc);
  } catch (const std::exception& e) {
    return util::make_error("yaml-syntax", e.what(), util::SourceLocation{file, 0, 0});
  }
  return builder.take_root();
}

util::Result<Node> load_file(const std::string& path, const std::string& display_name,
                             const Bounds& bounds) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) {
    return util::make_error(errno == ELOOP ? "workflow-symlink" : "workflow-unreadable",
                            "cannot open '" + display_name + "': " + std::strerror(errno),
                            util::SourceLocation{display_name, 0, 0});
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return util::make_error("workflow-unreadable", "'" + display_name + "' is not a regular file",
                            util::SourceLocation{display_name, 0, 0});
  }
  std::string text;
  std::vector<char> buf(65536);
  while (text.size() <= bounds.max_bytes) {
    ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return util::make_error("workflow-unreadable",
                              "cannot read '" + display_name + "': " + std::strerror(errno),
                              util::SourceLocation{display_name, 0, 0});
    }
    if (n == 0) {
      break;
    }
    text.append(buf.data(), static_cast<std::size_t>(n));
  }
  return load(text, display_name, bounds);
}

}  // namespace reviewer::yaml
