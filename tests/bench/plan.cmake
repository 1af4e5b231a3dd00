# Bounded load + plan (docs/planner.md quotes the figures). Targets: a typical 5 KiB workflow
# <= 0.5 ms, a 256 KiB workflow just under the 50,000-node bound <= 30 ms, an alias bomb
# refused <= 5 ms with flat memory (the rss_growth_kib counter; run it alone with
# --benchmark_filter=AliasBomb for a clean figure).
reviewer_benchmark(plan SOURCES plan_bench.cpp DEPS reviewer_plan reviewer_yaml PkgConfig::LIBYAML)
target_compile_definitions(bench_plan PRIVATE REVIEWER_BINARY_DIR="${PROJECT_BINARY_DIR}")
add_dependencies(bench_plan plugin_manifest)
