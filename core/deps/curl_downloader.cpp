#include "core/deps/curl_downloader.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <vector>

#include "core/deps/metered_curl.h"

namespace reviewer::deps {
namespace {

// curl's exit code for a transfer whose Content-Length is over --max-filesize.
constexpr int kCurlFileTooLarge = 63;
// Transfers of one curl run: the host holds a FIFO open for each.
constexpr std::size_t kTransfersPerRun = 128;

// What every download of the host asks of curl: no ~/.curlrc (-q), https only, no progress, a
// size bound (it refuses a declared size at once; the host counts what is not declared), two
// retries, and time bounds. A retry after part of a body fails, as curl cannot truncate a FIFO,
// so no body is ever written twice into one file.
std::vector<std::string> curl_command(std::uint64_t max_bytes, int max_seconds,
                                      const std::string& protocols) {
  return {"curl",
          "-q",
          "--silent",
          "--show-error",
          "--no-progress-meter",
          "--proto",
          protocols,
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

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

constexpr const char* kStopped = "; the transfers under way were stopped and their files removed";

class CurlDownloader final : public deps::Downloader {
 public:
  CurlDownloader(std::string protocols, std::shared_ptr<deps::DownloadMeter> meter)
      : protocols_(std::move(protocols)), meter_(std::move(meter)) {}

  util::Status download(const std::vector<deps::Download>& items,
                        std::uint64_t max_bytes_each) override {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(30);
    for (std::size_t at = 0; at < items.size(); at += kTransfersPerRun) {
      const std::vector<deps::Download> run(
          items.begin() + static_cast<std::ptrdiff_t>(at),
          items.begin() +
              static_cast<std::ptrdiff_t>(std::min(at + kTransfersPerRun, items.size())));
      auto got = download_run(run, max_bytes_each, deadline);
      if (!got && got.error().kind == util::RefusalKind::kBound) {
        // What earlier runs of the call wrote goes too: the call's files are all or nothing.
        for (const auto& item : items) {
          ::unlink(item.file.c_str());
        }
      }
      if (!got) {
        return got;
      }
    }
    return util::ok_status();
  }

  util::Result<bool> download_document(const deps::Download& item,
                                       std::uint64_t max_bytes) override {
    // Without --fail, so a 404 (a version the registry does not have) is told apart from a
    // failure: curl writes the status line's code on stdout, the body to the file.
    const std::string status_file = item.file + ".status";
    std::vector<std::string> argv = curl_command(max_bytes, 110, protocols_);
    argv.insert(argv.end(), {"--write-out", "%{http_code}"});
    if (!item.accept.empty()) {
      argv.insert(argv.end(), {"--header", "Accept: " + item.accept});
    }
    auto ran = run_metered_curl(argv, {item}, item.file + ".config", status_file, max_bytes,
                                *meter_, std::chrono::minutes(2));
    if (!ran) {
      return ran.refusals();
    }
    if (ran->stop == CurlRun::Stop::kReviewBound) {
      return meter_->refusal(item.url);
    }
    if (ran->stop == CurlRun::Stop::kFileBound || ran->status == kCurlFileTooLarge) {
      return util::refusal(util::RefusalKind::kBound, "dependency-too-large",
                           item.url + " is over the " + std::to_string(max_bytes) +
                               "-byte bound on one registry document" + kStopped);
    }
    std::ifstream in(status_file);
    std::string code;
    std::getline(in, code);
    if (ran->status != 0 || ran->timed_out) {
      return util::refusal(
          util::RefusalKind::kHost, "dependency-fetch-failed",
          "curl " +
              std::string(ran->timed_out ? "ran past 2 minutes"
                                         : "exited " + std::to_string(ran->status)) +
              " fetching " + item.url);
    }
    if (code == "404") {
      return false;
    }
    if (code != "200") {
      return util::refusal(util::RefusalKind::kHost, "dependency-fetch-failed",
                           "the registry answered HTTP " + code + " for " + item.url);
    }
    return true;
  }

 private:
  // One curl run over at most kTransfersPerRun items.
  util::Status download_run(const std::vector<deps::Download>& items, std::uint64_t max_bytes_each,
                            std::chrono::steady_clock::time_point deadline) {
    const std::string dir = items.front().file.substr(0, items.front().file.rfind('/'));
    // One "CODE URL" line per transfer, so a refused one is named with the registry's answer.
    const std::string statuses = dir + "/curl.status";
    std::vector<std::string> argv = curl_command(max_bytes_each, 900, protocols_);
    if (!items.front().accept.empty()) {
      argv.insert(argv.end(), {"--header", "Accept: " + items.front().accept});
    }
    argv.insert(argv.end(), {"--write-out", "%{http_code} %{url}\\n", "--parallel",
                             "--parallel-max", "8", "--fail"});
    const auto left = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   deadline - std::chrono::steady_clock::now()),
                               std::chrono::milliseconds(1));
    auto ran = run_metered_curl(argv, items, dir + "/curl.config", statuses, max_bytes_each,
                                *meter_, left);
    if (!ran) {
      return ran.refusals();
    }
    if (ran->stop == CurlRun::Stop::kReviewBound) {
      return meter_->refusal(ran->stopped_url);
    }
    if (ran->stop == CurlRun::Stop::kFileBound) {
      return util::refusal(util::RefusalKind::kBound, "dependency-too-large",
                           ran->stopped_url + " is over the " + std::to_string(max_bytes_each) +
                               " bytes left of the bound (--max-dependency-bytes)" + kStopped);
    }
    if (ran->status == kCurlFileTooLarge) {
      return util::refusal(util::RefusalKind::kBound, "dependency-too-large",
                           "a tarball the lock file pins is over the " +
                               std::to_string(max_bytes_each) +
                               " bytes left of the bound (--max-dependency-bytes)");
    }
    if (ran->status != 0 || ran->timed_out) {
      // --fail opens no output for a transfer the server refused: those are the ones to name
      // (curl goes on with the others of a --parallel batch).
      const std::map<std::string, std::string> codes = http_codes(statuses);
      std::vector<std::string> failed;
      for (const auto& item : items) {
        if (!exists(item.file)) {
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
          util::RefusalKind::kHost, "dependency-fetch-failed",
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
        return util::refusal(util::RefusalKind::kHost, "dependency-fetch-failed",
                             "curl wrote nothing for " + item.url);
      }
    }
    return util::ok_status();
  }

  std::string protocols_;
  std::shared_ptr<deps::DownloadMeter> meter_;
};

// A downloader's own meter where it is given none: only each call's bound applies.
std::shared_ptr<deps::DownloadMeter> or_unbounded(std::shared_ptr<deps::DownloadMeter> meter) {
  return meter ? std::move(meter)
               : std::make_shared<deps::DownloadMeter>(std::numeric_limits<std::uint64_t>::max());
}

}  // namespace

std::unique_ptr<deps::Downloader> make_curl_downloader(std::shared_ptr<deps::DownloadMeter> meter) {
  return std::make_unique<CurlDownloader>("=https", or_unbounded(std::move(meter)));
}

std::unique_ptr<deps::Downloader> make_curl_downloader_for_test(
    std::shared_ptr<deps::DownloadMeter> meter) {
  return std::make_unique<CurlDownloader>("=http,https", or_unbounded(std::move(meter)));
}

}  // namespace reviewer::deps
