#include "core/host/user_namespace.h"

#include <ftw.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include <nlohmann/json.hpp>

namespace reviewer::host {
namespace {

util::Refusal bad_mapping(const std::string& why) {
  return util::Refusal{"host-command", "the engine's user namespace mapping " + why, std::nullopt};
}

// The host id of `inside` under the ranges of `list` ("INSIDE:HOST:COUNT" strings).
std::optional<unsigned long> host_id(const nlohmann::json& list, unsigned long inside) {
  if (!list.is_array()) {
    return std::nullopt;
  }
  for (const auto& range : list) {
    if (!range.is_string()) {
      return std::nullopt;
    }
    unsigned long from = 0, to = 0, count = 0;
    char tail = 0;
    if (std::sscanf(range.get<std::string>().c_str(), "%lu:%lu:%lu%c", &from, &to, &count, &tail) !=
        3) {
      return std::nullopt;
    }
    if (inside >= from && inside - from < count) {
      return to + (inside - from);
    }
  }
  return std::nullopt;
}

// nftw's callback has no context argument.
thread_local HostIds g_ids;
thread_local std::string g_failed;

int give(const char* path, const struct stat*, int, FTW*) {
  if (::lchown(path, g_ids.uid, g_ids.gid) != 0) {
    g_failed = std::string(path) + ": " + std::strerror(errno);
    return 1;
  }
  return 0;
}

}  // namespace

util::Result<HostIds> mapped_host_ids(const std::string& inspect_json, uid_t inside) {
  const auto doc = nlohmann::json::parse(inspect_json, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("UidMap") || !doc.contains("GidMap")) {
    return bad_mapping("is not a UidMap and GidMap: " + inspect_json.substr(0, 200));
  }
  const auto uid = host_id(doc["UidMap"], inside);
  const auto gid = host_id(doc["GidMap"], inside);
  if (!uid || !gid) {
    return bad_mapping("maps no host id to " + std::to_string(inside) + ": " +
                       inspect_json.substr(0, 200));
  }
  // A mapping onto the host's own accounts would be no namespace of the review's own.
  if (*uid < kUserNamespaceSize || *gid < kUserNamespaceSize) {
    return bad_mapping("maps " + std::to_string(inside) + " to host id " + std::to_string(*uid) +
                       ", a host account's");
  }
  return HostIds{static_cast<uid_t>(*uid), static_cast<gid_t>(*gid)};
}

util::Status give_tree_to(const std::string& root, HostIds ids) {
  g_ids = ids;
  g_failed.clear();
  if (::nftw(root.c_str(), give, 64, FTW_PHYS) != 0) {
    return util::Refusal{"host-command",
                         "cannot give the clone to the sandbox's user: " +
                             (g_failed.empty() ? root + ": " + std::strerror(errno) : g_failed),
                         std::nullopt};
  }
  return util::ok_status();
}

}  // namespace reviewer::host
