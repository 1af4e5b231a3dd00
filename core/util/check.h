#pragma once

#include <cstdio>
#include <cstdlib>

// Aborts on a broken invariant (a bug, never an environmental failure, which is handled).
#define REVIEWER_CHECK(cond)                                                                \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: internal error: check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                                  \
      std::abort();                                                                         \
    }                                                                                       \
  } while (false)
