#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/deps/fetch.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps::testing {

// A worktree holding one lock file (`lock_name`) beside a package.json, planned by plan_fetch as
// the host plans it.
class LockPlan : public ::testing::Test {
 protected:
  LockPlan(std::string lock_name, std::string manifest)
      : lock_name_(std::move(lock_name)), manifest_(std::move(manifest)) {}

  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::trunc) << text;
  }
  util::Result<std::optional<FetchList>> plan(const std::string& lock) {
    return plan(lock, manifest_);
  }
  util::Result<std::optional<FetchList>> plan(const std::string& lock,
                                              const std::string& manifest) {
    write("package.json", manifest);
    write(lock_name_, lock);
    return plan_fetch(dir_.path(), {});
  }
  // "rule: message" of every refusal.
  std::vector<std::string> refused(const std::string& lock) { return refused(lock, manifest_); }
  std::vector<std::string> refused(const std::string& lock, const std::string& manifest) {
    auto r = plan(lock, manifest);
    EXPECT_FALSE(r);
    std::vector<std::string> out;
    if (!r) {
      for (const auto& x : r.refusals()) {
        out.push_back(x.rule + ": " + x.message);
      }
    }
    return out;
  }

  test_support::TempDir dir_;

 private:
  std::string lock_name_;
  std::string manifest_;
};

}  // namespace reviewer::deps::testing
