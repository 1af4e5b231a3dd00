// pnpm/action-setup: emulated, not skipped. The step's pnpm version (its `version` input, or
// package.json's `packageManager` read with the action's own rules, pnpm-common's reader over the
// host's repository files) becomes a `pnpm` pin; the host fetches that pnpm tarball from the
// registry, verified, into the review's dependency view before the sandbox exists; at this step
// the plugin unpacks it where the action installs it ($HOME/setup-pnpm/node_modules/pnpm) and puts
// its bin directory on the PATH of the later steps, as the action's core.addPath does. See
// README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <reviewer/sdk/requested_version.hpp>
#include "../pnpm-common/package_manager_file.h"
#include "../pnpm-common/unpack_pnpm.h"

#include <array>
#include <regex>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"pnpm/action-setup",
                                      {
                                          {"fe02b34f77f8bc703788d5817da081398fad5dd2", "v4.0.0"},
                                          {"a3252b78c470c02df07e9d59298aecedc3ccdd6d", "v3.0.0"},
                                      },
                                      "2026-12-01"};

// v4.0.0 reads package.json even when `version` is given and throws when its packageManager names
// another version ("Multiple versions of pnpm specified", bee1f09); v3.0.0 reads it only without
// a `version`.
bool checks_both(std::string_view tag) { return tag == "v4.0.0"; }

// The action's run_install is YAML (yaml.parse) checked by zod: null or false installs nothing,
// true is `[{ recursive: true }]`, one `pnpm recursive install` in the workspace. These are the
// YAML 1.2 core-schema spellings the action's `yaml` reads. An object or a list (cwd, args) is
// not read here: its YAML would need the action's parser to be taken exactly.
bool installs_nothing(std::string_view v) {
  return v == "null" || v == "Null" || v == "NULL" || v == "~" || v == "false" || v == "False" ||
         v == "FALSE";
}
bool installs_recursively(std::string_view v) { return v == "true" || v == "True" || v == "TRUE"; }
bool accepted_run_install(std::string_view v) {
  return installs_nothing(v) || installs_recursively(v);
}

// `dest` is where the action installs; the emulation installs at the default only.
bool is_default_dest(std::string_view v) { return v == "~/setup-pnpm"; }

// One release of the `pnpm` package: X.Y.Z or X.Y.Z-prerelease, as npm-package-arg takes an exact
// version (build metadata is the caller's to strip: the action passes packageManager's whole
// "9.15.9+sha512.…" to pnpm, which resolves the version without it).
bool is_exact(std::string_view v) {
  static const std::regex kExact(
      R"((0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)");
  return std::regex_match(v.begin(), v.end(), kExact);
}

// Every input is read with getInput or getBooleanInput, which trim it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("version"),            // checked below: it becomes the pin
    reviewer::sdk::any_value("package_json_file"),  // read by the host, then checked below
    reviewer::sdk::accepted("dest", &is_default_dest,
                            "~/setup-pnpm (the default; the emulation installs there only)"),
    reviewer::sdk::accepted("run_install", &accepted_run_install,
                            "null or false (the default: the action installs nothing), or true "
                            "(`pnpm recursive install` at this step); for arguments or another "
                            "directory, run `pnpm install ...` in a later run: step"),
    reviewer::sdk::strict_boolean("standalone"),
});

// The action's `readTarget`: the pnpm version the step installs, or a refusal (false).
bool target_version(const reviewer::sdk::StepView& step, std::string_view tag,
                    reviewer::sdk::PlanDecision& decision, reviewer::sdk::RequestedVersion& out) {
  using reviewer::sdk::printable;
  const auto input = step.inputs().find("version");
  const bool has_version = input && !input->value.empty();
  const auto file_input = step.inputs().find("package_json_file");
  const std::string_view file = file_input ? file_input->value : std::string_view("package.json");
  const reviewer::sdk::Location file_at = file_input ? file_input->location : step.uses_location();
  // What packageManager says ("" when nothing), read as the action reads it.
  const auto read = pnpm_common::package_manager_of(decision, "package_json_file", file, file_at,
                                                    "pnpm/action-setup");
  if (!read) {
    return false;  // refused, and said why
  }
  const std::string& pm = read->version;
  if (has_version) {
    out = reviewer::sdk::RequestedVersion::from_input(*input, "version");
    // packageManager.replace('pnpm@', '') !== version: the first "pnpm@" anywhere goes.
    std::string replaced = pm;
    if (const auto at = replaced.find("pnpm@"); at != std::string::npos) {
      replaced.erase(at, 5);
    }
    if (!pm.empty() && replaced != out.spec) {
      decision.refuse(
          "pnpm-version-conflict",
          "pnpm/action-setup " + std::string(tag) + " 'version' is '" + printable(out.spec) +
              "' and " + read->where.file + " packageManager is '" + printable(pm) + "'; " +
              (checks_both(tag)
                   ? std::string("the action fails the step (\"Multiple versions of pnpm "
                                 "specified\")")
                   : std::string("the action installs 'version', and pnpm then meets another "
                                 "version in packageManager (ERR_PNPM_BAD_PM_VERSION, or pnpm "
                                 "10 switching to that version, which needs the network)")) +
              "; remove one of them, or make packageManager exactly \"pnpm@" + printable(out.spec) +
              "\"",
          input->location);
      return false;
    }
    return true;
  }
  if (pm.empty()) {
    decision.refuse("runtime-version-not-exact",
                    "pnpm/action-setup has no 'version' and " + read->where.file +
                        " has no packageManager string: the action fails the step (\"No pnpm "
                        "version is specified\"); write an exact X.Y.Z in 'version' or "
                        "\"packageManager\": \"pnpm@X.Y.Z\"",
                    input ? input->location : step.uses_location());
    return false;
  }
  if (!pm.starts_with("pnpm@")) {
    decision.refuse("pnpm-version-conflict",
                    "pnpm/action-setup has no 'version' and " + read->where.file +
                        " packageManager is '" + printable(pm) +
                        "', not pnpm@…: the action fails the step (\"Invalid packageManager "
                        "field in package.json\"); name pnpm there, or give 'version'",
                    read->where.location());
    return false;
  }
  // The action installs `pnpm@<what follows>`; pnpm resolves a version with build metadata
  // ("9.15.9+sha512.…", corepack's hash) to that version. The hash is checked by the host's fetch.
  std::string version = pm.substr(5);
  version = version.substr(0, version.find('+'));
  out = {version,           "package.json packageManager", true, read->where.file, read->where.line,
         read->where.column};
  return true;
}

class PnpmActionSetup final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    if (const auto standalone = step.inputs().find("standalone");
        standalone && reviewer::sdk::is_strict_true(reviewer::sdk::js::trim(standalone->value))) {
      decision.refuse(
          "action-input-refused",
          "pnpm/action-setup 'standalone: " + reviewer::sdk::printable(standalone->value) +
              "' installs @pnpm/exe, a native build of pnpm the review does not fetch; "
              "leave it false (pnpm then runs on the job's node, as here)",
          standalone->location);
      ok = false;
    }
    reviewer::sdk::RequestedVersion want;
    if (!target_version(step, tag, decision, want)) {
      return;
    }
    if (!is_exact(want.spec)) {
      decision.refuse("runtime-version-not-exact",
                      "pnpm/action-setup " + want.source + (want.from_file ? " gives '" : " is '") +
                          reviewer::sdk::printable(want.spec) +
                          "'; the action has pnpm resolve it against the registry at CI's time, "
                          "which the review cannot see; write an exact X.Y.Z",
                      want.where());
      ok = false;
    }
    if (!ok) {
      return;
    }
    decision.pin("pnpm", want.spec, want.where());
    decision.run();
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    const auto input = step.inputs().find("version");
    const auto file = step.inputs().find("package_json_file");
    const auto run_install = step.inputs().find("run_install");
    const bool install =
        run_install && installs_recursively(reviewer::sdk::js::trim(run_install->value));
    reviewer::sdk::RunRequest request;
    const std::string script = pnpm_common::install_script(kInstall, kInstalled);
    request.script = script;
    // As the runner hands inputs to the action: INPUT_<NAME>.
    using reviewer::sdk::c_str;
    const reviewer_location nowhere{};
    const reviewer_entry env[] = {
        {c_str("INPUT_VERSION"), c_str(input ? input->value : std::string_view()), nowhere},
        {c_str("INPUT_PACKAGE_JSON_FILE"),
         c_str(file ? file->value : std::string_view("package.json")), nowhere},
        {c_str("INPUT_RUN_INSTALL"), c_str(install ? "true" : ""), nowhere}};
    request.env = env;
    request.env_count = 3;
    const int status = services.run_script(request);
    if (status == kNotInView) {
      services.fail("package-manager-not-fetched",
                    "pnpm/action-setup: the pnpm this step installs is not in the review's "
                    "dependency view (the host fetches the version the plan pinned); the step's "
                    "log names it");
    }
  }

 private:
  static constexpr int kNotInView = 3;
  // The action's readTarget again, in node as the action runs it (the launcher has checked that
  // package.json still gives what the plan read), then its install: dest/node_modules/pnpm from
  // the verified tarball, its bins in dest/node_modules/.bin, that directory on the later steps'
  // PATH (core.addPath). PNPM_HOME, which the action also exports, is not written: GITHUB_ENV may
  // not set PNPM_* names here (docs/fidelity.md).
  static constexpr std::string_view kInstall = R"SH(
version="$INPUT_VERSION"
if [ -z "$version" ]; then
  pm=$(node -e '
    const path = require("path"), fs = require("fs");
    let pm;
    try {
      ({ packageManager: pm } = JSON.parse(fs.readFileSync(
          path.join(process.env.GITHUB_WORKSPACE, process.env.INPUT_PACKAGE_JSON_FILE), "utf8")));
    } catch (e) { if (e.code !== "ENOENT") throw e; }
    process.stdout.write(typeof pm === "string" ? pm : "");')
  version="${pm#pnpm@}"
  version="${version%%+*}"
fi
tarball="/var/cache/reviewer-deps/package-managers/pnpm-$version.tgz"
case "$version" in
  "" | *[!0-9A-Za-z.-]*) echo "pnpm/action-setup: no pnpm version to install ('$version')"; exit 3 ;;
esac
if [ ! -f "$tarball" ]; then
  echo "pnpm/action-setup: pnpm $version is not in the review's dependency view ($tarball)"
  exit 3
fi
who=pnpm/action-setup
)SH";
  // After the unpack (pnpm-common/unpack_pnpm.h). run_install: true is the action's
  // runPnpmInstall: `pnpm recursive install` in the workspace with dest's bins first on PATH
  // (patchPnpmEnv); a failure fails the step (setFailed). Its post step, `pnpm store prune`, only
  // warns when it fails, so it cannot change the job's result and is not run.
  static constexpr std::string_view kInstalled = R"SH(
echo "pnpm $version from the review's dependency view (verified by the host) in $dest"
echo "Installation Completed!"
[ "$INPUT_RUN_INSTALL" = true ] || exit 0
echo "Running pnpm recursive install..."
cd "$GITHUB_WORKSPACE" || exit 1
PATH="$dest/node_modules/.bin:$PATH" pnpm recursive install
status=$?
if [ "$status" -ne 0 ]; then
  echo "Command pnpm recursive install (cwd: undefined) exits with status $status"
  exit 1
fi
)SH";
};

}  // namespace

REVIEWER_PLUGIN(PnpmActionSetup, kClaim);
