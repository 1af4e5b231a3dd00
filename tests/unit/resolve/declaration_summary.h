#pragma once

#include <string>
#include <vector>

#include "core/resolve/declaration.h"

namespace reviewer::resolve::testing {

// "tool value [range] source @location" for each declaration, then "rule: message @location"
// for each refusal: the whole diagnostic, so a test asserts every word of it.
inline std::vector<std::string> summary(const DeclarationSet& set) {
  std::vector<std::string> out;
  for (const auto& d : set.declarations) {
    out.push_back(d.tool + " " + d.value + " [" +
                  (d.range.to_string().empty() ? "*" : d.range.to_string()) + "] " + d.source +
                  " @" + d.location.to_string());
  }
  for (const auto& r : set.refusals) {
    out.push_back(r.rule + ": " + r.message + (r.location ? " @" + r.location->to_string() : ""));
  }
  return out;
}

using Lines = std::vector<std::string>;

}  // namespace reviewer::resolve::testing
