// What a step may ask of the loopback registry: only a package's metadata or one of its tarballs
// by a plain name, each mapped to one file under the view's registry directory; every other
// target, however it is escaped, is a 404. Heads are read as HTTP/1.1 frames them.
#include "core/deps/registry_request.h"

#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

TEST(RegistryFile, MapsMetadataAndTarballsToTheViewsFiles) {
  EXPECT_EQ(registry_file("/chalk"), "chalk/.packument");
  EXPECT_EQ(registry_file("/@types%2fnode"), "@types/node/.packument");
  EXPECT_EQ(registry_file("/@types%2Fnode"), "@types/node/.packument");
  EXPECT_EQ(registry_file("/%40types%2fnode"), "@types/node/.packument");
  EXPECT_EQ(registry_file("/@types/node"), "@types/node/.packument");
  EXPECT_EQ(registry_file("/chalk/-/chalk-4.1.2.tgz"), "chalk/-/chalk-4.1.2.tgz");
  EXPECT_EQ(registry_file("/@types/node/-/node-22.1.0.tgz"), "@types/node/-/node-22.1.0.tgz");
  EXPECT_EQ(registry_file("/@types%2fnode/-/node-22.1.0.tgz"), "@types/node/-/node-22.1.0.tgz");
  EXPECT_EQ(registry_file("/lodash.merge?write=true"), "lodash.merge/.packument");
  EXPECT_EQ(registry_file("/JSONStream"), "JSONStream/.packument");  // names from before lower case
}

TEST(RegistryFile, RefusesEverythingElse) {
  for (const char* target : {"",
                             "chalk",
                             "/",
                             "/..",
                             "/../etc/passwd",
                             "/chalk/../../etc/passwd",
                             "/%2e%2e/x",
                             "/chalk%2f..%2f..",
                             "/.packument",
                             "/chalk/.packument",
                             "/chalk/-/../../x.tgz",
                             "/chalk/-/.x.tgz",
                             "/chalk/-/chalk-4.1.2.tgz/x",
                             "/chalk/-/chalk-4.1.2.tar",
                             "/chalk/-/",
                             "/@scope",
                             "/@scope/",
                             "/@/x",
                             "/@scope/a/b",
                             "/a b",
                             "/chalk%00",
                             "/chalk%0a",
                             "/-/npm/v1/attestations/chalk@4.1.2",
                             "/-/v1/search?text=x",
                             "/@scope/.hidden",
                             "/x/-/a/b.tgz",
                             "//etc/passwd",
                             "/chalk\\..\\x"}) {
    EXPECT_EQ(registry_file(target), std::nullopt) << target;
  }
  EXPECT_EQ(registry_file("/" + std::string(215, 'a')), std::nullopt);
  EXPECT_TRUE(registry_file("/" + std::string(214, 'a')));
}

TEST(RequestHead, IsIncompleteUntilTheBlankLine) {
  EXPECT_EQ(parse_request_head("GET /chalk HTTP/1.1\r\nHost: x\r\n").state,
            HeadParse::State::kIncomplete);
  const std::string two = "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\n\r\n";
  const HeadParse first = parse_request_head(two);
  ASSERT_EQ(first.state, HeadParse::State::kComplete);
  EXPECT_EQ(first.request.method, "GET");
  EXPECT_EQ(first.request.target, "/a");
  EXPECT_TRUE(first.request.keep_alive);
  EXPECT_EQ(first.length, two.find("GET /b"));
}

TEST(RequestHead, KeepsAliveAsTheVersionAndConnectionSay) {
  auto alive = [](const std::string& head) {
    const HeadParse p = parse_request_head(head);
    EXPECT_EQ(p.state, HeadParse::State::kComplete) << head;
    return p.request.keep_alive;
  };
  EXPECT_TRUE(alive("GET / HTTP/1.1\r\n\r\n"));
  EXPECT_FALSE(alive("GET / HTTP/1.1\r\nConnection: close\r\n\r\n"));
  EXPECT_FALSE(alive("GET / HTTP/1.1\r\nconnection:CLOSE\r\n\r\n"));
  EXPECT_FALSE(alive("GET / HTTP/1.0\r\n\r\n"));
  EXPECT_TRUE(alive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  EXPECT_TRUE(alive("HEAD / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
}

TEST(RequestHead, RefusesWhatNoRegistryClientSends) {
  for (const char* head :
       {"GET /chalk\r\n\r\n", "GET  HTTP/1.1\r\n\r\n", "get /chalk HTTP/1.1\r\n\r\n",
        "GET /chalk HTTP/2\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n", "\r\n\r\n",
        "GET /chalk HTTP/1.1\r\nNoColon\r\n\r\n", "GET /chalk HTTP/1.1\r\n: x\r\n\r\n",
        "GET /chalk HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        "GET /chalk HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
        "GET /chalk HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"}) {
    EXPECT_EQ(parse_request_head(head).state, HeadParse::State::kMalformed) << head;
  }
}

}  // namespace
}  // namespace reviewer::deps
