// A shared object with no reviewer entry at all (any library dropped into the directory).
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

extern "C" __attribute__((visibility("default"))) int not_a_plugin() { return 42; }
