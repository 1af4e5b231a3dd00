#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "core/util/result.h"

// The dependency view's registry directory (contract::kRegistryDir) served over HTTP on the
// sandbox's loopback, for package managers that install only from an HTTP registry: pnpm 11 and
// later read neither npm's settings nor a file: registry, and ask the registry for each locked
// package's metadata before installing (docs/dependencies.md, "pnpm 11"). Only the files the host
// placed there are served, read-only; every other request is a 404, as the registry answers.
namespace reviewer::deps {

// What a step can make the server hold: its clients are the pull request's steps, which may
// open connections and never finish them. The defaults are production's; tests shorten them.
struct RegistryLimits {
  // Connections served at once: as many as a package manager opens (Bun makes up to 256
  // requests at once). Past it a new connection takes the place of the one that has waited
  // longest for its request, if that one has waited a second or more, and is closed at once
  // otherwise; an answer under way is never cut for it.
  std::size_t max_connections = 256;
  // How long a connection may take to send a whole request head (counted from its accept, or
  // from the end of its last answer), and how long an answer may wait for the client to take a
  // byte of it, before the connection is closed.
  std::chrono::milliseconds timeout = std::chrono::seconds(10);
};

// The server, on its own thread, from start() until destroyed.
class LoopbackRegistry {
 public:
  // Listens on 127.0.0.1 at a port the kernel picks and serves the directory `dir` within
  // `limits`. Error `dependency-registry` when the directory cannot be opened or the socket
  // cannot be made.
  static util::Result<std::unique_ptr<LoopbackRegistry>> start(const std::string& dir,
                                                               const RegistryLimits& limits = {});
  ~LoopbackRegistry();
  LoopbackRegistry(const LoopbackRegistry&) = delete;
  LoopbackRegistry& operator=(const LoopbackRegistry&) = delete;

  // "http://127.0.0.1:PORT/"
  std::string url() const;

  struct State;

 private:
  explicit LoopbackRegistry(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace reviewer::deps
