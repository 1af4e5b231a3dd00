#include "core/contract/runtime_set_check.h"

#include "core/contract/runtime_layout.h"
#include "core/util/sha256.h"

namespace reviewer::contract {
namespace {

void check_file(const std::string& path, const std::string& what,
                const resolve::CatalogueRelease& release, util::Refusals& out) {
  auto got = util::sha256_file(path);
  if (!got) {
    out.push_back({"runtime-checksum",
                   what + " " + release.version + " at " + path +
                       " cannot be checked: " + got.error().message,
                   std::nullopt});
  } else if (*got != release.sha256) {
    out.push_back({"runtime-checksum",
                   what + " " + release.version + " at " + path + " has SHA-256 " + *got +
                       ", the runtime catalogue records " + release.sha256,
                   std::nullopt});
  }
}

}  // namespace

util::Status check_runtime_set(const std::string& root, const resolve::RuntimeSet& set) {
  util::Refusals out;
  if (set.node != nullptr) {
    check_file(root + "/" + kNodeBinary, "node", *set.node, out);
  }
  if (set.npm != nullptr) {
    check_file(root + "/" + kNpmPackage + "/" + set.npm->file, "npm", *set.npm, out);
  }
  if (set.corepack != nullptr) {
    check_file(root + "/" + kCorepackPackage + "/" + set.corepack->file, "corepack", *set.corepack,
               out);
  }
  if (set.bun != nullptr) {
    check_file(root + "/" + kBunBinary, "bun", *set.bun, out);
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::contract
