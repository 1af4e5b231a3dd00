reviewer_benchmark(resolve SOURCES resolve_bench.cpp DEPS reviewer_resolve)
