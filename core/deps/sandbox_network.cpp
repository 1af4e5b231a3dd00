#include "core/deps/sandbox_network.h"

#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

namespace reviewer::deps {
namespace {

util::Refusal failed(const std::string& what) {
  return util::Refusal{"resolution-network", what + ": " + std::strerror(errno), std::nullopt};
}

// Runs `work` on a thread of its own, which may change its network namespace: the namespace a
// thread is in is its own, and the thread ends with the work, so no other thread of the host
// ever runs in the sandbox's namespace.
template <typename T>
T on_own_thread(const std::function<T()>& work) {
  std::optional<T> out;
  std::thread([&] { out.emplace(work()); }).join();
  return std::move(*out);
}

bool same_file(int a, int b) {
  struct stat sa {};
  struct stat sb {};
  return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace

util::Result<util::UniqueFd> network_namespace_of(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/ns/net";
  util::UniqueFd ns(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!ns.valid()) {
    return failed("cannot open the sandbox's network namespace " + path);
  }
  util::UniqueFd own(::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC));
  if (!own.valid() || same_file(ns.get(), own.get())) {
    errno = EEXIST;
    return failed("the sandbox (pid " + std::to_string(pid) +
                  ") is in the host's own network namespace");
  }
  return ns;
}

util::Result<util::UniqueFd> make_loopback_network() {
  return on_own_thread<util::Result<util::UniqueFd>>([]() -> util::Result<util::UniqueFd> {
    if (::unshare(CLONE_NEWNET) != 0) {
      return failed("cannot make a network namespace");
    }
    util::UniqueFd sock(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    ifreq lo{};
    std::strncpy(lo.ifr_name, "lo", IFNAMSIZ - 1);
    if (!sock.valid() || ::ioctl(sock.get(), SIOCGIFFLAGS, &lo) != 0) {
      return failed("cannot read the new namespace's loopback");
    }
    lo.ifr_flags = static_cast<short>(lo.ifr_flags | IFF_UP);
    if (::ioctl(sock.get(), SIOCSIFFLAGS, &lo) != 0) {
      return failed("cannot bring up the new namespace's loopback");
    }
    util::UniqueFd ns(::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC));
    if (!ns.valid()) {
      return failed("cannot open the new network namespace");
    }
    return ns;
  });
}

util::Result<util::UniqueFd> listen_on_loopback() {
  util::UniqueFd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!sock.valid()) {
    return failed("cannot make a socket");
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(sock.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(sock.get(), 64) != 0) {
    return failed("cannot listen on 127.0.0.1");
  }
  return sock;
}

util::Result<util::UniqueFd> listen_in_network(int network) {
  return on_own_thread<util::Result<util::UniqueFd>>([network]() -> util::Result<util::UniqueFd> {
    if (::setns(network, CLONE_NEWNET) != 0) {
      return failed("cannot enter the sandbox's network namespace");
    }
    return listen_on_loopback();
  });
}

util::Result<std::string> serve_in_network(
    int network, const std::function<util::Result<std::string>(util::UniqueFd)>& serve) {
  auto listener = listen_in_network(network);
  if (!listener) {
    return listener.error();
  }
  return serve(std::move(*listener));
}

int listening_port(int listener) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
      addr.sin_family != AF_INET) {
    return 0;
  }
  return ntohs(addr.sin_port);
}

}  // namespace reviewer::deps
