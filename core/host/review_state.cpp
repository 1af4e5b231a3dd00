#include "core/host/review_state.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/host/host_identity.h"
#include "core/host/leftovers.h"
#include "core/report/render.h"
#include "core/report/source_excerpt.h"

namespace reviewer::host {

namespace fs = std::filesystem;

std::string review_temp_dir() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != 0 ? tmp : "/tmp";
}

ReviewScratch::ReviewScratch() {
  std::string pattern = review_temp_dir() + "/" + kScratchPrefix + "XXXXXX";
  if (::mkdtemp(pattern.data()) != nullptr) {
    path_ = pattern;
    held_ = hold_directory(path_);
    std::ofstream(path_ + "/" + kScratchOwnerFile) << this_process_identity() << '\n';
  }
}

ReviewScratch::~ReviewScratch() {
  if (!path_.empty() && !keep_) {
    (void)remove_held_directory(held_, path_);
  }
}

void ReviewScratch::keep() {
  keep_ = true;
  held_ = Held();
  std::error_code ec;
  fs::remove(path_ + "/" + kScratchOwnerFile, ec);
}

int say_verdict(report::ExitCode code, const std::string& verdict) {
  std::cout << verdict << std::endl;
  return report::to_int(code);
}

int say_host_failure(const util::Refusal& e) {
  std::cerr << "reviewer review: " << report::printable(e.to_string()) << '\n';
  return say_verdict(report::ExitCode::kInternal,
                     "review-build-failed: host: " + report::printable(e.rule));
}

int say_refused(const report::Refusals& refusals, const std::string& file,
                const std::string& text) {
  for (const auto& r : refusals) {
    std::cout << report::to_text(r, file, text) << '\n';
  }
  return say_verdict(report::ExitCode::kRefused,
                     "review-build-refused: " + report::to_text(refusals.front()));
}

int say_usage(const std::string& message) {
  std::cerr << "reviewer review: " << message << '\n';
  return report::to_int(report::ExitCode::kUsage);
}

}  // namespace reviewer::host
