#include "core/deps/integrity_conflict.h"

#include <algorithm>
#include <map>

#include "core/deps/integrity.h"

namespace reviewer::deps {

std::string tarball_identity(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (path == std::string::npos) {
    return url;
  }
  std::string out = url.substr(0, path);
  for (std::size_t at = path; at < url.size();) {
    const std::size_t end = std::min(url.find('/', at + 1), url.size());
    const std::string segment = url.substr(at + 1, end - at - 1);
    if (!segment.empty() && segment != ".") {
      out += "/" + segment;
    }
    at = end;
  }
  return out;
}

util::Status check_one_integrity_per_url(const FetchList& list) {
  std::map<std::string, const Pinned*> first;
  util::Refusals out;
  for (const auto& t : list.tarballs) {
    auto [it, fresh] = first.emplace(tarball_identity(t.url), &t);
    if (fresh || it->second->sha512 == t.sha512) {
      continue;
    }
    out.push_back(util::refusal(
        "dependency-integrity-conflict",
        t.what + " pins " + t.url + " with integrity " + integrity_of_hex(t.sha512) + ", but " +
            it->second->what + " pins the same tarball with " +
            integrity_of_hex(it->second->sha512) +
            "; a tarball has one integrity, and the review downloads it once; accepted: the "
            "integrity the registry publishes for it, in every entry that names it (regenerate "
            "the lock file)"));
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::deps
