# A job's fresh worktree (the pristine clone copied in) against `cp -a` of the same clone, in one
# run; REVIEWER_BENCH_CLONE names a real clone.
reviewer_benchmark(fresh_worktree SOURCES fresh_worktree_bench.cpp DEPS reviewer_launch)
