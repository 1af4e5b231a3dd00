#include "core/deps/catalogue/node_release_notes.h"

#include <fcntl.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>
#include <vector>

#include "core/resolve/runtime_catalogue.h"
#include "core/resolve/text_lines.h"
#include "core/semver/version.h"
#include "core/util/file_read.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

// A release post is a few hundred kilobytes at most (v24.0.0's is 150 KiB).
constexpr std::size_t kMaxPostBytes = 4 * 1024 * 1024;

std::optional<semver::Version> exact(std::string_view v) {
  auto parsed = semver::parse_version(v);
  if (!parsed || !parsed->prerelease.empty()) {
    return std::nullopt;
  }
  return *parsed;
}

void keep_newest(std::string& held, const std::string& candidate) {
  auto c = exact(candidate);
  auto h = exact(held);
  if (c && (!h || *h < *c)) {
    held = candidate;
  }
}

// "vX.Y.Z.md" or "vX.Y.Z/page.md" -> "X.Y.Z".
std::optional<std::string> post_version(const fs::directory_entry& entry) {
  std::string name = entry.path().filename().string();
  std::error_code ec;
  if (entry.is_directory(ec)) {
    if (!fs::is_regular_file(entry.path() / "page.md", ec)) {
      return std::nullopt;
    }
  } else if (name.size() > 3 && name.ends_with(".md")) {
    name.resize(name.size() - 3);
  } else {
    return std::nullopt;
  }
  if (name.empty() || name[0] != 'v' || !exact(name.substr(1))) {
    return std::nullopt;
  }
  return name.substr(1);
}

}  // namespace

NodeReleaseNote read_node_release_note(std::string_view text) {
  static const std::regex kDate(R"(^date:\s*'?(\d{4}-\d{2}-\d{2}))");
  static const std::regex kUpgrade(
      R"((?:upgrade|update)\s+(npm|corepack)\s+to\s+v?(\d+\.\d+\.\d+))", std::regex::icase);
  static const std::regex kDrop(
      R"(stop distributing corepack|remove corepack from release tarballs)", std::regex::icase);
  NodeReleaseNote note;
  for (const auto& line : resolve::lines_of(text)) {
    const std::string l(line.text);
    std::smatch m;
    if (note.date.empty() && std::regex_search(l, m, kDate)) {
      note.date = m[1];
    }
    if (util::lower(l).find("revert") != std::string::npos) {
      continue;  // a reverted upgrade is not what the release bundles
    }
    for (auto it = std::sregex_iterator(l.begin(), l.end(), kUpgrade); it != std::sregex_iterator();
         ++it) {
      const std::string tool = util::lower((*it)[1].str());
      keep_newest(tool == "npm" ? note.npm : note.corepack, (*it)[2].str());
    }
    if (std::regex_search(l, kDrop)) {
      note.drops_corepack = true;
    }
  }
  return note;
}

util::Result<std::map<std::string, NodeReleaseNote>> read_node_release_notes(
    const std::string& dir) {
  std::map<std::string, NodeReleaseNote> notes;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    auto version = post_version(entry);
    if (!version) {
      continue;
    }
    std::error_code kind;
    const fs::path file = entry.is_directory(kind) ? entry.path() / "page.md" : entry.path();
    auto text = util::read_regular_file(AT_FDCWD, file.string(), {.max_bytes = kMaxPostBytes});
    if (!text) {
      return util::refusal(
          util::RefusalKind::kHost, "invalid-catalogue",
          "cannot read the release note " + file.string() + ": " + text.error().message);
    }
    notes[*version] = read_node_release_note(*text);
  }
  if (ec) {
    return util::refusal(util::RefusalKind::kHost, "invalid-catalogue",
                         "cannot read the release notes in " + dir + ": " + ec.message());
  }
  return notes;
}

std::map<std::string, NodeBundle> node_bundles(const std::map<std::string, NodeReleaseNote>& notes,
                                               const std::vector<std::string>& releases) {
  std::vector<std::pair<semver::Version, std::string>> ordered;
  for (const auto& r : releases) {
    if (auto v = exact(r)) {
      ordered.emplace_back(*v, r);
    }
  }
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  long long drop_major = -1;
  for (const auto& [version, note] : notes) {
    if (auto v = exact(version);
        v && note.drops_corepack &&
        (drop_major < 0 || static_cast<long long>(v->major) < drop_major)) {
      drop_major = static_cast<long long>(v->major);
    }
  }
  std::map<std::string, NodeBundle> out;
  NodeBundle carry;
  long long major = -1;
  for (const auto& [version, text] : ordered) {
    if (static_cast<long long>(version.major) != major) {
      major = static_cast<long long>(version.major);
      carry = {};
    }
    auto note = notes.find(text);
    if (note == notes.end()) {
      carry = {};  // the line's history has a gap: what this release bundles is not known
    } else {
      if (!note->second.npm.empty()) {
        carry.npm = note->second.npm;
      }
      if (!note->second.corepack.empty()) {
        carry.corepack = note->second.corepack;
      }
    }
    NodeBundle bundle = carry;
    if (drop_major >= 0 && major >= drop_major) {
      bundle.corepack = std::string(resolve::kNotBundled);
    }
    out[text] = bundle;
  }
  return out;
}

}  // namespace reviewer::deps
