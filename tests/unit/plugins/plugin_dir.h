// Test support for the plugin host's tests: a temporary plugin directory holding copies of
// tests/abi's deliberately broken plugins, with a manifest; the canary marker file the `good`
// plugin's static constructor writes; and the rule ids of a registry's refusals.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/plugins/registry.h"
#include "core/util/sha256.h"

namespace reviewer::plugins {

namespace fs = std::filesystem;

class PluginDir {
 public:
  PluginDir() {
    std::string tmpl = (fs::temp_directory_path() / "reviewer-plugins-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    ::chmod(dir_.c_str(), 0755);
  }
  ~PluginDir() { fs::remove_all(dir_); }
  // Copies tests/abi's `name`.so in as `as`.so (default: same name) and lists it.
  std::string add(const std::string& name, std::string as = "") {
    if (as.empty()) {
      as = name;
    }
    std::string to = dir_ + "/" + as + ".so";
    fs::copy_file(std::string(REVIEWER_ABI_TEST_DIR) + "/" + name + ".so", to);
    ::chmod(to.c_str(), 0644);
    listed_.push_back(as + ".so");
    return to;
  }
  void write_manifest(const std::string& extra = "") {
    std::ofstream out(dir_ + "/MANIFEST.sha256");
    for (const auto& f : listed_) {
      out << *util::sha256_file(dir_ + "/" + f) << "  " << f << "\n";
    }
    out << extra;
    out.close();
    ::chmod((dir_ + "/MANIFEST.sha256").c_str(), 0644);
  }
  const std::string& path() const { return dir_; }

 private:
  std::string dir_;
  std::vector<std::string> listed_;
};

class Marker {
 public:
  Marker() : path_(fs::temp_directory_path() / ("reviewer-marker-" + std::to_string(::getpid()))) {
    fs::remove(path_);
    ::setenv("REVIEWER_TEST_MARKER", path_.c_str(), 1);
  }
  ~Marker() {
    ::unsetenv("REVIEWER_TEST_MARKER");
    fs::remove(path_);
  }
  bool exists() const { return fs::exists(path_); }

 private:
  fs::path path_;
};

inline std::vector<std::string> rules(const util::Result<Registry>& l) {
  std::vector<std::string> out;
  for (const auto& r : l ? report::Refusals{} : l.refusals()) {
    out.push_back(r.rule);
  }
  return out;
}

}  // namespace reviewer::plugins
