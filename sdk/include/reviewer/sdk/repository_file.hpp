// Reading a file a step names, as the action that reads it would find it (SDK 1.11): where the
// file stands in the workspace (Node's path.join and path.resolve), its bytes through the host's
// read_repository_file (no link followed, bounded), the refusals every such reader shares, and
// where in the text a value stands. A plugin writes the action's own reading on top (what it
// takes from the text); the host knows no action's files. Header-only.
#pragma once

#include <reviewer/sdk/plugin.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace reviewer::sdk {

// A place in a file that owns its name (Location only views one): the workflow, or a repository
// file; line 0 stands for the file as a whole.
struct Place {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  Location location() const { return {file, line, column}; }
  // "file:line:column", or "file" when no line is known.
  std::string to_string() const {
    return line == 0 ? file : file + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
};

// A refusal a reader makes, for PlanDecision::refuse.
struct FileRefusal {
  std::string rule;
  std::string message;
  Place where;
  bool missing = false;  // version-file-missing: no file has the name (some actions go on then)
};

// A value, or the refusal that stopped it.
template <class T>
class FileResult {
 public:
  FileResult(T value) : v_(std::move(value)) {}                // NOLINT: implicit, as a result
  FileResult(FileRefusal refusal) : v_(std::move(refusal)) {}  // NOLINT
  explicit operator bool() const { return v_.index() == 0; }
  T& operator*() { return std::get<0>(v_); }
  const T& operator*() const { return std::get<0>(v_); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  const FileRefusal& refusal() const { return std::get<1>(v_); }

 private:
  std::variant<T, FileRefusal> v_;
};

// What an action takes from a file: the version as it takes it ("" when it finds none there and
// goes on without one), and where that stands (the file; its line and column when the text says).
struct FileVersion {
  std::string version;
  Place where;
};

// A file as a step's input names it.
struct NamedFile {
  std::string input;  // the input: "node-version-file"
  std::string path;   // its value, as written
  Place where;        // where the workflow writes it
};

// The repository's files as a reader sees them: `path` relative to the workspace, at most
// `max_bytes` bytes. repository_reader() reads through the host; tests read from memory.
using RepositoryReader = std::function<RepositoryFile(const std::string& path, std::size_t)>;

// The host's read_repository_file, each read recorded against the input at `where` (which must
// outlive the reader: a step's locations live as long as plan()).
inline RepositoryReader repository_reader(const PlanDecision& decision, Location where) {
  return [&decision, where](const std::string& path, std::size_t max_bytes) {
    return decision.read_repository_file(path, max_bytes, where);
  };
}

// The bound of a file that holds one version (.nvmrc, .bun-version, .tool-versions, ...).
inline constexpr std::size_t kMaxVersionFileBytes = 64 * 1024;
// The bound of a package.json, which holds a whole manifest.
inline constexpr std::size_t kMaxPackageJsonBytes = REVIEWER_REPOSITORY_FILE_MAX_BYTES;

// `"value"` for a message, as the host quotes values: cut at 120 bytes with "..." after; '"' and
// '\' escaped with '\'; control bytes, NEL, U+2028 and U+2029 written \xNN.
inline std::string in_quotes(std::string_view value) {
  constexpr std::size_t kMax = 120;
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  const std::string_view shown = value.substr(0, kMax);
  for (std::size_t i = 0; i < shown.size();) {
    const auto c = static_cast<unsigned char>(shown[i]);
    const auto at = [&](std::size_t k) {
      return i + k < shown.size() ? static_cast<unsigned char>(shown[i + k]) : 0;
    };
    std::size_t n = c < 0x20 || c == 0x7f                                            ? 1
                    : c == 0xc2 && at(1) == 0x85                                     ? 2
                    : c == 0xe2 && at(1) == 0x80 && (at(2) == 0xa8 || at(2) == 0xa9) ? 3
                                                                                     : 0;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      n = 1;
    } else if (n == 0) {
      out += static_cast<char>(c);
      n = 1;
    } else {
      for (std::size_t k = 0; k < n; ++k) {
        out += "\\x";
        out += kHex[at(k) >> 4];
        out += kHex[at(k) & 0xf];
      }
    }
    i += n;
  }
  return out + (value.size() > kMax ? "...\"" : "\"");
}

namespace detail {

// Normalises `input` onto `parts` as Node's path.normalize does for a path below a root: false
// when a '..' climbs above the root.
inline bool push_components(std::string_view input, std::vector<std::string_view>& parts) {
  while (!input.empty()) {
    const std::size_t slash = input.find('/');
    const std::string_view part = input.substr(0, slash);
    if (part == "..") {
      if (parts.empty()) {
        return false;
      }
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string_view::npos) {
      break;
    }
    input.remove_prefix(slash + 1);
  }
  return true;
}

inline std::string joined(const std::vector<std::string_view>& parts) {
  std::string out;
  for (const auto& p : parts) {
    out += (out.empty() ? "" : "/") + std::string(p);
  }
  return out;
}

inline FileRefusal outside(const std::string& what, const Place& where) {
  return {"version-file-outside",
          what +
              " leaves the workspace; the review reads version files of the repository under "
              "review only, so name a file inside it",
          where};
}

}  // namespace detail

// Node's path.join(GITHUB_WORKSPACE, input) made relative to the workspace ("" = the workspace
// itself): components split at '/', empty and '.' ones dropped, '..' removing the one before (a
// leading '/' is only a separator there). A '..' that climbs out of the workspace is refused:
// version-file-outside, located at `file.where`.
inline FileResult<std::string> join_in_workspace(const NamedFile& file) {
  std::vector<std::string_view> parts;
  if (!detail::push_components(file.path, parts)) {
    return detail::outside("'" + file.input + "' " + in_quotes(file.path), file.where);
  }
  return detail::joined(parts);
}

// Node's path.resolve(dir, input), for `dir` relative to the workspace: as join_in_workspace, but
// an absolute `input` starts from the file system's root, which the review cannot place in CI's
// workspace: version-file-outside. `what` names the value in the message ("'bun-version-file'
// \"x\"", "package.json volta.extends \"../base.json\"").
inline FileResult<std::string> resolve_in_workspace(std::string_view dir, std::string_view input,
                                                    const std::string& what, const Place& where) {
  if (input.starts_with("/")) {
    return detail::outside(what + " (an absolute path)", where);
  }
  std::vector<std::string_view> parts;
  if (!detail::push_components(dir, parts) || !detail::push_components(input, parts)) {
    return detail::outside(what, where);
  }
  return detail::joined(parts);
}

// Node's path.posix.basename(input): the last component, trailing '/'s ignored.
inline std::string_view base_name(std::string_view input) {
  std::size_t end = input.size();
  while (end > 0 && input[end - 1] == '/') {
    --end;
  }
  if (end == 0) {
    return {};
  }
  const std::size_t slash = input.rfind('/', end - 1);
  const std::size_t begin = slash == std::string_view::npos ? 0 : slash + 1;
  return input.substr(begin, end - begin);
}

// The directory part of a path relative to the workspace ("" for a top-level file).
inline std::string_view directory_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

// The bound of a version file: package.json's for a file named package.json, the version files'
// for any other name.
inline std::size_t version_file_bound(std::string_view path) {
  return base_name(path) == "package.json" ? kMaxPackageJsonBytes : kMaxVersionFileBytes;
}

// An invalid-declaration refusal: what a file declares cannot be read as the action reads it.
inline FileRefusal invalid_declaration(std::string message, Place where) {
  return {"invalid-declaration", std::move(message), std::move(where)};
}

// Reads `path` (already normalised) through `read`, bounded by version_file_bound. Refusals,
// located at `where`: version-file-missing ("`what` names PATH, which is not in the repository;"
// then `if_missing`, what the action does then; also for a path holding a NUL byte, which no file
// name can), with `missing` set; invalid-declaration for the workspace itself and for a file the
// host may not read (a link on the way or the file itself, not a regular file, over its bound),
// with the host's reason, and from a host too old to read one.
inline FileResult<std::string> read_version_file(const RepositoryReader& read,
                                                 const std::string& path, const std::string& what,
                                                 const Place& where, std::string_view if_missing) {
  const std::string shown = in_quotes(path.empty() ? "." : path);
  if (path.empty()) {
    return invalid_declaration(
        what + " names " + shown +
            ", which is the workspace itself, a directory; name a version file",
        where);
  }
  if (path.find('\0') != std::string::npos) {
    // No file name holds a NUL byte: Node's existsSync says no such file, and a C path would
    // end at the byte and name another file.
    return FileRefusal{"version-file-missing",
                       what + " names " + shown +
                           ", which holds a NUL byte, so no file has that name; " +
                           std::string(if_missing),
                       where, true};
  }
  const std::size_t bound = version_file_bound(path);
  RepositoryFile file = read(path, bound);
  using Status = RepositoryFile::Status;
  if (file.status == Status::kRead) {
    return std::move(file.bytes);
  }
  if (file.status == Status::kMissing) {
    return FileRefusal{
        "version-file-missing",
        what + " names " + shown + ", which is not in the repository; " + std::string(if_missing),
        where, true};
  }
  const std::string why = file.status == Status::kRefused
                              ? file.bytes
                              : "cannot be read: this host reads no repository files (SDK 1.11)";
  return invalid_declaration(what + " names " + shown + ", which " + why +
                                 "; a version file must be a regular file of the worktree of at "
                                 "most " +
                                 std::to_string(bound) + " bytes, read without following links",
                             where);
}

// The 1-based line and column of byte `offset` of `text` in `file`, lines counted at "\n".
inline Place location_in(std::string_view text, std::size_t offset, const std::string& file) {
  const std::string_view before = text.substr(0, std::min(offset, text.size()));
  const std::size_t nl = before.rfind('\n');
  const auto line = static_cast<std::uint32_t>(std::count(before.begin(), before.end(), '\n'));
  const auto column =
      static_cast<std::uint32_t>(nl == std::string_view::npos ? offset : offset - nl - 1);
  return Place{file, line + 1, column + 1};
}

}  // namespace reviewer::sdk
