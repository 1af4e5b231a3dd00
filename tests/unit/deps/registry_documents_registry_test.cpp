// The registry's metadata for pnpm 11 from the real npm registry through the host's curl, whole:
// the documents of a scoped and a plain package, each the package's own with the locked version and
// its publish time, then a second fetch that asks nothing. Skipped, saying why, where the registry
// cannot be reached.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/deps/curl_downloader.h"
#include "core/deps/registry_documents.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

TEST(RegistryDocumentsRegistry, FetchesRealDocumentsWithPublishTimesThenHitsTheStore) {
  if (std::system("curl -q -sSfI --max-time 20 -o /dev/null https://registry.npmjs.org/ms") != 0) {
    GTEST_SKIP() << "the npm registry (https://registry.npmjs.org/) cannot be reached with curl "
                    "from this host";
  }
  test_support::TempDir dir;
  auto store = Store::open(dir / "store");
  ASSERT_TRUE(store);
  auto downloader = deps::make_curl_downloader();
  const std::map<std::string, std::set<std::string>> packages = {{"ms", {"2.1.3"}},
                                                                 {"@types/ms", {"2.1.0"}}};
  auto cold = fetch_registry_documents(packages, *store, *downloader, {});
  ASSERT_TRUE(cold) << cold.error().to_string();
  ASSERT_EQ(cold->documents.size(), 2u);
  for (const auto& d : cold->documents) {
    EXPECT_FALSE(d.hit);
    std::ifstream in(store->root() + "/" + Store::relative_path(d.sha512), std::ios::binary);
    const auto doc = nlohmann::json::parse(in);
    EXPECT_EQ(doc.at("name"), d.name);
    const std::string version = *packages.at(d.name).begin();
    EXPECT_TRUE(doc.at("versions").contains(version)) << d.name;
    // What pnpm 11's minimumReleaseAge reads.
    EXPECT_TRUE(doc.at("time").contains(version)) << d.name;
  }
  auto warm = fetch_registry_documents(packages, *store, *downloader, {});
  ASSERT_TRUE(warm) << warm.error().to_string();
  EXPECT_TRUE(warm->documents[0].hit && warm->documents[1].hit);
}

}  // namespace
}  // namespace reviewer::deps
