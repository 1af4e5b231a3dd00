// `reviewer verify --nonce N REPORT`: whether a report.json was written by the launcher that
// was handed nonce N (docs/host.md). A process that outlives a killed launcher can rewrite the
// report, but without the nonce it cannot attest what it wrote.
#include <fcntl.h>

#include <iostream>
#include <memory>

#include "core/cli/commands.h"
#include "core/contract/attestation.h"
#include "core/report/exit_code.h"
#include "core/util/file_read.h"

namespace reviewer::cli {

void register_verify_command(CLI::App& app, int& exit_code) {
  auto nonce = std::make_shared<std::string>();
  auto path = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("verify", "check a report.json's attested verdict");
  sub->add_option("--nonce", *nonce, "the nonce the host handed the launcher")->required();
  sub->add_option("REPORT", *path, "report.json")->required();
  sub->callback([nonce, path, &exit_code] {
    // A short nonce could be guessed, and an empty one forged with: a usage error, not a check.
    if (!contract::valid_nonce(*nonce)) {
      std::cerr << "reviewer verify: --nonce must be " << contract::kNonceHexDigits
                << " lowercase hex digits (the 32 random bytes the host made); it has "
                << nonce->size() << " characters\n";
      exit_code = report::to_int(report::ExitCode::kUsage);
      return;
    }
    auto text = util::read_regular_file(AT_FDCWD, *path, {.max_bytes = 64 << 20});
    if (!text) {
      std::cerr << "reviewer: cannot read " << *path << ": " << text.error().message << "\n";
      exit_code = report::to_int(report::ExitCode::kUsage);
      return;
    }
    auto facts = contract::verify_report(*nonce, *text);
    if (!facts) {
      std::cout << "unattested: " << facts.error().message << "\n";
      exit_code = report::to_int(report::ExitCode::kBuildFailed);
      return;
    }
    std::cout << "attested: " << facts->verdict << " for job " << facts->job << " of "
              << facts->workflow << " into " << facts->base << " in image " << facts->image << "\n";
    exit_code = 0;
  });
}

}  // namespace reviewer::cli
