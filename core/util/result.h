#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "core/util/check.h"
#include "core/util/source_location.h"

namespace reviewer::util {

// A named failure: `code` is a stable kebab-case id (a refusal rule where one applies), the
// message names the offending thing and quotes the value.
struct Error {
  std::string code;
  std::string message;
  std::optional<SourceLocation> location;

  std::string to_string() const {
    std::string out;
    if (location) {
      out += location->to_string() + ": ";
    }
    return out + code + ": " + message;
  }
};

// The subset of std::expected we need; errors are values, never exceptions.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & {
    REVIEWER_CHECK(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    REVIEWER_CHECK(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    REVIEWER_CHECK(ok());
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const {
    REVIEWER_CHECK(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Error> v_;
};

struct Unit {};
using Status = Result<Unit>;
inline Status ok_status() { return Unit{}; }

inline Error make_error(std::string code, std::string message,
                        std::optional<SourceLocation> where = std::nullopt) {
  return Error{std::move(code), std::move(message), std::move(where)};
}

}  // namespace reviewer::util
