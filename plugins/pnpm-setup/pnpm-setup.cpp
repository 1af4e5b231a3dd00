// pnpm/setup: emulated, not skipped. The action installs a pnpm release (its `version`, a range
// pnpm resolves against the registry), installs a runtime with `pnpm runtime set`, and runs
// `pnpm install`. The review pins both: the host resolves and fetches the pnpm release before the
// sandbox exists (a range is resolved at review time, as CI resolves it at its own), the runtime
// pin selects the image whose Node satisfies it, and at this step the plugin unpacks pnpm, puts it
// on the later steps' PATH and runs the same `pnpm install` offline from the review's dependency
// view. See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

#include "../pnpm-common/package_manager_file.h"
#include "../pnpm-common/unpack_pnpm.h"

#include <array>
#include <string>

namespace {

constexpr reviewer::sdk::Claim kClaim{"pnpm/setup",
                                      {
                                          {"5d160c5bc68a09337ad0d5654e237e03253b5879", "v1.0.0"},
                                      },
                                      "2026-12-01"};

bool is_default_dest(std::string_view v) { return v == "~/setup-pnpm"; }

bool is_default_lock(std::string_view v) { return v == "pnpm-lock.yaml"; }

// What npm-package-arg would not take as a version or range: a dist-tag such as `latest` or
// `next-11` names whatever the tag points at when CI runs, which no pin can say.
bool looks_like_range(std::string_view v) {
  if (v.empty()) {
    return false;
  }
  for (const char c : v) {
    const bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'x' || c == 'X' || c == '*' ||
                    c == '^' || c == '~' || c == '<' || c == '>' || c == '=' || c == ' ' ||
                    c == '|' || c == '-' || c == '+' || (c >= 'a' && c <= 'z');
    if (!ok) {
      return false;
    }
  }
  return (v[0] >= '0' && v[0] <= '9') || v[0] == '^' || v[0] == '~' || v[0] == '<' || v[0] == '>' ||
         v[0] == '=' || v[0] == '*' || v[0] == 'x' || v[0] == 'X';
}

// Every input is read with getInput or getBooleanInput, which trim it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("version"),  // checked below: it becomes the pnpm pin
    reviewer::sdk::accepted("dest", &is_default_dest,
                            "~/setup-pnpm (the default; the emulation installs there only)"),
    reviewer::sdk::any_value("runtime"),     // checked below: it becomes the node pin
    reviewer::sdk::strict_boolean("cache"),  // checked below: true is refused
    reviewer::sdk::accepted("cache-dependency-path", &is_default_lock,
                            "pnpm-lock.yaml (the default; used only with `cache: true`)"),
    reviewer::sdk::any_value("package-json-file"),  // read by the host, then checked below
    reviewer::sdk::strict_boolean("install"),
});

// The action's parseRuntime: "node" or "node@SPEC" (trimmed). Only node is emulated: the image
// carries the Node the pin selects; Bun and Deno come from `pnpm runtime set`, which needs the
// network. "" after a refusal.
std::string node_spec(const reviewer::sdk::Entry& runtime, reviewer::sdk::PlanDecision& decision) {
  using reviewer::sdk::printable;
  const std::string raw(reviewer::sdk::js::trim(runtime.value));
  const std::size_t at = raw.find('@');
  const std::string name(reviewer::sdk::js::trim(raw.substr(0, at)));
  const std::string spec =
      at == std::string::npos ? "" : std::string(reviewer::sdk::js::trim(raw.substr(at + 1)));
  if (name != "node" && name != "bun" && name != "deno") {
    decision.refuse("invalid-input-value",
                    "pnpm/setup input 'runtime' is '" + printable(raw) +
                        "': the action fails the step (Invalid `runtime` input); accepted: "
                        "node@VERSION",
                    runtime.location);
    return "";
  }
  if (at != std::string::npos && spec.empty()) {
    decision.refuse("invalid-input-value",
                    "pnpm/setup input 'runtime' is '" + printable(raw) +
                        "': the action fails the step (Trailing `@` with no version)",
                    runtime.location);
    return "";
  }
  if (name != "node") {
    decision.refuse("action-input-refused",
                    "pnpm/setup input 'runtime' is '" + printable(raw) + "': " + name +
                        " would be downloaded by `pnpm runtime set`, which needs the network; "
                        "the review emulates node@VERSION only (the image carries that Node)",
                    runtime.location);
    return "";
  }
  if (spec.empty()) {
    decision.refuse("action-input-refused",
                    "pnpm/setup input 'runtime' is 'node' without a version: the action then "
                    "takes package.json's devEngines.runtime, which the review does not read; "
                    "write node@VERSION",
                    runtime.location);
    return "";
  }
  // pnpm's node resolver reads `lts` as the newest LTS line: the matrix's schedule alias.
  return spec == "lts" ? "lts/*" : spec;
}

class PnpmSetup final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    using reviewer::sdk::printable;
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    if (const auto cache = step.inputs().find("cache");
        cache && reviewer::sdk::is_strict_true(reviewer::sdk::js::trim(cache->value))) {
      decision.refuse("action-input-refused",
                      "pnpm/setup 'cache: " + printable(cache->value) +
                          "' restores pnpm's store with actions/cache and prunes and saves it "
                          "after the job, which the review does not emulate for this action; "
                          "leave it false",
                      cache->location);
      ok = false;
    }
    const auto version = step.inputs().find("version");
    const std::string spec(version ? reviewer::sdk::js::trim(version->value) : "");
    if (spec.empty()) {
      decision.refuse("action-input-refused",
                      "pnpm/setup without 'version' takes package.json's devEngines.packageManager "
                      "before its packageManager, and the review does not read devEngines; write "
                      "the pnpm version in 'version'",
                      version ? version->location : step.uses_location());
      return;
    }
    if (!looks_like_range(spec)) {
      decision.refuse("runtime-version-not-exact",
                      "pnpm/setup 'version' is '" + printable(spec) +
                          "', a dist-tag: it names whatever the tag points at when CI runs; "
                          "write a version or a range (11, ^11.7.0, 11.28.11)",
                      version->location);
      return;
    }
    if (!check_package_manager(step, spec, *version, decision)) {
      return;
    }
    const auto runtime = step.inputs().find("runtime");
    if (!runtime || reviewer::sdk::js::trim(runtime->value).empty()) {
      decision.refuse("action-input-refused",
                      "pnpm/setup without 'runtime' takes package.json's devEngines.runtime, "
                      "which the review does not read; write runtime: node@VERSION",
                      runtime ? runtime->location : step.uses_location());
      return;
    }
    const std::string node = node_spec(*runtime, decision);
    if (node.empty() || !ok) {
      return;
    }
    decision.pin("pnpm", spec, version->location);
    decision.pin("node", node, runtime->location);
    decision.run();
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto value = [&](std::string_view name, std::string_view fallback) {
      const auto input = step.inputs().find(name);
      return input ? reviewer::sdk::js::trim(input->value) : fallback;
    };
    reviewer::sdk::RunRequest request;
    const std::string script = pnpm_common::install_script(kInstall, kInstalled);
    request.script = script;
    using reviewer::sdk::c_str;
    const reviewer_location nowhere{};
    // As the runner hands inputs to the action: INPUT_<NAME>, defaults applied.
    const reviewer_entry env[] = {
        {c_str("INPUT_VERSION"), c_str(value("version", "")), nowhere},
        {c_str("INPUT_PACKAGE_JSON_FILE"), c_str(value("package-json-file", "package.json")),
         nowhere},
        {c_str("INPUT_INSTALL"), c_str(value("install", "true")), nowhere},
        {c_str("INPUT_RUNTIME"), c_str(value("runtime", "")), nowhere}};
    request.env = env;
    request.env_count = 4;
    const int status = services.run_script(request);
    if (status == kNotInView) {
      services.fail("package-manager-not-fetched",
                    "pnpm/setup: the pnpm this step installs is not in the review's dependency "
                    "view (the host fetches the release the plan pinned); the step's log names it");
    }
  }

 private:
  static constexpr int kNotInView = 3;

  // The action's readTargetVersion: with `version`, a packageManager naming another pnpm version
  // (its string after "pnpm@", without "+hash") fails the step.
  static bool check_package_manager(const reviewer::sdk::StepView& step, const std::string& spec,
                                    const reviewer::sdk::Entry& version,
                                    reviewer::sdk::PlanDecision& decision) {
    const auto file_input = step.inputs().find("package-json-file");
    const std::string_view file =
        file_input ? reviewer::sdk::js::trim(file_input->value) : std::string_view("package.json");
    const reviewer::sdk::Location file_at =
        file_input ? file_input->location : step.uses_location();
    const auto read =
        pnpm_common::package_manager_of(decision, "package-json-file", file, file_at, "pnpm/setup");
    if (!read) {
      return false;
    }
    if (!read->version.starts_with("pnpm@")) {
      return true;
    }
    std::string named = read->version.substr(5);
    named = named.substr(0, named.find('+'));
    if (named != spec) {
      decision.refuse("pnpm-version-conflict",
                      "pnpm/setup 'version' is '" + reviewer::sdk::printable(spec) + "' and " +
                          read->where.file + " packageManager is '" +
                          reviewer::sdk::printable(read->version) +
                          "': the action fails the step (\"Multiple versions of pnpm "
                          "specified\"); remove one of them",
                      version.location);
      return false;
    }
    return true;
  }

  // The action's install, from the view: pnpm at its exact version or, for a range, the release
  // the host resolved (package-managers/ranges: "pnpm<TAB>SPEC<TAB>VERSION"), unpacked under
  // dest; dest/node_modules/.bin on the later steps' PATH (core.addPath); the runtime the image
  // carries, checked; then `pnpm install [--no-runtime]` in the workspace when package.json
  // exists, as the action runs it. The outputs are the action's: dest, bin-dest, the runtime's name
  // and the version as the input spelled it (the action reports the request, not the release).
  // PNPM_HOME is not written: GITHUB_ENV may not set PNPM_* names
  // here (docs/fidelity.md).
  static constexpr std::string_view kInstall = R"SH(
view=/var/cache/reviewer-deps/package-managers
spec="$INPUT_VERSION"
version=$(awk -F '\t' -v s="$spec" '$1 == "pnpm" && $2 == s { print $3 }' "$view/ranges" 2>/dev/null)
[ -n "$version" ] || version="$spec"
case "$version" in
  "" | *[!0-9A-Za-z.-]*) echo "pnpm/setup: pnpm '$spec' was not resolved by the host"; exit 3 ;;
esac
tarball="$view/pnpm-$version.tgz"
if [ ! -f "$tarball" ]; then
  echo "pnpm/setup: pnpm $version is not in the review's dependency view ($tarball)"
  exit 3
fi
who=pnpm/setup
)SH";
  // After the unpack (pnpm-common/unpack_pnpm.h).
  static constexpr std::string_view kInstalled = R"SH(
runtime=$(printf '%s' "$INPUT_RUNTIME" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
printf 'dest=%s\nbin-dest=%s\nruntime-name=node\nruntime-version=%s\n' \
  "$dest" "$dest/node_modules/.bin" "${runtime#*@}" >> "$GITHUB_OUTPUT"
echo "pnpm $version (for '$spec') from the review's dependency view (verified by the host) in $dest"
echo "Installation Completed!"
echo "Runtime ${INPUT_RUNTIME}: the image's node $(node --version), selected by this step's pin"
case "$INPUT_INSTALL" in true | True | TRUE) ;; *) exit 0 ;; esac
if [ ! -e "$GITHUB_WORKSPACE/$INPUT_PACKAGE_JSON_FILE" ]; then
  echo "No $INPUT_PACKAGE_JSON_FILE found in workspace; skipping \`pnpm install\`."
  exit 0
fi
args=install
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
if [ "$major" -gt 11 ] || { [ "$major" -eq 11 ] && [ "$minor" -ge 1 ]; }; then
  args="install --no-runtime"
fi
echo "Running pnpm $args..."
cd "$GITHUB_WORKSPACE" || exit 1
PATH="$dest/node_modules/.bin:$PATH" pnpm $args
status=$?
if [ "$status" -ne 0 ]; then
  echo "pnpm install exited with status $status"
  exit 1
fi
)SH";
};

}  // namespace

REVIEWER_PLUGIN(PnpmSetup, kClaim);
