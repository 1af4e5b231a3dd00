// parse_yarn_lock: yarn 1's own lock format, read line by line in the one shape yarn writes.
#include "core/deps/yarn_lock.h"

#include <cctype>
#include <map>
#include <optional>

#include "core/util/text.h"

namespace reviewer::deps {
namespace {

util::Refusal invalid(const std::string& file, std::size_t line, const std::string& why) {
  return util::refusal("dependency-lock-invalid",
                       file + ":" + std::to_string(line) + ": " + why +
                           "; accepted: the lock yarn 1 writes (`yarn install`)");
}

// One line's content after its indentation: either `KEY[, KEY...]:` (a block or a map) or
// `KEY VALUE` (a field).
struct Line {
  std::vector<std::string> keys;
  std::optional<std::string> value;  // nullopt: the line opens a block or a map
};

// A token as yarn's tokenizer reads it: a JSON string in double quotes, or a plain word that
// starts with a letter, '/', '.' or '-' and runs to ':', ',' or a space. yarn writes only `\"`
// and `\\` escapes in what it quotes (JSON.stringify of printable text), so any other escape,
// or a word starting elsewhere (a digit, '@', which yarn always quotes), is refused rather than
// read in a way yarn might not.
std::optional<std::string> token(std::string_view s, std::size_t& i) {
  if (i >= s.size()) {
    return std::nullopt;
  }
  std::string out;
  if (s[i] == '"') {
    for (++i; i < s.size() && s[i] != '"'; ++i) {
      if (static_cast<unsigned char>(s[i]) < 0x20) {
        return std::nullopt;
      }
      if (s[i] == '\\') {
        if (i + 1 >= s.size() || (s[i + 1] != '"' && s[i + 1] != '\\')) {
          return std::nullopt;
        }
        ++i;
      }
      out.push_back(s[i]);
    }
    if (i >= s.size()) {
      return std::nullopt;
    }
    ++i;
    return out;
  }
  const unsigned char first = static_cast<unsigned char>(s[i]);
  if (std::isalpha(first) == 0 && first != '/' && first != '.' && first != '-') {
    return std::nullopt;
  }
  while (i < s.size() && s[i] != ':' && s[i] != ',' && s[i] != ' ' && s[i] != '"') {
    if (static_cast<unsigned char>(s[i]) < 0x20) {
      return std::nullopt;
    }
    out.push_back(s[i++]);
  }
  return out;
}

std::optional<Line> read_line(std::string_view s) {
  Line line;
  std::size_t i = 0;
  auto key = token(s, i);
  if (!key) {
    return std::nullopt;
  }
  line.keys.push_back(*key);
  while (i < s.size() && s[i] == ',') {
    i += (i + 1 < s.size() && s[i + 1] == ' ') ? 2 : 1;
    auto more = token(s, i);
    if (!more) {
      return std::nullopt;
    }
    line.keys.push_back(*more);
  }
  if (i < s.size() && s[i] == ':') {
    return i + 1 == s.size() ? std::optional<Line>(line) : std::nullopt;
  }
  if (line.keys.size() != 1 || i >= s.size() || s[i] != ' ') {
    return std::nullopt;
  }
  ++i;
  auto value = token(s, i);
  if (!value || i != s.size()) {
    return std::nullopt;
  }
  line.value = std::move(*value);
  return line;
}

}  // namespace

std::pair<std::string, std::string> split_yarn_pattern(const std::string& pattern) {
  const auto at = pattern.find('@', pattern.empty() || pattern[0] != '@' ? 0 : 1);
  if (at == std::string::npos) {
    return {pattern, ""};
  }
  return {pattern.substr(0, at), pattern.substr(at + 1)};
}

namespace {

// The lock read line by line: the block open now, and what it has given so far.
class YarnLockReader {
 public:
  YarnLockReader(const std::string& file, const LockBounds& bounds) : bounds_(bounds) {
    lock_.file = file;
  }

  // One line (numbered `number`, its line break removed); a refusal ends the read.
  std::optional<util::Refusal> read(std::string_view raw, std::size_t number) {
    number_ = number;
    const std::size_t indent = raw.find_first_not_of(' ');
    if (indent == std::string_view::npos) {
      return std::nullopt;
    }
    const std::string_view rest = raw.substr(indent);
    if (rest[0] == '#') {
      header_ = header_ || (indent == 0 && rest == "# yarn lockfile v1");
      return std::nullopt;
    }
    if (auto refused = refuse_foreign(rest, indent)) {
      return refused;
    }
    auto line = read_line(rest);
    if (!line) {
      return invalid(lock_.file, number_, "is not `KEY[, KEY...]:` or `KEY VALUE`");
    }
    return indent == 0 ? open_block(*line) : field(*line, indent);
  }

  // The lock, once every line is read.
  util::Result<YarnLock> finish() {
    if (entry_ != nullptr && entry_->package.version.empty()) {
      return invalid(lock_.file, number_, "ends in a block without `version`");
    }
    if (!header_) {
      return util::refusal("dependency-lock-version",
                           lock_.file +
                               " has no \"# yarn lockfile v1\" line; accepted: the lock yarn 1 "
                               "writes");
    }
    return std::move(lock_);
  }

 private:
  // What no yarn 1 lock holds: yarn 2's metadata, a merge conflict, an indent yarn never writes.
  std::optional<util::Refusal> refuse_foreign(std::string_view rest, std::size_t indent) const {
    if (rest.starts_with("__metadata:") && indent == 0) {
      return invalid(lock_.file, number_,
                     "has a `__metadata:` block, the lock of yarn 2 and later, which this yarn 1 "
                     "reader does not read (deps/berry_lock.h does)");
    }
    if (rest.starts_with("<<<<<<<") || rest.starts_with("=======") || rest.starts_with(">>>>>>>")) {
      return invalid(lock_.file, number_,
                     "holds a merge-conflict marker (`yarn install --frozen-lockfile` refuses a "
                     "lock it has to merge)");
    }
    if (rest[0] == '\t' || indent % 2 != 0 || indent > 4) {
      return invalid(lock_.file, number_,
                     "is indented by tabs, an odd number of spaces or too deep");
    }
    return std::nullopt;
  }

  // A line at the left margin opens the block of its patterns.
  std::optional<util::Refusal> open_block(const Line& line) {
    if (line.value) {
      return invalid(lock_.file, number_, "is a value outside any block");
    }
    if (lock_.entries.size() >= bounds_.max_packages) {
      return util::refusal("dependency-lock-invalid", lock_.file + " has more than " +
                                                          std::to_string(bounds_.max_packages) +
                                                          " blocks, over the bound");
    }
    if (entry_ != nullptr && entry_->package.version.empty()) {
      return invalid(lock_.file, number_, "follows a block without `version`");
    }
    lock_.entries.emplace_back();
    entry_ = &lock_.entries.back();
    for (const auto& key : line.keys) {
      if (!lock_.patterns.insert(key).second) {
        return invalid(lock_.file, number_,
                       "gives the pattern " + util::quote(key, '"') + " twice");
      }
      if (lock_.patterns.size() > bounds_.max_nodes) {
        return invalid(lock_.file, number_, "has more patterns than the bound");
      }
      entry_->patterns.push_back(key);
    }
    entry_->package.path = line.keys.front();
    entry_->package.name = split_yarn_pattern(line.keys.front()).first;
    fields_.clear();
    in_map_ = false;
    return std::nullopt;
  }

  // An indented line: a field of the open block, or an entry of its map.
  std::optional<util::Refusal> field(const Line& line, std::size_t indent) {
    if (entry_ == nullptr) {
      return invalid(lock_.file, number_, "is indented outside any block");
    }
    if (indent == 4) {
      if (!in_map_ || !line.value) {
        return invalid(lock_.file, number_, "nests deeper than a block's maps");
      }
      return std::nullopt;  // a dependency of the package: yarn installs it by its own block
    }
    if (line.keys.size() != 1 || !fields_.insert(line.keys.front()).second) {
      return invalid(lock_.file, number_, "gives a block's field twice or several at once");
    }
    in_map_ = !line.value;
    const std::string& name = line.keys.front();
    if (in_map_) {
      return std::nullopt;
    }
    if (name == "version") {
      entry_->package.version = *line.value;
    } else if (name == "resolved") {
      entry_->package.resolved = *line.value;
    } else if (name == "integrity") {
      entry_->package.integrity = *line.value;
    }
    return std::nullopt;
  }

  const LockBounds& bounds_;
  YarnLock lock_;
  bool header_ = false;
  YarnEntry* entry_ = nullptr;
  std::set<std::string> fields_;  // of the open block: a field given twice is refused
  bool in_map_ = false;           // the open block's last field is a map (`dependencies:`)
  std::size_t number_ = 0;
};

}  // namespace

util::Result<YarnLock> parse_yarn_lock(std::string_view text, const std::string& file,
                                       const LockBounds& bounds) {
  if (text.size() > bounds.max_bytes) {
    return util::refusal("dependency-lock-invalid",
                         file + " is " + std::to_string(text.size()) + " bytes, over the " +
                             std::to_string(bounds.max_bytes) + "-byte bound");
  }
  YarnLockReader reader(file, bounds);
  std::size_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    if (!raw.empty() && raw.back() == '\r') {
      raw.remove_suffix(1);
    }
    if (auto refused = reader.read(raw, ++number)) {
      return *refused;
    }
  }
  return reader.finish();
}

}  // namespace reviewer::deps
