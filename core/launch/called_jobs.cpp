#include "core/launch/called_jobs.h"

#include "core/plan/expression_fields.h"

namespace reviewer::launch {
namespace {

// The called workflow's `jobs` context: each finished job's result and outputs.
expr::Object jobs_object(const std::map<std::string, JobRecord>& jobs) {
  expr::Object out;
  for (const auto& [id, rec] : jobs) {
    expr::Object outputs;
    for (const auto& o : rec.outputs) {
      outputs.add(o.name, expr::Value::string(o.value));
    }
    expr::Object j;
    j.add("result", expr::Value::string(rec.result));
    j.add("outputs", expr::Value::object(std::move(outputs)));
    out.add(id, expr::Value::object(std::move(j)));
  }
  return out;
}

}  // namespace

util::Result<JobRecord> called_workflow_record(const plan::CalledWorkflow& called,
                                               const std::map<std::string, JobRecord>& jobs,
                                               const std::string& workspace) {
  JobRecord out;
  out.result = "success";
  for (const auto& [id, rec] : jobs) {
    if (rec.result == "failure") {
      out.result = "failure";
    }
  }
  expr::Object contexts;
  for (const auto& [k, v] : called.contexts.entries()) {
    contexts.add(k, v);
  }
  contexts.add("jobs", expr::Value::object(jobs_object(jobs)));
  StatusRuntime status(out.result == "success", out.result == "failure", false, workspace);
  for (const auto& o : called.outputs) {
    if (!o.run_time) {
      out.outputs.push_back(o);
      continue;
    }
    auto v = plan::evaluate_field(o.value, plan::Field::kCalledOutput, contexts, &status);
    if (!v) {
      util::Refusal r = v.error();
      r.message = "output '" + o.name + "': " + r.message;
      return r;
    }
    out.outputs.push_back({o.name, v->coerce_string(), o.location});
  }
  return out;
}

}  // namespace reviewer::launch
