#pragma once

#include <memory>
#include <string>

#include "core/util/result.h"

// The dependency view's registry directory (fetch::kRegistryDir) served over HTTP on the
// sandbox's loopback, for package managers that install only from an HTTP registry: pnpm 11 and
// later read neither npm's settings nor a file: registry, and ask the registry for each locked
// package's metadata before installing (docs/fidelity.md, "pnpm 11"). Only the files the host
// placed there are served, read-only; every other request is a 404, as the registry answers.
namespace reviewer::launch {

// The server, on its own thread, from start() until destroyed.
class LoopbackRegistry {
 public:
  // Listens on 127.0.0.1 at a port the kernel picks and serves the directory `dir`. Error
  // `dependency-registry` when the directory cannot be opened or the socket cannot be made.
  static util::Result<std::unique_ptr<LoopbackRegistry>> start(const std::string& dir);
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

}  // namespace reviewer::launch
