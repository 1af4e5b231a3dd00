#include "core/plan/env_rules.h"

#include <algorithm>
#include <unordered_map>

#include "core/plan/expression_fields.h"
#include "core/workflow/env_policy.h"
#include "core/workflow/expression.h"
#include "core/workflow/scalar_typing.h"

namespace reviewer::plan {

std::vector<workflow::Entry> read_env(const yaml::Node& env, const std::string& where,
                                      const ValueSite& site, Findings& f) {
  std::vector<workflow::Entry> out;
  if (env.is_scalar() && workflow::contains_expression(env.scalar)) {
    f.refuse("expression-in-env",
             where + " 'env' is one expression (a mapping computed at run time)", env);
    return out;
  }
  if (!env.is_mapping()) {
    if (!env.is_null()) {
      f.refuse("invalid-env", where + " 'env' must be a mapping", env);
    }
    return out;
  }
  out.reserve(env.entries.size());
  for (const auto& [key, value] : env.entries) {
    bool ok = true;
    std::string text;
    if (value.is_scalar()) {
      text = value.scalar;
    } else if (!value.is_null()) {
      f.refuse("invalid-env", where + " env " + quote(key.scalar) + " must be a literal string",
               value);
      ok = false;
    }
    if (value.is_scalar() && value.plain) {
      auto read = workflow::read_plain_scalar(text);
      if (read.refusal) {
        f.refuse("retyped-scalar",
                 where + " env " + quote(key.scalar) + " is the unquoted " + quote(text) + ": " +
                     *read.refusal + "; quote it to keep the text",
                 value);
        ok = false;
      }
      text = std::move(read.text);
    }
    bool run_time = false;
    if (ok && workflow::contains_expression(text)) {
      auto v = read_field(text, site.field, site.contexts, site.run_time_allowed,
                          where + " env " + quote(key.scalar), value.location, f);
      if (!v) {
        ok = false;
      } else if (v->run_time) {
        run_time = true;
      } else {
        text = v->value->coerce_string();
      }
    }
    // A run-time value is checked again by the launcher once known; here, by its name alone.
    if (auto verdict = run_time || !ok ? workflow::check_env_name(key.scalar)
                                       : workflow::check_env_entry(key.scalar, text)) {
      f.refuse(verdict->rule, where + " env " + quote(key.scalar) + " " + verdict->reason, key);
      ok = false;
    }
    if (ok) {
      out.push_back({key.scalar, text, key.location, run_time});
    }
  }
  return out;
}

std::vector<workflow::Entry> overlay_env(std::vector<workflow::Entry> base,
                                         const std::vector<workflow::Entry>& top) {
  if (top.empty()) {
    return base;
  }
  // A workflow env may hold tens of thousands of names: index them rather than search per name.
  std::unordered_map<std::string, std::size_t> index;
  index.reserve(base.size() + top.size());
  for (std::size_t i = 0; i < base.size(); ++i) {
    index.emplace(base[i].name, i);
  }
  for (const auto& e : top) {
    auto [it, added] = index.emplace(e.name, base.size());
    if (added) {
      base.push_back(e);
    } else {
      base[it->second] = e;
    }
  }
  return base;
}

}  // namespace reviewer::plan
