// Built twice by tests/unit/launch/CMakeLists.txt: linked like reviewer-launch
// (reviewer_link_like_launcher) and like the host's binaries. launcher_link.sh runs both.
//   init       start libgit2 the way the launcher does (git::Libgit2WarmUp), and exit
//   negotiate  (linked like the launcher only) ask libgit2's HTTP transport for the Negotiate
//              authentication a server may offer, and print libgit2's answer
#include <git2.h>

#include <cstdio>
#include <cstring>

#include "core/git/warm_up.h"

#ifdef REVIEWER_PROBE_LIKE_LAUNCHER
// libgit2's own (src/libgit2/transports/auth_negotiate.c); hidden in the shared library, but
// linked in from the archive. Its URL is read only once a mechanism is found.
extern "C" int git_http_auth_negotiate(void** out, const void* url);
#endif

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "init") == 0) {
    { const reviewer::git::Libgit2WarmUp warm_up; }
    return 0;
  }
#ifdef REVIEWER_PROBE_LIKE_LAUNCHER
  if (argc == 2 && std::strcmp(argv[1], "negotiate") == 0) {
    { const reviewer::git::Libgit2WarmUp warm_up; }
    void* context = nullptr;
    const int rc = git_http_auth_negotiate(&context, nullptr);
    const git_error* e = git_error_last();
    std::printf("%d %s\n", rc, e != nullptr && e->message != nullptr ? e->message : "(no error)");
    return context == nullptr ? 0 : 1;
  }
#endif
  std::fprintf(stderr, "usage: %s init|negotiate\n", argv[0]);
  return 2;
}
