#include "core/deps/document_client.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <vector>

#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

// How long one document may take; a registry that stalls must not hold the resolution.
constexpr long kTimeoutSeconds = 120;
constexpr long kConnectSeconds = 30;

// What one transfer has written, and why it was stopped.
struct Transfer {
  int fd = -1;
  std::uint64_t written = 0;
  std::uint64_t max_bytes = 0;
  deps::DownloadMeter* meter = nullptr;
  enum class Stop { kNone, kFileBound, kReviewBound, kWrite } stop = Stop::kNone;
};

// libcurl's write callback: the bytes are counted against both bounds before any is written.
std::size_t write_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::size_t n = size * count;
  if (n > t.max_bytes - t.written) {
    t.stop = Transfer::Stop::kFileBound;
    return 0;
  }
  if (!t.meter->take(n)) {
    t.stop = Transfer::Stop::kReviewBound;
    return 0;
  }
  for (std::size_t done = 0; done < n;) {
    const ssize_t w = ::write(t.fd, data + done, n - done);
    if (w <= 0) {
      t.stop = Transfer::Stop::kWrite;
      return 0;
    }
    done += static_cast<std::size_t>(w);
  }
  t.written += n;
  return n;
}

util::Refusal failed(const std::string& what) {
  return util::refusal(util::RefusalKind::kHost, "dependency-fetch-failed", what);
}

class DocumentClient final : public deps::Downloader {
 public:
  DocumentClient(std::shared_ptr<deps::DownloadMeter> meter, const char* protocols)
      : meter_(std::move(meter)), protocols_(protocols) {
    static std::once_flag once;
    std::call_once(once, [] {
      // The host's libcrypto starts without its legacy digest table (util/crypto_init.h), and
      // certificate verification looks each signature's digest up there to weigh it: without
      // these every chain fails as "CA signature digest algorithm too weak".
      for (const EVP_MD* md :
           {EVP_sha1(), EVP_sha224(), EVP_sha256(), EVP_sha384(), EVP_sha512()}) {
        EVP_add_digest(md);
      }
      curl_global_init(CURL_GLOBAL_DEFAULT);
    });
  }
  ~DocumentClient() override {
    for (CURL* h : idle_) {
      curl_easy_cleanup(h);
    }
  }

  util::Status download(const std::vector<deps::Download>& items,
                        std::uint64_t max_bytes_each) override {
    for (const auto& item : items) {
      auto got = download_document(item, max_bytes_each);
      if (!got) {
        return got.refusals();
      }
      if (!*got) {
        return failed("the registry has no " + item.url + " (404)");
      }
    }
    return util::ok_status();
  }

  util::Result<bool> download_document(const deps::Download& item,
                                       std::uint64_t max_bytes) override {
    util::UniqueFd out(
        ::open(item.file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!out.valid()) {
      return util::refusal(util::RefusalKind::kHost, "dependency-store",
                           "cannot write " + item.file);
    }
    Transfer t{out.get(), 0, max_bytes, meter_.get()};
    CURL* h = take_handle();
    curl_slist* headers = nullptr;
    if (!item.accept.empty()) {
      headers = curl_slist_append(headers, ("Accept: " + item.accept).c_str());
    }
    curl_easy_setopt(h, CURLOPT_URL, item.url.c_str());
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
    char error[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
    const CURLcode rc = curl_easy_perform(h);
    long code = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, nullptr);
    curl_slist_free_all(headers);
    give_back(h);
    out.reset();
    const bool ok = rc == CURLE_OK && code == 200;
    if (!ok) {
      ::unlink(item.file.c_str());
    }
    switch (t.stop) {
      case Transfer::Stop::kReviewBound:
        return meter_->refusal(item.url);
      case Transfer::Stop::kFileBound:
        return util::refusal(util::RefusalKind::kBound, "dependency-too-large",
                             item.url + " is over the " + std::to_string(max_bytes) +
                                 "-byte bound on one registry document; the transfer was "
                                 "stopped and its file removed");
      case Transfer::Stop::kWrite:
        return util::refusal(util::RefusalKind::kHost, "dependency-store",
                             "cannot write " + item.file);
      case Transfer::Stop::kNone:
        break;
    }
    if (rc != CURLE_OK) {
      return failed("fetching " + item.url + ": " +
                    (error[0] != 0 ? error : curl_easy_strerror(rc)));
    }
    if (code == 404) {
      return false;
    }
    if (code != 200) {
      return failed("the registry answered HTTP " + std::to_string(code) + " for " + item.url);
    }
    return true;
  }

 private:
  // A handle keeps its connections open for the next request it makes; the pool holds as many
  // as were ever in use at once.
  CURL* take_handle() {
    {
      std::lock_guard lock(m_);
      if (!idle_.empty()) {
        CURL* h = idle_.back();
        idle_.pop_back();
        return h;
      }
    }
    CURL* h = curl_easy_init();
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, protocols_);
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, protocols_);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROXY, "");  // never the environment's proxy
    curl_easy_setopt(h, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_IGNORED));
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, kTimeoutSeconds);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, kConnectSeconds);
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // what the registry compresses
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_body);
    return h;
  }

  void give_back(CURL* h) {
    std::lock_guard lock(m_);
    idle_.push_back(h);
  }

  std::shared_ptr<deps::DownloadMeter> meter_;
  const char* protocols_;
  std::mutex m_;
  std::vector<CURL*> idle_;
};

}  // namespace

std::unique_ptr<deps::Downloader> make_document_client(std::shared_ptr<deps::DownloadMeter> meter) {
  return std::make_unique<DocumentClient>(std::move(meter), "https");
}

std::unique_ptr<deps::Downloader> make_document_client_for_test(
    std::shared_ptr<deps::DownloadMeter> meter) {
  return std::make_unique<DocumentClient>(std::move(meter), "http,https");
}

}  // namespace reviewer::deps
