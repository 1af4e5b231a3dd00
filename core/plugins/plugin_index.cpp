#include "core/plugins/plugin_index.h"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <sstream>

#include "core/plugins/capabilities.h"
#include "core/plugins/file_checks.h"
#include "core/plugins/manifest.h"

namespace reviewer::plugins {
namespace {

// 2 added each claim's capabilities (SDK 1.10); an index of 1 is refused, naming the command
// that writes it anew, rather than read as claiming none.
constexpr const char* kHeader = "reviewer plugin index 2";

// Index values are single words: no value the SDK accepts needs white space, and a word can be
// neither split nor joined by the line format.
bool is_word(const std::string& s) {
  if (s.empty()) {
    return false;
  }
  for (unsigned char c : s) {
    if (c <= ' ' || c == 0x7f) {
      return false;
    }
  }
  return true;
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string w; in >> w;) {
    out.push_back(w);
  }
  return out;
}

}  // namespace

util::Result<std::string> format_index(const PluginIndex& index) {
  std::string out = std::string(kHeader) + "\n";
  for (const auto& [file, entry] : index) {
    const std::string& name = file;  // named: clang 14 cannot capture a structured binding
    auto bad = [&](const std::string& what, const std::string& value) {
      return util::refusal("plugin-index-invalid",
                           "'" + name + "' has " + what + " '" + value.substr(0, 80) +
                               "', which the index cannot hold (one word, no white space)",
                           util::SourceLocation{name, 0, 0});
    };
    if (!is_word(file) || file.find('/') != std::string::npos) {
      return bad("the file name", file);
    }
    out += "plugin " + file + " " + entry.sha256 + "\n";
    for (const auto& c : entry.claims) {
      if (!is_word(c.action)) {
        return bad("the action id", c.action);
      }
      if (!c.reviewed_on.empty() && !is_word(c.reviewed_on)) {
        return bad("the review date", c.reviewed_on);
      }
      out += "claim " + c.action + " " + (c.reviewed_on.empty() ? "-" : c.reviewed_on) + " " +
             capability_words(c.capabilities) + "\n";
      for (const auto& r : c.refs) {
        if (!is_word(r.sha) || !is_word(r.tag)) {
          return bad("the reviewed ref", r.sha + " " + r.tag);
        }
        out += "ref " + r.sha + " " + r.tag + "\n";
      }
    }
  }
  return out;
}

util::Result<PluginIndex> parse_index(const std::string& text, const std::string& path) {
  PluginIndex index;
  std::istringstream in(text);
  std::string line;
  std::uint32_t n = 0;
  IndexEntry* plugin = nullptr;
  auto bad = [&](const std::string& why) {
    return util::refusal("plugin-index-invalid", why, util::SourceLocation{path, n, 1});
  };
  while (std::getline(in, line)) {
    ++n;
    if (n == 1) {
      if (line != kHeader) {
        return bad(std::string("the first line is not '") + kHeader +
                   "' (an index an older reviewer wrote?); write it anew with `reviewer " +
                   "plugin-index " + std::filesystem::path(path).parent_path().string() + "`");
      }
      continue;
    }
    const auto w = words(line);
    if (w.size() == 3 && w[0] == "plugin") {
      if (!w[1].ends_with(".so") || w[1].find('/') != std::string::npos || !is_sha256_hex(w[2])) {
        return bad("a plugin line is not 'plugin <file>.so <sha256>'");
      }
      auto [it, inserted] = index.emplace(w[1], IndexEntry{w[2], {}});
      if (!inserted) {
        return bad("'" + w[1] + "' is listed twice");
      }
      plugin = &it->second;
    } else if (w.size() == 4 && w[0] == "claim" && plugin != nullptr) {
      const auto capabilities = parse_capability_words(w[3]);
      if (!capabilities) {
        return bad("the capabilities '" + w[3].substr(0, 80) +
                   "' are not '-' or a ','-joined list of checkout and before-checkout");
      }
      plugin->claims.push_back({w[1], {}, w[2] == "-" ? "" : w[2], *capabilities});
    } else if (w.size() == 3 && w[0] == "ref" && plugin != nullptr && !plugin->claims.empty()) {
      plugin->claims.back().refs.push_back({w[1], w[2]});
    } else {
      return bad(
          "line is not 'plugin <file> <sha256>', 'claim <action> <date> <capabilities>' or "
          "'ref <sha> <tag>' in that nesting");
    }
  }
  if (n == 0) {
    return bad(std::string("the index is empty; its first line must be '") + kHeader + "'");
  }
  return index;
}

util::Result<std::optional<PluginIndex>> read_index(const std::string& dir) {
  const std::string path = dir + "/" + kIndexName;
  struct stat st {};
  // Absent is a state of its own (a directory installed without one is loaded whole); anything
  // else there, a link included, goes through the checked read and is refused.
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    return std::optional<PluginIndex>();
  }
  auto text =
      read_install_file(path, "plugin index", "plugin-index-invalid", "plugin-index-invalid");
  if (!text) {
    return text.refusals();
  }
  auto index = parse_index(*text, path);
  if (!index) {
    return index.refusals();
  }
  return std::optional<PluginIndex>(std::move(*index));
}

}  // namespace reviewer::plugins
