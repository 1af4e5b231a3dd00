#pragma once

#include <string>
#include <vector>

namespace reviewer::report {

struct TestCase {
  std::string suite;   // the job
  std::string name;    // the step
  std::string status;  // "ok", "failed", "not-run"
  std::string message;
  double seconds = 0;
};

// A JUnit XML document with one testsuite per job and one testcase per step, for CI tools.
std::string to_junit(const std::vector<TestCase>& cases);

}  // namespace reviewer::report
