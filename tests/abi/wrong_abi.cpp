// Built as if for plugin ABI generation 2: its entry is `reviewer_plugin_v2`. Its static
// constructor leaves a marker, so a test can prove the host refused it before loading it.
#include <reviewer/sdk/abi.h>

#include <cstdio>
#include <cstdlib>

namespace {
__attribute__((constructor)) void leave_marker() {
  if (const char* path = std::getenv("REVIEWER_TEST_MARKER")) {
    if (FILE* f = std::fopen(path, "w")) {
      std::fclose(f);
    }
  }
}
}  // namespace

extern "C" __attribute__((visibility("default"), used, section(REVIEWER_ENTRY_SECTION)))
const reviewer_plugin_descriptor reviewer_plugin_v2 = {2,       sizeof(reviewer_plugin_descriptor),
                                                       "2.0.0", "wrong_abi",
                                                       nullptr, 0,
                                                       nullptr, nullptr,
                                                       nullptr, nullptr,
                                                       nullptr, nullptr,
                                                       nullptr, 0};
