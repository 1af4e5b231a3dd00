#include "core/yaml/bounded_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <sstream>
#include <unordered_set>

#include "core/util/unique_fd.h"

namespace reviewer::yaml {
namespace {

// Thrown by the event handler to stop the parser at the first crossed bound; caught in load()
// and never propagated further.
struct Stop {
  util::Error error;
};

struct Anchored {
  Node node;
  std::size_t count = 0;   // nodes in the subtree, aliases inside it already expanded
  std::size_t height = 0;  // levels of nesting in the subtree (a scalar is 1)
};

struct Frame {
  Node node;
  YAML::anchor_t anchor = 0;
  std::size_t count_at_start = 0;
  std::size_t height = 1;  // grows as children report theirs
  bool has_key = false;
  Node key;
  std::unordered_set<std::string> keys;
  YAML::Mark mark;
};

bool printable_ascii(const std::string& s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

class TreeBuilder final : public YAML::EventHandler {
 public:
  TreeBuilder(const std::string& file, const Bounds& bounds) : file_(file), bounds_(bounds) {}

  Node take_root() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) {
      stop("yaml-multiple-documents", "a workflow file holds exactly one YAML document", mark);
    }
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    count(1, mark);
    Node n;
    n.kind = Node::Kind::kNull;
    n.location = where(mark);
    leaf(std::move(n), anchor, mark);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      // An alias to an anchor that is still open (a recursive structure) or unknown.
      stop("yaml-anchor", "alias refers to an anchor that is not complete at this point", mark);
    }
    if (stack_.size() + it->second.height > bounds_.max_depth) {
      stop("yaml-too-deep",
           "nesting deeper than " + std::to_string(bounds_.max_depth) +
               " levels (counted through this alias)",
           mark);
    }
    count(it->second.count, mark);
    add(Node(it->second.node), it->second.height, mark, /*is_alias=*/true);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    check_tag(tag, mark);
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
    if (m.is_null()) return {file_, 0, 0};
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

  void check_tag(const std::string& tag, const YAML::Mark& mark) const {
    if (tag != "?" && tag != "!" && !tag.empty()) {
      stop("yaml-tag", "explicit YAML tag '" + tag + "' is not accepted", mark);
    }
  }

  void open(Node::Kind kind, const std::string& tag, YAML::anchor_t anchor,
            const YAML::Mark& mark) {
    check_tag(tag, mark);
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
    if (f.has_key) stop("yaml-syntax", "mapping key without a value", f.mark);
    if (f.anchor != 0) {
      anchors_[f.anchor] = Anchored{f.node, nodes_ - f.count_at_start + 1, f.height};
    }
    add(std::move(f.node), f.height, f.mark, false);
  }

  void leaf(Node n, YAML::anchor_t anchor, const YAML::Mark& mark) {
    if (anchor != 0) anchors_[anchor] = Anchored{n, 1, 1};
    add(std::move(n), 1, mark, false);
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
      stop("yaml-key-not-plain", "a mapping key must be a plain scalar (no quotes, alias or null)",
           mark);
    }
    if (!printable_ascii(key.scalar) || key.scalar.empty()) {
      stop("yaml-key-not-ascii", "a mapping key must be printable ASCII (0x20-0x7E)", mark);
    }
    if (key.scalar == "<<") {
      stop("yaml-merge-key", "merge keys ('<<') are not accepted", mark);
    }
    if (!parent.keys.insert(key.scalar).second) {
      stop("yaml-duplicate-key",
           "duplicate key '" + key.scalar + "' (YAML readers disagree on which value wins)", mark);
    }
  }

  const std::string& file_;
  const Bounds& bounds_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  std::size_t nodes_ = 0;
  int documents_ = 0;
  Node root_;
};

}  // namespace

util::Result<Node> load(std::string_view text, const std::string& file, const Bounds& bounds) {
  if (text.size() > bounds.max_bytes) {
    return util::make_error("yaml-too-large",
                            "file is " + std::to_string(text.size()) + " bytes; the limit is " +
                                std::to_string(bounds.max_bytes),
                            util::SourceLocation{file, 0, 0});
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
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return util::make_error("workflow-unreadable",
                              "cannot read '" + display_name + "': " + std::strerror(errno),
                              util::SourceLocation{display_name, 0, 0});
    }
    if (n == 0) break;
    text.append(buf.data(), static_cast<std::size_t>(n));
  }
  return load(text, display_name, bounds);
}

}  // namespace reviewer::yaml
