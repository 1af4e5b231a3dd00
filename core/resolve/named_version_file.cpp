#include "core/resolve/named_version_file.h"

#include <algorithm>
#include <vector>

#include "core/resolve/package_json.h"
#include "core/resolve/safe_file.h"
#include "core/resolve/version_files.h"
#include "core/util/file_read.h"

namespace reviewer::resolve {
namespace {

// Normalises `input` onto `parts` as Node's path.normalize does for a path below a root: false
// when a '..' climbs above the root.
bool push_components(std::string_view input, std::vector<std::string_view>& parts) {
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

std::string joined(const std::vector<std::string_view>& parts) {
  std::string out;
  for (const auto& p : parts) {
    out += (out.empty() ? "" : "/") + std::string(p);
  }
  return out;
}

util::Refusal outside(const std::string& what, const util::SourceLocation& where) {
  return util::refusal("version-file-outside",
                       what +
                           " leaves the workspace; the review reads version files of the "
                           "repository under review only, so name a file inside it",
                       where);
}

}  // namespace

util::Result<std::string> join_in_workspace(const NamedFile& file) {
  std::vector<std::string_view> parts;
  if (!push_components(file.path, parts)) {
    return outside("'" + file.input + "' " + quote(file.path), file.location);
  }
  return joined(parts);
}

util::Result<std::string> resolve_in_workspace(std::string_view dir, std::string_view input,
                                               const std::string& what,
                                               const util::SourceLocation& where) {
  if (input.starts_with("/")) {
    return outside(what + " (an absolute path)", where);
  }
  std::vector<std::string_view> parts;
  if (!push_components(dir, parts) || !push_components(input, parts)) {
    return outside(what, where);
  }
  return joined(parts);
}

std::string_view base_name(std::string_view input) {
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

std::string_view directory_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

std::size_t version_file_bound(std::string_view path) {
  return base_name(path) == "package.json" ? kMaxPackageJsonBytes : kMaxVersionFileBytes;
}

util::Result<std::string> read_version_file(const RepositoryReader& read, const std::string& path,
                                            const std::string& what,
                                            const util::SourceLocation& where,
                                            std::string_view if_missing) {
  const std::string shown = quote(path.empty() ? "." : path);
  auto refuse = [&](const std::string& why) {
    return invalid_declaration(what + " names " + shown + ", which " + why, where);
  };
  if (path.empty()) {
    return refuse("is the workspace itself, a directory; name a version file");
  }
  if (path.find('\0') != std::string::npos) {
    // No file name holds a NUL byte: Node's existsSync says no such file, and a C path would
    // end at the byte and name another file.
    return util::refusal(util::RefusalKind::kAbsent, "version-file-missing",
                         what + " names " + shown +
                             ", which holds a NUL byte, so no file has that name; " +
                             std::string(if_missing),
                         where);
  }
  const std::size_t bound = version_file_bound(path);
  // One byte over the bound tells a file at the bound from a larger one.
  auto text = read(path, bound + 1);
  if (text) {
    if (text->size() > bound) {
      return refuse("is over the " + std::to_string(bound) +
                    "-byte bound for this file; a version file holds one version");
    }
    return text;
  }
  const util::FileFault code = util::file_fault(text.error());
  if (code == util::FileFault::kMissing) {
    return util::refusal(
        util::RefusalKind::kAbsent, "version-file-missing",
        what + " names " + shown + ", which is not in the repository; " + std::string(if_missing),
        where);
  }
  if (code == util::FileFault::kSymlink) {
    return refuse(
        "is reached through a symbolic link (" + text.error().message +
        "); version files must be regular files of the worktree, read without following links");
  }
  if (code == util::FileFault::kNotRegular) {
    return refuse("is not a regular file");
  }
  return refuse("cannot be read: " + text.error().message);
}

util::SourceLocation location_in(std::string_view text, std::size_t offset,
                                 const std::string& file) {
  const std::string_view before = text.substr(0, std::min(offset, text.size()));
  const std::size_t nl = before.rfind('\n');
  const auto line = static_cast<std::uint32_t>(std::count(before.begin(), before.end(), '\n'));
  const auto column =
      static_cast<std::uint32_t>(nl == std::string_view::npos ? offset : offset - nl - 1);
  return util::SourceLocation{file, line + 1, column + 1};
}

}  // namespace reviewer::resolve
