#include "core/host/curl_downloader.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <vector>

#include "core/host/host_process.h"

namespace reviewer::host {
namespace {

// curl's exit code for a transfer over --max-filesize.
constexpr int kCurlFileTooLarge = 63;

// What every download of the host asks of curl: no ~/.curlrc (-q), https only, no progress, a
// size bound, two retries, and time bounds.
std::vector<std::string> curl_command(std::uint64_t max_bytes, int max_seconds) {
  return {"curl",
          "-q",
          "--silent",
          "--show-error",
          "--no-progress-meter",
          "--proto",
          "=https",
          "--max-filesize",
          std::to_string(max_bytes),
          "--retry",
          "2",
          "--connect-timeout",
          "30",
          "--max-time",
          std::to_string(max_seconds)};
}

// url -> HTTP code from curl's --write-out lines; "000" where no answer came.
std::map<std::string, std::string> http_codes(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    if (space != std::string::npos) {
      out[line.substr(space + 1)] = line.substr(0, space);
    }
  }
  return out;
}

class CurlDownloader final : public fetch::Downloader {
 public:
  util::Status download(const std::vector<fetch::Download>& items,
                        std::uint64_t max_bytes_each) override {
    if (items.empty()) {
      return util::ok_status();
    }
    // URLs and file names go through a config file: thousands of them would not fit argv, and
    // both were checked to hold no quote or space.
    const std::string dir = items.front().file.substr(0, items.front().file.rfind('/'));
    const std::string config = dir + "/curl.config";
    {
      std::ofstream out(config, std::ios::trunc);
      for (const auto& item : items) {
        out << "url = \"" << item.url << "\"\noutput = \"" << item.file << "\"\n";
      }
      if (!out) {
        return util::refusal("dependency-fetch-failed", "cannot write " + config);
      }
    }
    CommandOptions options;
    options.limit = std::chrono::minutes(30);
    // One "CODE URL" line per transfer, so a refused one is named with the registry's answer.
    const std::string statuses = dir + "/curl.status";
    options.stdout_file = statuses;
    std::vector<std::string> argv = curl_command(max_bytes_each, 900);
    if (!items.front().accept.empty()) {
      argv.insert(argv.end(), {"--header", "Accept: " + items.front().accept});
    }
    argv.insert(argv.end(), {"--write-out", "%{http_code} %{url}\\n", "--config", config,
                             "--parallel", "--parallel-max", "8", "--fail"});
    auto ran = run_command(argv, options);
    if (!ran) {
      return ran.refusals();
    }
    if (ran->status == kCurlFileTooLarge) {
      return util::refusal("dependency-too-large",
                           "a tarball the lock file pins is over the " +
                               std::to_string(max_bytes_each) +
                               " bytes left of the bound (--max-dependency-bytes)");
    }
    if (ran->status != 0 || ran->timed_out) {
      // --fail writes no file for a transfer the server refused: those are the ones to name
      // (curl goes on with the others of a --parallel batch).
      const std::map<std::string, std::string> codes = http_codes(statuses);
      std::vector<std::string> failed;
      for (const auto& item : items) {
        struct stat st {};
        if (::lstat(item.file.c_str(), &st) != 0) {
          const auto code = codes.find(item.url);
          failed.push_back(item.url + (code == codes.end() || code->second == "000"
                                           ? std::string()
                                           : " (HTTP " + code->second + ")"));
        }
      }
      std::string which =
          failed.empty() ? "the first: " + items.front().url
                         : std::to_string(failed.size()) + " not downloaded: " + failed.front();
      for (std::size_t i = 1; i < failed.size() && i < 3; ++i) {
        which += ", " + failed[i];
      }
      const bool not_found =
          !failed.empty() && std::all_of(failed.begin(), failed.end(), [](const std::string& f) {
            return f.ends_with("(HTTP 404)");
          });
      return util::refusal(
          "dependency-fetch-failed",
          "curl " +
              std::string(ran->timed_out ? "ran past 30 minutes"
                                         : "exited " + std::to_string(ran->status)) +
              " fetching " + std::to_string(items.size()) + " tarballs; " + which +
              (not_found ? "; the registry does not have those versions (unpublished, or the "
                           "lock file was written against another registry)"
                         : ""));
    }
    for (const auto& item : items) {
      struct stat st {};
      if (::lstat(item.file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        return util::refusal("dependency-fetch-failed", "curl wrote nothing for " + item.url);
      }
    }
    return util::ok_status();
  }

  util::Result<bool> download_document(const fetch::Download& item,
                                       std::uint64_t max_bytes) override {
    // Without --fail, so a 404 (a version the registry does not have) is told apart from a
    // failure: curl writes the status line's code on stdout, the body to the file.
    CommandOptions options;
    options.limit = std::chrono::minutes(2);
    const std::string status_file = item.file + ".status";
    options.stdout_file = status_file;
    std::vector<std::string> argv = curl_command(max_bytes, 110);
    argv.insert(argv.end(), {"--output", item.file, "--write-out", "%{http_code}", item.url});
    auto ran = run_command(argv, options);
    if (!ran) {
      return ran.refusals();
    }
    std::ifstream in(status_file);
    std::string code;
    std::getline(in, code);
    if (ran->status != 0 || ran->timed_out) {
      return util::refusal(
          "dependency-fetch-failed",
          "curl " +
              std::string(ran->timed_out ? "ran past 2 minutes"
                                         : "exited " + std::to_string(ran->status)) +
              " fetching " + item.url);
    }
    if (code == "404") {
      return false;
    }
    if (code != "200") {
      return util::refusal("dependency-fetch-failed",
                           "the registry answered HTTP " + code + " for " + item.url);
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<fetch::Downloader> make_curl_downloader() {
  return std::make_unique<CurlDownloader>();
}

}  // namespace reviewer::host
