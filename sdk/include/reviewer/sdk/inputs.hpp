// Helpers for the commonest plan-phase job of a skipped-action plugin: checking each `with:`
// input against what the action has at the reviewed release and what values keep the skip
// equivalent. Header-only, part of the SDK.
#pragma once

#include <reviewer/sdk/claim.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/plugin.hpp>

#include <array>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace reviewer::sdk {

// How one input is treated.
struct InputSpec {
  std::string_view name;
  // Accepted values; nullptr = any literal value. Return true to accept.
  bool (*accept)(std::string_view value) = nullptr;
  // Words for the message when `accept` says no, e.g. "1 or 0".
  std::string_view expected;
  // When non-empty, the input is refused outright with this reason (rule action-input-refused).
  std::string_view refuse_reason;
  bool required = false;
  // SDK 1.1: which reviewed releases have the input, given the release tag; nullptr = all of
  // them. At another release the input is unknown (unknown-action-input).
  bool (*at_release)(std::string_view tag) = nullptr;
  // SDK 1.1: the rule a value `accept` rejects is refused under; empty = invalid-input-value.
  // strict_boolean() uses invalid-boolean-input: the real action fails the step on such a value.
  std::string_view reject_rule = {};
  // SDK 1.7: the input may be the run's GITHUB_TOKEN (StepView::is_run_token), whose value only
  // the real run has: the plugin says the value cannot change its decision. Otherwise such an
  // input is refused as expression-value-unknown.
  bool run_token = false;
  // SDK 1.11: the action reads the input with @actions/core's getInput (or getBooleanInput),
  // which trims white space first, so `accept` sees the value trimmed as the action does.
  // Composite actions paste `${{ inputs.x }}` as written: leave it false for them.
  bool trimmed = false;
  // SDK 1.11: the value the action takes when the step does not give the input (its action.yml
  // default). When set, an absent input is checked by `accept` as if it held this value, so a
  // default that does not keep the skip equivalent is refused like a written one.
  std::optional<std::string_view> absent_default = std::nullopt;
};

// An input accepted when `accept` says yes; `expected` words the accepted values.
constexpr InputSpec accepted(std::string_view name, bool (*accept)(std::string_view),
                             std::string_view expected, bool required = false) {
  return InputSpec{name, accept, expected, {}, required};
}
// An input accepted with any literal value.
constexpr InputSpec any_value(std::string_view name, bool required = false) {
  return InputSpec{name, nullptr, {}, {}, required};
}
// An input refused outright, with the reason.
constexpr InputSpec refused(std::string_view name, std::string_view reason) {
  return InputSpec{name, nullptr, {}, reason, false};
}
// SDK 1.1: `spec`, for an input only the releases `at_release` says yes to have.
constexpr InputSpec only_at(InputSpec spec, bool (*at_release)(std::string_view tag)) {
  spec.at_release = at_release;
  return spec;
}

// SDK 1.11: `spec`, whose absence means the action's default `value` (InputSpec::absent_default).
constexpr InputSpec defaults_to(InputSpec spec, std::string_view value) {
  spec.absent_default = value;
  return spec;
}

// SDK 1.11: every input of `specs` read as @actions/core's getInput reads it, trimmed
// (InputSpec::trimmed): for a JavaScript action that reads all its inputs that way.
template <std::size_t N>
constexpr std::array<InputSpec, N> read_by_get_input(std::array<InputSpec, N> specs) {
  for (auto& spec : specs) {
    spec.trimmed = true;
  }
  return specs;
}

// SDK 1.7: `spec`, which may also be the run's GITHUB_TOKEN (see InputSpec::run_token).
constexpr InputSpec or_run_token(InputSpec spec) {
  spec.run_token = true;
  return spec;
}

// The strings @actions/core's getBooleanInput accepts (YAML 1.2 core schema).
inline bool is_strict_true(std::string_view v) { return v == "true" || v == "True" || v == "TRUE"; }
inline bool is_strict_false(std::string_view v) {
  return v == "false" || v == "False" || v == "FALSE";
}
inline bool is_strict_boolean(std::string_view v) {
  return is_strict_true(v) || is_strict_false(v);
}

// SDK 1.1: an input the action reads with getBooleanInput, which throws (the step fails) on any
// value outside true|True|TRUE|false|False|FALSE: refused as invalid-boolean-input.
constexpr InputSpec strict_boolean(std::string_view name) {
  InputSpec spec = accepted(name, &is_strict_boolean,
                            "true, True, TRUE, false, False or FALSE (getBooleanInput fails the "
                            "step on anything else)");
  spec.reject_rule = "invalid-boolean-input";
  return spec;
}

// SDK 1.1: for actions that read a boolean as `value.toUpperCase() === 'TRUE'` (or lower-case
// "true"), which never fails: only a case-insensitive "true" or "false" says clearly what the
// author meant, so plugins accept those spellings and refuse the rest as unclear.
inline bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}
inline bool is_loose_boolean(std::string_view v) {
  return equals_ignoring_case(v, "true") || equals_ignoring_case(v, "false");
}
inline bool is_loose_false(std::string_view v) { return equals_ignoring_case(v, "false"); }

// SDK 1.1: `value` as a message quotes it: control characters escaped (\n, \r, \t, \xNN) and
// anything past `max` bytes cut (at a character boundary) with "...", so a refusal stays one line.
inline std::string printable(std::string_view value, std::size_t max = 80) {
  std::size_t cut = value.size();
  if (cut > max) {
    cut = max;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) {
      --cut;
    }
  }
  std::string out;
  for (char c : value.substr(0, cut)) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  if (cut < value.size()) {
    out += "...";
  }
  return out;
}

// Checks every input of `step` against `specs`, refusing through `decision`:
//   unknown-action-input    an input the action does not have at this release (`tag`, the
//                           reviewed release of the step's ref, decides InputSpec::at_release)
//   action-input-refused    an input whose effect the review cannot reproduce
//   invalid-input-value     a value outside what keeps the skip equivalent (or the spec's
//                           reject_rule, e.g. invalid-boolean-input); also an absent input
//                           whose action.yml default is outside it (InputSpec::absent_default)
//   missing-required-input  a required input that is absent, empty or only whitespace (the
//                           action's getInput trims it and fails the step)
//   expression-value-unknown  an input that is the run's GITHUB_TOKEN where the spec does not
//                           say the token's value cannot matter (InputSpec::run_token)
// Returns true when nothing was refused. `action` names the action in messages.
inline bool check_inputs(const StepView& step, std::span<const InputSpec> specs,
                         const PlanDecision& decision, std::string_view action,
                         std::string_view tag = {}) {
  bool ok = true;
  const std::string who(action);
  const std::string release = tag.empty() ? std::string() : " (" + std::string(tag) + ")";
  for (const Entry& input : step.inputs()) {
    const InputSpec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.name == input.name) {
        spec = &s;
      }
    }
    const std::string name(input.name);
    if (spec == nullptr || (spec->at_release != nullptr && !spec->at_release(tag))) {
      decision.refuse(
          "unknown-action-input",
          who + "@" + std::string(step.ref()) + release + " has no input '" + name + "'",
          input.location);
      ok = false;
    } else if (!spec->refuse_reason.empty()) {
      decision.refuse("action-input-refused",
                      who + " input '" + name + "': " + std::string(spec->refuse_reason),
                      input.location);
      ok = false;
    } else if (step.is_run_token(input.name)) {
      if (!spec->run_token) {
        decision.refuse("expression-value-unknown",
                        who + " input '" + name +
                            "' is the run's GITHUB_TOKEN, which only the real run has, and the "
                            "review cannot tell what the action does with its value",
                        input.location);
        ok = false;
      }
    } else if (spec->accept != nullptr &&
               !spec->accept(spec->trimmed ? js::trim(input.value) : input.value)) {
      decision.refuse(spec->reject_rule.empty() ? "invalid-input-value" : spec->reject_rule,
                      who + " input '" + name + "' is '" + printable(input.value) +
                          "'; accepted: " + std::string(spec->expected),
                      input.location);
      ok = false;
    }
  }
  for (const auto& s : specs) {
    if (!s.absent_default || s.accept == nullptr || step.inputs().find(s.name) ||
        (s.at_release != nullptr && !s.at_release(tag)) || s.accept(*s.absent_default)) {
      continue;
    }
    decision.refuse(s.reject_rule.empty() ? "invalid-input-value" : s.reject_rule,
                    who + " has no input '" + std::string(s.name) +
                        "', so the action takes its "
                        "default '" +
                        printable(*s.absent_default) + "'; accepted: " + std::string(s.expected),
                    step.uses_location());
    ok = false;
  }
  for (const auto& s : specs) {
    if (!s.required) {
      continue;
    }
    auto found = step.inputs().find(s.name);
    if (!found || js::trim(found->value).empty()) {
      decision.refuse(
          "missing-required-input",
          who + " requires input '" + std::string(s.name) + "'" + (found ? ", which is blank" : ""),
          found ? found->location : step.location());
      ok = false;
    }
  }
  return ok;
}

// check_inputs for the step of a claimed action: the action is named as the workflow wrote it,
// and the release is the one the claim reviewed the step's ref against (`claim.tag_of`).
template <std::size_t N>
bool check_inputs(const StepView& step, std::span<const InputSpec> specs,
                  const PlanDecision& decision, const Claim<N>& claim) {
  return check_inputs(step, specs, decision, step.action(), claim.tag_of(step.ref()));
}

}  // namespace reviewer::sdk
