#pragma once

#include <grp.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/credentials/credential_scan.h"
#include "core/report/refusal.h"
#include "core/report/render.h"

namespace reviewer::credentials::credtest {

inline constexpr std::string_view kAlnum =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
inline constexpr std::string_view kLowerAlnum = "0123456789abcdefghijklmnopqrstuvwxyz";
inline constexpr std::string_view kWordDash =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";
inline constexpr std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
inline constexpr std::string_view kUpperBase32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
inline constexpr std::string_view kDigits = "0123456789";

// `prefix` and `n` pseudo-random characters of `alphabet`. Test tokens are made at run time, so
// no literal in this source has a credential's shape for a secret scanner to flag.
inline std::string fake(std::string_view prefix, std::string_view alphabet, std::size_t n,
                        unsigned seed = 1) {
  std::string s(prefix);
  unsigned x = seed * 2654435761u + 12345u;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    s += alphabet[(x >> 16) % alphabet.size()];
  }
  return s;
}

// A PEM block of `label` ("OPENSSH PRIVATE KEY", "CERTIFICATE") with a body of `body` characters.
inline std::string pem(std::string_view label, std::size_t body = 70) {
  const std::string dashes = "-----";
  return dashes + "BEGIN " + std::string(label) + dashes + "\n" +
         fake("", std::string(kAlnum) + "+/", body, 9) + "\n" + dashes + "END " +
         std::string(label) + dashes + "\n";
}

// A fresh directory tree, readable by every user (the unprivileged scans run as nobody), removed
// with everything in it on destruction.
class TempTree {
 public:
  TempTree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cred-test-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data()) != nullptr ? tmpl : std::string();
    ::chmod(path_.c_str(), 0755);
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

  void mkdir(const std::string& name) const {
    std::filesystem::create_directories(*this / name);
    for (auto p = std::filesystem::path(*this / name); p.string().size() > path_.size();
         p = p.parent_path()) {
      ::chmod(p.c_str(), 0755);
    }
  }
  void write(const std::string& name, const std::string& text, mode_t mode = 0644) const {
    mkdir(std::filesystem::path(name).parent_path().string());
    std::ofstream(*this / name, std::ios::binary) << text;
    ::chmod((*this / name).c_str(), mode);
  }
  void symlink(const std::string& target, const std::string& name) const {
    mkdir(std::filesystem::path(name).parent_path().string());
    std::filesystem::create_symlink(target, *this / name);
  }
  void fifo(const std::string& name) const {
    mkdir(std::filesystem::path(name).parent_path().string());
    ::mkfifo((*this / name).c_str(), 0644);
  }
  // A listening-capable Unix socket file, as a daemon leaves one.
  bool socket(const std::string& name) const {
    mkdir(std::filesystem::path(name).parent_path().string());
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string p = *this / name;
    if (p.size() >= sizeof addr.sun_path) {
      return false;
    }
    std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (fd >= 0) {
      ::close(fd);
    }
    return ok;
  }

 private:
  std::string path_;
};

inline std::vector<std::string> texts(const report::Refusals& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) {
    out.push_back(report::to_text(r));
  }
  return out;
}

// Runs `fn` in a child process that, when this process is root, first becomes the unprivileged
// user nobody: file permissions then apply as they do to the sandbox's user. Returns what `fn`
// returned; a child that could not drop privileges or died returns {"<child failed>"}.
inline std::vector<std::string> as_unprivileged(
    const std::function<std::vector<std::string>()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) {
    return {"<child failed>"};
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::geteuid() == 0 &&
        (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
         ::setresuid(65534, 65534, 65534) != 0)) {
      ::_exit(2);
    }
    std::string out;
    for (const auto& s : fn()) {
      out += s;
      out += '\0';
    }
    for (std::size_t done = 0; done < out.size();) {
      ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) {
        ::_exit(3);
      }
      done += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string all;
  char buf[4096];
  ssize_t n = 0;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) {
    all.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return {"<child failed>"};
  }
  std::vector<std::string> out;
  for (std::size_t start = 0; start < all.size();) {
    auto end = all.find('\0', start);
    out.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The scan's findings over `roots` (and `env`), as text.
inline std::vector<std::string> scan(const ScanRoots& roots,
                                     const std::vector<ScanEnvironment>& env = {}) {
  return texts(scan_for_credentials(roots, env).findings);
}

// A file a test plants at `relative` below the tree it scans, and the finding it must give,
// from just after the file's path (":4' sets credential.helper: ...").
struct PlacedFile {
  std::string name;
  std::string relative;
  std::string text;
  std::string finding;
};

// gtest names a failing case by this, not by its bytes.
inline void PrintTo(const PlacedFile& c, std::ostream* os) { *os << c.name; }

}  // namespace reviewer::credentials::credtest
