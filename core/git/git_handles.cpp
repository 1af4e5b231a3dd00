#include "core/git/git_handles.h"

namespace reviewer::git::detail {
namespace {

struct Libgit2Guard {
  Libgit2Guard() { REVIEWER_CHECK(git_libgit2_init() > 0); }
};

}  // namespace

void ensure_libgit2() { static Libgit2Guard guard; }

util::Refusal last_error(std::string_view code, std::string_view what) {
  const git_error* e = git_error_last();
  std::string msg(what);
  if (e != nullptr && e->message != nullptr) {
    msg += ": " + std::string(e->message);
  }
  return util::refusal(std::string(code), msg);
}

}  // namespace reviewer::git::detail
