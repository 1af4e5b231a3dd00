// Helpers for the commonest plan-phase job of a skipped-action plugin: checking each `with:`
// input against what the action has at the reviewed release and what values keep the skip
// equivalent. Header-only, part of the SDK.
#pragma once

#include <reviewer/sdk/plugin.hpp>

#include <initializer_list>
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

// The strings @actions/core's getBooleanInput accepts (YAML 1.2 core schema).
inline bool is_strict_true(std::string_view v) { return v == "true" || v == "True" || v == "TRUE"; }
inline bool is_strict_false(std::string_view v) {
  return v == "false" || v == "False" || v == "FALSE";
}
inline bool is_strict_boolean(std::string_view v) {
  return is_strict_true(v) || is_strict_false(v);
}

// Checks every input of `step` against `specs`, refusing through `decision`:
//   unknown-action-input    an input the action does not have at this release
//   action-input-refused    an input whose effect the review cannot reproduce
//   invalid-input-value     a value outside what keeps the skip equivalent
//   missing-required-input  a required input that is absent or empty
// Returns true when nothing was refused. `action` names the action in messages.
inline bool check_inputs(const StepView& step, std::span<const InputSpec> specs,
                         const PlanDecision& decision, std::string_view action) {
  bool ok = true;
  const std::string who(action);
  for (const Entry& input : step.inputs()) {
    const InputSpec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.name == input.name) spec = &s;
    }
    const std::string name(input.name);
    if (spec == nullptr) {
      decision.refuse("unknown-action-input",
                      who + "@" + std::string(step.ref()) + " has no input '" + name + "'",
                      input.location);
      ok = false;
    } else if (!spec->refuse_reason.empty()) {
      decision.refuse("action-input-refused",
                      who + " input '" + name + "': " + std::string(spec->refuse_reason),
                      input.location);
      ok = false;
    } else if (spec->accept != nullptr && !spec->accept(input.value)) {
      decision.refuse("invalid-input-value",
                      who + " input '" + name + "' is '" + std::string(input.value) +
                          "'; accepted: " + std::string(spec->expected),
                      input.location);
      ok = false;
    }
  }
  for (const auto& s : specs) {
    if (!s.required) continue;
    auto found = step.inputs().find(s.name);
    if (!found || found->value.empty()) {
      decision.refuse("missing-required-input",
                      who + " requires input '" + std::string(s.name) + "'", step.location());
      ok = false;
    }
  }
  return ok;
}

// The release tag `ref` was reviewed against, from the plugin's own list; empty if unknown.
inline std::string_view reviewed_tag(std::span<const reviewer_reviewed_ref> refs,
                                     std::string_view ref) {
  for (const auto& r : refs) {
    if (ref == r.sha) return r.tag;
  }
  return {};
}

}  // namespace reviewer::sdk
