# Warnings are errors on every target of ours; third-party headers come in as SYSTEM.
# -Wnull-dereference is left out: g++ 12 reports it from the optimizer at -O3 only, on paths
# that cannot happen (std::regex, std::string internals), so a Release build would fail where
# Debug passes. -Wrestrict likewise: g++ 12's libstdc++ string inlining raises it at -O3
# (GCC PR 105329/105651), so it is off for g++ only.
add_library(reviewer_warnings INTERFACE)
target_compile_options(reviewer_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
