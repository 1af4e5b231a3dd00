# Warnings are errors on every target of ours; third-party headers come in as SYSTEM.
add_library(reviewer_warnings INTERFACE)
target_compile_options(reviewer_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wformat=2 -Wimplicit-fallthrough)
