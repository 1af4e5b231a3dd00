// `reviewer fetch WORKTREE --store DIR`: the fetch phase of a review on its own (core/host,
// core/deps): what the lock file pins, checked, in the shared store.
#include <iostream>
#include <memory>

#include "core/cli/commands.h"
#include "core/deps/dependencies.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"
#include "core/report/source_excerpt.h"

namespace reviewer::cli {
namespace {

struct FetchRequest {
  std::string worktree;
  std::string store;
  std::string registry = deps::kDefaultRegistry;
  std::uint64_t max_bytes = deps::FetchOptions{}.max_total_bytes;
};

int run_fetch(const FetchRequest& r) {
  using report::ExitCode;
  if (!deps::valid_registry(r.registry)) {
    std::cerr << "reviewer fetch: --registry \"" << report::printable(r.registry)
              << "\" is not an https URL ending in '/'\n";
    return report::to_int(ExitCode::kUsage);
  }
  deps::FetchOptions options;
  options.registry = r.registry;
  options.max_total_bytes = r.max_bytes;
  const std::string store = r.store.empty() ? deps::default_store_dir() : r.store;
  auto fetched = deps::fetch_dependencies(r.worktree, store, options);
  if (!fetched) {
    for (const auto& refusal : fetched.refusals()) {
      std::cout << report::to_text(refusal) << '\n';
    }
    return report::to_int(deps::is_host_side(fetched.error()) ? ExitCode::kInternal
                                                           : ExitCode::kRefused);
  }
  if (!*fetched) {
    std::cout << "no npm, pnpm, Bun or yarn lock file in " << report::printable(r.worktree)
              << ", nothing fetched";
    for (const auto& name : deps::unread_lock_files(r.worktree)) {
      std::cout << " (" << name << " is not read yet)";
    }
    std::cout << '\n';
    return 0;
  }
  std::cout << deps::describe((*fetched)->list, (*fetched)->report) << "\nstore: " << store << '\n';
  return 0;
}

}  // namespace

void register_fetch_command(CLI::App& app, int& exit_code) {
  auto r = std::make_shared<FetchRequest>();
  CLI::App* sub = app.add_subcommand(
      "fetch", "check a worktree's lock file and put every tarball it pins in the store");
  sub->add_option("WORKTREE", r->worktree, "the project directory (package.json and its lock)")
      ->required();
  sub->add_option("--store", r->store,
                  "the dependency store (default $XDG_CACHE_HOME/reviewer/deps or "
                  "~/.cache/reviewer/deps)");
  sub->add_option("--registry", r->registry, "the registry every tarball must come from");
  sub->add_option("--max-dependency-bytes", r->max_bytes,
                  "bound on the tarballs together (default 2 GiB)");
  sub->callback([r, &exit_code] { exit_code = run_fetch(*r); });
}

}  // namespace reviewer::cli
