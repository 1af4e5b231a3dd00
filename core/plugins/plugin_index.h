#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/plugins/plugin_library.h"
#include "core/util/result.h"

namespace reviewer::plugins {

inline constexpr const char* kIndexName = "PLUGINS.index";

// What each installed plugin claims, written at install time from the verified, loaded plugins
// (`reviewer plugin-index DIR`), so a build learns which plugin handles an action without
// hashing or loading any of them, and then verifies and loads only the ones its plan uses.
struct IndexEntry {
  std::string sha256;  // the file's, as the manifest lists it when the index was written
  std::vector<Claim> claims;
};
using PluginIndex = std::map<std::string, IndexEntry>;  // file name -> entry

// The index as text: a header line, then per plugin `plugin <file> <sha256>`, per claim
// `claim <action> <reviewed_on or -> <capabilities or ->`, per reviewed ref `ref <sha> <tag>`. A
// value holding white space or a control character cannot be written (plugin-index-invalid).
util::Result<std::string> format_index(const PluginIndex& index);

// Parses index text; anything but the lines format_index writes is plugin-index-invalid,
// located at its line.
util::Result<PluginIndex> parse_index(const std::string& text, const std::string& path);

// Reads `dir`/PLUGINS.index with the manifest's rules (regular file, no link, written by nobody
// but root or us, at most 1 MiB); an absent index is an empty optional.
util::Result<std::optional<PluginIndex>> read_index(const std::string& dir);

}  // namespace reviewer::plugins
