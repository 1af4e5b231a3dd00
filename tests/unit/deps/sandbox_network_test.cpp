// The host's socket in a sandbox's network namespace: reachable from inside that namespace and
// from nowhere else. Needs root (CAP_SYS_ADMIN), as the host that makes sandboxes; skipped
// without it.
#include "core/deps/sandbox_network.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace reviewer::deps {
namespace {

// Whether a connection to 127.0.0.1:`port` made in the namespace `network` (-1: this one)
// reaches `listener`.
bool reaches(int network, int port, int listener) {
  bool connected = false;
  std::thread([&] {
    if (network >= 0 && ::setns(network, CLONE_NEWNET) != 0) {
      return;
    }
    util::UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    connected = ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  }).join();
  pollfd p{listener, POLLIN, 0};
  const bool queued = ::poll(&p, 1, 200) == 1;
  if (queued) {
    util::UniqueFd taken(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
  }
  return connected && queued;
}

// The interfaces of the namespace `network`, as /proc/net/dev lists them there.
std::string interfaces(int network) {
  std::string out;
  std::thread([&] {
    if (::setns(network, CLONE_NEWNET) != 0) {
      return;
    }
    std::ifstream dev("/proc/thread-self/net/dev");
    std::string line;
    while (std::getline(dev, line)) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::istringstream name(line.substr(0, colon));
        std::string n;
        name >> n;
        out += n + " ";
      }
    }
  }).join();
  return out;
}

class SandboxNetwork : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "making network namespaces needs root";
    }
  }
};

TEST_F(SandboxNetwork, TheListenerIsReachableInItsNamespaceAndNowhereElse) {
  auto network = make_loopback_network();
  ASSERT_TRUE(network) << network.error().to_string();
  EXPECT_EQ(interfaces(network->get()), "lo ");
  auto listener = listen_in_network(network->get());
  ASSERT_TRUE(listener) << listener.error().to_string();
  const int port = listening_port(listener->get());
  ASSERT_GT(port, 0);
  EXPECT_TRUE(reaches(network->get(), port, listener->get()));
  EXPECT_FALSE(reaches(-1, port, listener->get()));  // the host's loopback has no such listener
  // And this process's threads never moved: a listener made here is the host's.
  auto own = listen_on_loopback();
  ASSERT_TRUE(own);
  EXPECT_TRUE(reaches(-1, listening_port(own->get()), own->get()));
  EXPECT_FALSE(reaches(network->get(), listening_port(own->get()), own->get()));
}

// A process in the host's own namespace is no sandbox: a listener there would be the host's.
TEST_F(SandboxNetwork, TheHostsOwnNamespaceIsRefused) {
  auto own = network_namespace_of(::getpid());
  ASSERT_FALSE(own);
  EXPECT_EQ(own.error().rule, "resolution-network");
  auto gone = network_namespace_of(0x7ffffff0);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().rule, "resolution-network");
}

}  // namespace
}  // namespace reviewer::deps
