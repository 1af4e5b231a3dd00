// The resolution's document client against a server of the test's own on 127.0.0.1: it keeps
// one connection for many documents (what makes a resolution as fast as npm's own), sends the
// Accept it is given, tells a missing document from a failure, and writes nothing past a
// document's bound or the review's.
#include "core/deps/document_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/unit/deps/local_http_server.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// "/size/N" answers N bytes with a Content-Length, "/chunked/N" N bytes without one, "/500" a
// server error, anything else a 404.
test_support::HttpAnswer answer(const std::string& path) {
  if (auto sized = test_support::sized_answer(path)) {
    return *sized;
  }
  return {path == "/500" ? 500 : 404, 9, false, 'n'};
}

class DocumentClientTest : public ::testing::Test {
 protected:
  deps::Download item(const std::string& path, const std::string& accept = "") {
    return {server_.url() + path.substr(1), dir_ / ("doc" + std::to_string(n_++)), accept};
  }

  test_support::TempDir dir_;
  test_support::LocalHttpServer server_{answer, /*keep_alive=*/true};
  std::shared_ptr<deps::DownloadMeter> meter_ = std::make_shared<deps::DownloadMeter>(1 << 20);
  std::unique_ptr<deps::Downloader> client_ = make_document_client_for_test(meter_);
  int n_ = 0;
};

TEST_F(DocumentClientTest, ManyDocumentsTakeOneConnection) {
  for (int i = 0; i < 20; ++i) {
    auto d = item("/size/1000", "application/json");
    auto got = client_->download_document(d, 4096);
    ASSERT_TRUE(got) << got.error().to_string();
    EXPECT_TRUE(*got);
    EXPECT_EQ(fs::file_size(d.file), 1000u);
  }
  EXPECT_EQ(server_.hits("/size/1000"), 20);
  EXPECT_EQ(server_.connections(), 1);
  EXPECT_EQ(server_.last_accept(), "application/json");
}

TEST_F(DocumentClientTest, AMissingDocumentIsFalseAndAnErrorIsAFailure) {
  auto missing = item("/nothing");
  auto got = client_->download_document(missing, 4096);
  ASSERT_TRUE(got);
  EXPECT_FALSE(*got);
  EXPECT_FALSE(fs::exists(missing.file));
  auto broken = client_->download_document(item("/500"), 4096);
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().rule, "dependency-fetch-failed");
  EXPECT_THAT(broken.error().message, HasSubstr("HTTP 500"));
}

TEST_F(DocumentClientTest, NothingPastADocumentsBoundIsWritten) {
  for (const char* path : {"/size/100000", "/chunked/100000"}) {
    auto d = item(path);
    auto got = client_->download_document(d, 50000);
    ASSERT_FALSE(got) << path;
    EXPECT_EQ(got.error().rule, "dependency-too-large");
    EXPECT_THAT(got.error().message, HasSubstr("50000-byte bound on one registry document"));
    EXPECT_FALSE(fs::exists(d.file)) << path;
  }
}

TEST_F(DocumentClientTest, TheReviewsBoundHoldsAcrossDocuments) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(client_->download_document(item("/chunked/300000"), 1 << 20));
  }
  auto d = item("/chunked/300000");
  auto over = client_->download_document(d, 1 << 20);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().rule, "dependency-too-large");
  EXPECT_THAT(over.error().message, HasSubstr("--max-dependency-bytes"));
  EXPECT_FALSE(fs::exists(d.file));
  EXPECT_LE(meter_->written(), meter_->bound());
}

// The production client speaks https only: a registry URL of plain http is never fetched.
TEST_F(DocumentClientTest, TheProductionClientRefusesPlainHttp) {
  auto client = make_document_client(meter_);
  auto got = client->download_document(item("/size/10"), 4096);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().rule, "dependency-fetch-failed");
  EXPECT_EQ(server_.hits("/size/10"), 0);
}

}  // namespace
}  // namespace reviewer::deps
