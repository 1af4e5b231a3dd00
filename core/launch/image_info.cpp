#include "core/launch/image_info.h"

#include <fcntl.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/exec/capture.h"
#include "core/util/file_read.h"

namespace reviewer::launch {
namespace {

// What `npm --version` (or `corepack --version`) prints, without its ~120 ms of node start-up:
// the version in the package.json of the package `file` belongs to (the nearest one above it,
// the file npm and corepack themselves read for it). The bytes of `file` are the table's: the
// self-check hashes them.
util::Result<std::string> package_version(const std::string& file) {
  auto dir = std::filesystem::path(file).parent_path();
  std::filesystem::path package;
  for (int up = 0; up < 3 && !dir.empty(); ++up, dir = dir.parent_path()) {
    if (std::error_code ec; std::filesystem::is_regular_file(dir / "package.json", ec)) {
      package = dir / "package.json";
      break;
    }
  }
  if (package.empty()) {
    return util::refusal("runtime-mismatch", file + " is in no package with a package.json");
  }
  auto text = util::read_regular_file(AT_FDCWD, package.string(), {1 << 20});
  if (!text) {
    return text.refusals();
  }
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object() || !j.contains("version") || !j["version"].is_string()) {
    return util::refusal("runtime-mismatch", package.string() + " names no version");
  }
  return j["version"].get<std::string>();
}

// The runtimes that are JavaScript packages: their version is their package.json's.
bool is_package(const std::string& runtime) { return runtime == "npm" || runtime == "corepack"; }

}  // namespace

util::Result<ImageInfo> read_image_info(const std::string& file) {
  std::ifstream in(file);
  if (!in) {
    return util::refusal("image-info-missing", "cannot read '" + file + "'");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string() ||
      !j.contains("runtimes") || !j["runtimes"].is_object()) {
    return util::refusal("image-info-invalid", "'" + file + "' is not a valid image description");
  }
  ImageInfo info;
  info.name = j["name"].get<std::string>();
  for (const auto& [runtime, spec] : j["runtimes"].items()) {
    if (!spec.is_object() || !spec.contains("path") || !spec.contains("version") ||
        !spec["path"].is_string() || !spec["version"].is_string()) {
      return util::refusal("image-info-invalid", "runtime '" + runtime + "' in '" + file +
                                                     "' needs a string path and version");
    }
    info.runtimes[runtime] = {spec["path"].get<std::string>(), spec["version"].get<std::string>()};
  }
  if (j.contains("path") && j["path"].is_array()) {
    for (const auto& p : j["path"]) {
      if (p.is_string()) {
        info.path.push_back(p.get<std::string>());
      }
    }
  }
  return info;
}

namespace {

// The `--version` of each runtime that is not a package, started (or failed to start) in
// image.runtimes' order; packages are read, not run.
using Started = std::vector<util::Result<exec::StartedCapture>>;

// Every runtime is started at once, in the caller's thread: each answer is mostly the child's
// own start-up (node's and bun's several milliseconds each), which neither the others nor a
// thread's start need delay.
Started start_runtimes(const ImageInfo& image) {
  // The image's runtime directories come first: npm's entry point is a node script.
  std::string path;
  for (const auto& dir : image.path) {
    path += dir + ":";
  }
  path = "PATH=" + path + "/usr/bin:/bin";
  Started started;
  for (const auto& [runtime, bin] : image.runtimes) {
    if (!is_package(runtime)) {
      started.push_back(exec::start_capture({bin.path, "--version"}, {path}));
    }
  }
  return started;
}

// What a started `--version` printed, or why it could not start.
util::Result<std::string> answer(util::Result<exec::StartedCapture>& run) {
  return run ? run->finish() : util::Result<std::string>(run.refusals());
}

util::Status judge_runtimes(const ImageInfo& image, Started& started) {
  report::Refusals out;
  std::size_t next = 0;
  for (const auto& [runtime, bin] : image.runtimes) {
    const util::Result<std::string> printed =
        is_package(runtime) ? package_version(bin.path) : answer(started[next++]);
    std::string got = printed ? *printed : std::string();
    while (!got.empty() && (got.back() == '\n' || got.back() == '\r')) {
      got.pop_back();
    }
    if (got.starts_with("v")) {
      got.erase(0, 1);
    }
    if (!printed || got != bin.version) {
      out.push_back({"runtime-mismatch",
                     runtime + " at " + bin.path +
                         (is_package(runtime) ? " has version '" : " printed '") +
                         got.substr(0, 40) + "', the image declares " + bin.version,
                     std::nullopt});
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace

util::Status verify_runtimes(const ImageInfo& image) {
  Started started = start_runtimes(image);
  return judge_runtimes(image, started);
}

ImageInfo without_runtime(const ImageInfo& image, const std::string& name) {
  ImageInfo out = image;
  out.runtimes.erase(name);
  return out;
}

ImageInfo only_runtime(const ImageInfo& image, const std::string& name) {
  ImageInfo out = image;
  std::erase_if(out.runtimes, [&name](const auto& entry) { return entry.first != name; });
  return out;
}

PendingRuntimeCheck::PendingRuntimeCheck(const ImageInfo& image) { also(image); }

void PendingRuntimeCheck::also(const ImageInfo& more) {
  done_.reset();
  pending_.push_back(std::async(
      std::launch::async,
      [more, started = start_runtimes(more)]() mutable { return judge_runtimes(more, started); }));
}

const util::Status& PendingRuntimeCheck::wait() {
  if (!done_) {
    for (auto& answer : pending_) {
      if (auto status = answer.get(); !status) {
        const auto& found = status.refusals();
        mismatches_.insert(mismatches_.end(), found.begin(), found.end());
      }
    }
    pending_.clear();
    done_ = util::status_of(report::Refusals(mismatches_));
  }
  return *done_;
}

}  // namespace reviewer::launch
