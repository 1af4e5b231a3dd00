#include "package_manager_file.h"

#include "../json-common/parse_json.h"

namespace pnpm_common {
namespace {

using reviewer::sdk::FileVersion;
using reviewer::sdk::invalid_declaration;
using reviewer::sdk::Place;

constexpr std::string_view kFails = "; pnpm/action-setup throws on it and the step fails";

}  // namespace

reviewer::sdk::FileResult<FileVersion> read_package_manager(
    const reviewer::sdk::NamedFile& file, const reviewer::sdk::RepositoryReader& read) {
  auto path = reviewer::sdk::join_in_workspace(file);
  if (!path) {
    return path.refusal();
  }
  auto text = reviewer::sdk::read_version_file(
      read, *path, "'" + file.input + "' " + reviewer::sdk::in_quotes(file.path), file.where, "");
  if (!text) {
    // v4.0.0 swallows ENOENT and goes on without a packageManager; whether that is enough is the
    // plugin's to decide (it is with a `version` input).
    if (text.refusal().missing) {
      return FileVersion{"", Place{*path}};
    }
    return text.refusal();
  }
  const Place here{*path};
  if (text->starts_with("\xEF\xBB\xBF")) {
    return invalid_declaration(
        *path + " begins with a byte-order mark, which JSON.parse rejects" + std::string(kFails),
        here);
  }
  auto doc = json_common::parse_json(*text, *path);
  if (!doc) {
    return invalid_declaration(doc.refusal().message + std::string(kFails), here);
  }
  if (doc->is_null()) {
    return invalid_declaration(
        *path + " holds null, which the action cannot destructure" + std::string(kFails), here);
  }
  // `({ packageManager } = value)`: any other non-object (a number, an array) has no such member.
  const nlohmann::json* pm = json_common::member(&*doc, "packageManager");
  if (pm == nullptr || !pm->is_string()) {
    return FileVersion{"", here};
  }
  const std::string& value = pm->get_ref<const std::string&>();
  const std::size_t at = text->find(nlohmann::json(value).dump());
  return FileVersion{
      value, at == std::string::npos ? here : reviewer::sdk::location_in(*text, at + 1, *path)};
}

std::optional<FileVersion> package_manager_of(const reviewer::sdk::PlanDecision& decision,
                                              std::string_view input, std::string_view path,
                                              const reviewer::sdk::Location& where,
                                              std::string_view who) {
  if (!decision.reads_repository_files()) {
    decision.refuse("action-input-refused",
                    std::string(who) + " needs a host that reads package.json (SDK 1.11)", where);
    return std::nullopt;
  }
  auto read = read_package_manager({std::string(input), std::string(path),
                                    Place{std::string(where.file), where.line, where.column}},
                                   reviewer::sdk::repository_reader(decision, where));
  if (!read) {
    decision.refuse(read.refusal().rule, read.refusal().message, read.refusal().where.location());
    return std::nullopt;
  }
  return std::move(*read);
}

}  // namespace pnpm_common
