#include "core/plugins/registry.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "core/plugins/file_checks.h"

namespace reviewer::plugins {
namespace {

void trace(const std::string& path, const std::string& verdict) {
  if (plugin_trace_enabled()) {
    std::cerr << "reviewer: plugin candidate " << path << ": " << verdict << "\n";
  }
}

// Every stale index is mended the same way, so the message says how.
util::Refusal stale(const std::string& path, const std::string& message) {
  const std::string dir = path.substr(0, path.rfind('/'));
  return util::refusal("plugin-index-stale",
                       message +
                           "; rewrite the index from the verified plugins with `reviewer "
                           "plugin-index " +
                           dir + "` (as the directory's owner)",
                       util::SourceLocation{path, 0, 0});
}

// Every refusal of one install, each traced as it is made (the directory stands for a refusal
// that names no file).
class RefusalLog {
 public:
  explicit RefusalLog(const std::string& dir) : dir_(dir) {}
  void refuse(report::Refusal r) {
    trace(r.location ? r.location->file : dir_, r.rule + ": " + r.message);
    refusals_.push_back(std::move(r));
  }
  // Refusals already traced where they were made.
  void add_traced(const report::Refusals& rs) {
    refusals_.insert(refusals_.end(), rs.begin(), rs.end());
  }
  bool empty() const { return refusals_.empty(); }
  report::Refusals take() { return std::move(refusals_); }

 private:
  const std::string& dir_;
  report::Refusals refusals_;
};

// What the install's directory vouches for: its manifest, and its index unless it is ignored.
struct Install {
  std::shared_ptr<const Manifest> manifest;
  std::optional<PluginIndex> index;
};

// The directory itself, who may write it, its manifest and index: nullopt (refused) when any
// is not as reviewed, and then nothing in it is looked at.
std::optional<Install> check_install(const std::string& dir, bool with_index, RefusalLog& log) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    log.refuse({"plugin-dir-missing", fmt::format("plugin directory '{}' does not exist", dir),
                util::SourceLocation{dir, 0, 0}});
    return std::nullopt;
  }
  if (auto owned = check_ownership(st, dir, "plugin-permissions"); !owned) {
    log.refuse(owned.error());
    return std::nullopt;
  }
  auto manifest = read_manifest(dir);
  if (!manifest) {
    log.refuse(manifest.error());
    return std::nullopt;
  }
  Install install{std::make_shared<const Manifest>(std::move(*manifest)), std::nullopt};
  if (with_index) {
    auto read = read_index(dir);
    if (!read) {
      log.refuse(read.error());
      return std::nullopt;
    }
    install.index = std::move(*read);
  }
  return install;
}

std::vector<std::string> sorted_entries(const std::string& dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// A plugin file that passed its checks, with its claims when the index gave them.
struct Candidate {
  std::string path;
  std::string file;
  std::vector<Claim> claims;
  bool from_index = false;
};

// The checks of one installed .so: the file itself, and that the index lists it as the manifest
// does.
std::optional<Candidate> check_plugin_file(const std::string& path, const std::string& file,
                                           const Install& install, RefusalLog& log) {
  if (auto bad = check_candidate(path, *install.manifest); !bad) {
    log.refuse(bad.error());
    return std::nullopt;
  }
  Candidate candidate{path, file, {}, false};
  if (!install.index) {
    return candidate;
  }
  auto listed = install.index->find(file);
  if (listed == install.index->end()) {
    log.refuse(stale(path, fmt::format("'{}' is installed but not in the plugin index", file)));
    return std::nullopt;
  }
  const std::string& sha256 = install.manifest->at(file);
  if (listed->second.sha256 != sha256) {
    log.refuse(stale(path, fmt::format("the plugin index was written for a '{}' with SHA-256 "
                                       "{}, the manifest says {}",
                                       file, listed->second.sha256, sha256)));
    return std::nullopt;
  }
  candidate.claims = listed->second.claims;
  candidate.from_index = true;
  return candidate;
}

// Every file of the directory but the manifest and index, in name order: each must be a plugin
// that passes its checks. `installed` gets the name of each .so, accepted or not.
std::vector<Candidate> check_files(const std::string& dir, const Install& install,
                                   std::vector<std::string>& installed, RefusalLog& log) {
  std::vector<Candidate> out;
  for (const auto& path : sorted_entries(dir)) {
    std::string file = std::filesystem::path(path).filename();
    if (file == kManifestName || file == kIndexName) {
      continue;
    }
    if (!file.ends_with(".so")) {
      log.refuse({"plugin-unexpected-file",
                  fmt::format("'{}' in the plugin directory is not a plugin", file),
                  util::SourceLocation{path, 0, 0}});
      continue;
    }
    installed.push_back(file);
    if (auto candidate = check_plugin_file(path, file, install, log)) {
      out.push_back(std::move(*candidate));
    }
  }
  return out;
}

// What the manifest lists but is not installed, and what the index lists but the manifest not.
void refuse_unlisted(const std::string& dir, const std::vector<std::string>& installed,
                     const Install& install, RefusalLog& log) {
  for (const auto& [file, hash] : *install.manifest) {
    if (std::find(installed.begin(), installed.end(), file) == installed.end()) {
      log.refuse({"plugin-missing", fmt::format("'{}' is in the manifest but not installed", file),
                  util::SourceLocation{dir + "/" + file, 0, 0}});
    }
  }
  if (install.index) {
    for (const auto& [file, entry] : *install.index) {
      if (!install.manifest->contains(file)) {
        log.refuse(
            stale(dir + "/" + kIndexName,
                  fmt::format("the plugin index lists '{}', which the manifest does not", file)));
      }
    }
  }
}

}  // namespace

util::Result<Registry> Registry::load(const std::string& dir) { return make(dir, Mode::kAll); }

util::Result<Registry> Registry::open(const std::string& dir) { return make(dir, Mode::kLazy); }

util::Result<Registry> Registry::load_ignoring_index(const std::string& dir) {
  return make(dir, Mode::kAllIgnoringIndex);
}

util::Result<Registry> Registry::make(const std::string& dir, Mode mode) {
  RefusalLog log(dir);
  const auto install = check_install(dir, mode != Mode::kAllIgnoringIndex, log);
  if (!install) {
    return log.take();
  }
  Registry registry;
  std::vector<std::string> installed;
  for (auto& c : check_files(dir, *install, installed, log)) {
    registry.entries_.push_back(Entry{std::move(c.path), install->manifest,
                                      install->manifest->at(c.file), std::move(c.claims),
                                      c.from_index, nullptr, std::nullopt});
  }
  refuse_unlisted(dir, installed, *install, log);
  if (!log.empty()) {
    return log.take();
  }
  // With an index an opened registry loads nothing yet; everything else loads every plugin now.
  const bool load_now = mode != Mode::kLazy || !install->index;
  for (auto& entry : registry.entries_) {
    if (!load_now) {
      trace(entry.path, "indexed; verified and loaded when a step uses it");
      continue;
    }
    if (auto loaded = registry.load_entry(entry); !loaded) {
      log.add_traced(loaded.refusals());
      continue;
    }
    entry.claims = entry.library->claims;
  }
  for (std::size_t e = 0; e < registry.entries_.size(); ++e) {
    const Entry& entry = registry.entries_[e];
    for (std::size_t c = 0; c < entry.claims.size(); ++c) {
      const std::string& action = entry.claims[c].action;
      auto [it, inserted] = registry.by_action_.emplace(action, std::make_pair(e, c));
      if (!inserted) {
        log.refuse({"plugin-duplicate-action",
                    fmt::format("'{}' and '{}' both claim action '{}'",
                                std::filesystem::path(entry.path).filename().string(),
                                std::filesystem::path(registry.entries_[it->second.first].path)
                                    .filename()
                                    .string(),
                                action),
                    util::SourceLocation{entry.path, 0, 0}});
      }
    }
  }
  if (!log.empty()) {
    return log.take();
  }
  return registry;
}

util::Status Registry::load_entry(const Entry& entry) const {
  if (entry.library) {
    return util::ok_status();
  }
  if (entry.refused) {
    return *entry.refused;
  }
  auto lib = load_plugin(entry.path, *entry.manifest);
  if (lib && entry.from_index && lib->claims != entry.claims) {
    lib = stale(entry.path, fmt::format("'{}' claims other actions or reviewed releases than the "
                                        "plugin index says",
                                        std::filesystem::path(entry.path).filename().string()));
  }
  if (!lib) {
    for (const auto& r : lib.refusals()) {
      trace(entry.path, r.rule + ": " + r.message);
    }
    entry.refused = lib.refusals();
    return lib.refusals();
  }
  trace(entry.path, "accepted");
  entry.library = std::make_unique<PluginLibrary>(std::move(*lib));
  return util::ok_status();
}

const Claim* Registry::claim(const std::string& action) const {
  auto it = by_action_.find(action);
  return it == by_action_.end() ? nullptr : &entries_[it->second.first].claims[it->second.second];
}

std::uint32_t Registry::capabilities(const std::string& action) const {
  const Claim* c = claim(action);
  return c == nullptr ? 0 : c->capabilities;
}

std::vector<std::string> Registry::actions_with(std::uint32_t capability) const {
  std::vector<std::string> out;
  for (const auto& [action, at] : by_action_) {
    if ((entries_[at.first].claims[at.second].capabilities & capability) == capability) {
      out.push_back(action);
    }
  }
  return out;  // by_action_ is ordered
}

util::Result<const PluginLibrary*> Registry::plugin(const std::string& action) const {
  auto it = by_action_.find(action);
  if (it == by_action_.end()) {
    return static_cast<const PluginLibrary*>(nullptr);
  }
  const Entry& entry = entries_[it->second.first];
  if (auto loaded = load_entry(entry); !loaded) {
    return loaded.refusals();
  }
  return static_cast<const PluginLibrary*>(entry.library.get());
}

const PluginLibrary* Registry::find(const std::string& action) const {
  auto it = by_action_.find(action);
  return it == by_action_.end() ? nullptr : entries_[it->second.first].library.get();
}

util::Status Registry::load_all() const {
  report::Refusals refusals;
  for (const auto& entry : entries_) {
    if (auto loaded = load_entry(entry); !loaded) {
      refusals.insert(refusals.end(), loaded.refusals().begin(), loaded.refusals().end());
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return util::ok_status();
}

std::vector<const PluginLibrary*> Registry::loaded() const {
  std::vector<const PluginLibrary*> out;
  for (const auto& entry : entries_) {
    if (entry.library) {
      out.push_back(entry.library.get());
    }
  }
  return out;
}

util::Status Registry::add(Registry other) {
  report::Refusals refusals;
  for (const auto& [action, at] : other.by_action_) {
    if (auto mine = by_action_.find(action); mine != by_action_.end()) {
      refusals.push_back(
          {"plugin-duplicate-action",
           fmt::format("'{}' and '{}' both claim action '{}'", other.entries_[at.first].path,
                       entries_[mine->second.first].path, action),
           util::SourceLocation{other.entries_[at.first].path, 0, 0}});
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  const std::size_t base = entries_.size();
  for (auto& [action, at] : other.by_action_) {
    by_action_.emplace(action, std::make_pair(base + at.first, at.second));
  }
  for (auto& entry : other.entries_) {
    entries_.push_back(std::move(entry));
  }
  return util::ok_status();
}

PluginIndex Registry::as_index() const {
  PluginIndex index;
  for (const auto& entry : entries_) {
    index[std::filesystem::path(entry.path).filename().string()] = {entry.sha256, entry.claims};
  }
  return index;
}

}  // namespace reviewer::plugins
