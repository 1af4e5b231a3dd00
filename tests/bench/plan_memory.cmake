# `reviewer plan` stays under 64 MiB peak RSS on the worst expressions a 256 KiB workflow can hold
# (issue 37): unlike the figures above, a pass/fail check, so it runs with the unit tests (about
# 10 s). It plans with the build's reviewer and plugins.
add_test(NAME bench.plan_memory
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/plan_memory.sh ${PROJECT_BINARY_DIR})
set_tests_properties(bench.plan_memory PROPERTIES LABELS unit TIMEOUT 120)
