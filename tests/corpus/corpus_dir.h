#pragma once
// Where the real-world workflow corpus is, for the tests labelled `corpus`. The corpus is
// reference material beside the checkout, not part of it, so a clone with nothing beside it
// skips these tests visibly instead of failing them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace reviewer::testing {

// REVIEWER_WORKFLOW_CORPUS names the folder when set (then it must exist: a folder asked for
// and missing is a failure, not a skip); otherwise the folder the reference material has beside
// the checkout.
inline std::filesystem::path workflow_corpus_dir() {
  if (const char* set = std::getenv("REVIEWER_WORKFLOW_CORPUS"); set != nullptr && *set != 0) {
    return set;
  }
  return std::filesystem::path(REVIEWER_SOURCE_DIR) / ".." / "shared" / "reference" /
         "workflow-corpus";
}

}  // namespace reviewer::testing

// Skips the current test, naming the folder it looked for, when the corpus is not there and
// nobody asked for it; fails it when REVIEWER_WORKFLOW_CORPUS names a folder that is missing.
#define REVIEWER_REQUIRE_CORPUS(dir)                                                       \
  do {                                                                                     \
    if (!std::filesystem::is_directory(dir)) {                                             \
      if (std::getenv("REVIEWER_WORKFLOW_CORPUS") != nullptr) {                            \
        FAIL() << "REVIEWER_WORKFLOW_CORPUS names " << (dir) << ", which is not a folder"; \
      }                                                                                    \
      GTEST_SKIP() << "no workflow corpus at " << (dir)                                    \
                   << " (set REVIEWER_WORKFLOW_CORPUS to the folder to run this test)";    \
    }                                                                                      \
  } while (false)
