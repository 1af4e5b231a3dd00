// Artifact names as actions/upload-artifact and @actions/artifact treat them: the name a step
// uploads under, the characters validateArtifactName rejects, and whether two steps of one
// workflow run could upload the same name.
#pragma once

#include <reviewer/sdk/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace upload_artifact_plugin {

// validateArtifactName: why `name` (already trimmed) fails the upload, or empty.
std::string name_problem(std::string_view name);

// validateFilePath: why a path inside the artifact fails the upload (a character NTFS cannot
// hold: " : < > | * ? CR LF), or empty.
std::string file_path_problem(std::string_view path);

// The name `step` (an actions/upload-artifact or actions/upload-artifact/merge step as written)
// uploads under, `${{ }}` kept verbatim; nullopt when it cannot be known from the step (with
// `archive` other than true the artifact is named after the one file found).
std::optional<std::string> uploaded_name(const reviewer::sdk::StepView& step);

// Whether `pattern` (a name as written, in which each `${{ }}` may become any text) can evaluate
// to `name`. Errs towards yes: names are compared ignoring ASCII case.
bool may_equal(std::string_view pattern, std::string_view name);

}  // namespace upload_artifact_plugin
