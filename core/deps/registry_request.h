#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// What a request to the loopback registry (deps/provision/loopback_registry.h) asks for: its head,
// read with bounds, and the one file of the view's registry directory that may answer it. Requests
// come from the pull request's steps and are hostile input.
namespace reviewer::deps {

// The file of the registry directory that answers the request target `target`, relative to it:
// "chalk/.packument" for `/chalk`, "@types/node/-/node-22.1.0.tgz" for
// `/@types%2fnode/-/node-22.1.0.tgz`; nullopt when the target is not a package's metadata or
// tarball by a plain package name (a 404: nothing else is served).
std::optional<std::string> registry_file(std::string_view target);

// One request head, as the server reads it.
struct HttpRequest {
  std::string method;  // "GET"
  std::string target;  // "/chalk"
  std::string accept;  // the Accept header's value; empty: none
  bool keep_alive = true;
};

// The outcome of reading a request head from the bytes a connection sent so far.
struct HeadParse {
  enum class State { kIncomplete, kComplete, kMalformed } state = State::kIncomplete;
  HttpRequest request;
  std::size_t length = 0;  // bytes of the head, its blank line included, when complete
};

// Parses the request head at the start of `bytes` (HTTP/1.0 or 1.1). A request with a body
// (Content-Length other than 0, Transfer-Encoding) is malformed: a registry client sends none.
HeadParse parse_request_head(std::string_view bytes);

}  // namespace reviewer::deps
