# The clean-clone check against `git status --porcelain --ignored -uall` on a generated worktree
# (100,000 files by default; REVIEWER_BENCH_FILES overrides). Target: at most 1.5x git's time.
reviewer_benchmark(git_status SOURCES git_status_bench.cpp DEPS reviewer_git)
