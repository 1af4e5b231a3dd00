#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/util/source_location.h"

// What the action readers (setup_node_version_file.h, setup_bun_version_file.h) share: the file a
// step's input names, where it stands in the repository as the action works that out, and its
// text read as hostile input. docs/resolver.md, "Version files named by a step".
namespace reviewer::resolve {

// A version file as a step's input names it.
struct NamedFile {
  std::string input;              // the input: "node-version-file"
  std::string path;               // its value, as written
  util::SourceLocation location;  // where the workflow writes it
};

// The version an action takes from a version file, and where it stands.
struct FileVersion {
  std::string version;            // "" when the action finds none there and goes on without one
  util::SourceLocation location;  // the file; its line and column when the text says where
};

// The repository's files as the readers see them: at most `max_bytes` bytes of the regular file
// `path` (relative to the repository, plain: no empty, '.' or '..' component), or an error coded
// as core/util/file_read.h's kFile* (file-missing, file-symlink, file-not-regular, ...) with no
// link followed anywhere on the way. plan::RepositoryFiles is one.
using RepositoryReader =
    std::function<util::Result<std::string>(const std::string& path, std::size_t max_bytes)>;

// Node's path.join(GITHUB_WORKSPACE, input) made relative to the workspace ("" = the workspace
// itself): components split at '/', empty and '.' ones dropped, '..' removing the one before (a
// leading '/' is only a separator there). A '..' that climbs out of the workspace is refused:
// version-file-outside, located at `file.location`.
util::Result<std::string> join_in_workspace(const NamedFile& file);

// Node's path.resolve(dir, input), for `dir` relative to the workspace: as join_in_workspace, but
// an absolute `input` starts from the file system's root, which the review cannot place in CI's
// workspace: version-file-outside. `what` names the value in the message ("'bun-version-file'
// \"x\"", "volta.extends \"../base.json\" of package.json").
util::Result<std::string> resolve_in_workspace(std::string_view dir, std::string_view input,
                                               const std::string& what,
                                               const util::SourceLocation& where);

// Node's path.posix.basename(input): the last component, trailing '/'s ignored.
std::string_view base_name(std::string_view input);

// The directory part of a path relative to the workspace ("" for a top-level file).
std::string_view directory_of(std::string_view path);

// The size bound for a version file the readers read: package.json's (1 MiB) for a file named
// package.json, the version files' (64 KiB) for any other name.
std::size_t version_file_bound(std::string_view path);

// Reads `path` (already normalised) through `read`, bounded by version_file_bound. Refusals,
// located at `where`: version-file-missing ("`what` names PATH, which is not in the repository;"
// then `if_missing`, what the action does then; also for a path holding a NUL byte, which no file
// name can); invalid-declaration for the workspace itself, a link on the way or the file itself,
// a file that is not a regular file, over its bound, or unreadable.
util::Result<std::string> read_version_file(const RepositoryReader& read, const std::string& path,
                                            const std::string& what,
                                            const util::SourceLocation& where,
                                            std::string_view if_missing);

// The 1-based line and column of byte `offset` of `text`, lines counted at "\n", as the other
// readers count them.
util::SourceLocation location_in(std::string_view text, std::size_t offset,
                                 const std::string& file);

}  // namespace reviewer::resolve
