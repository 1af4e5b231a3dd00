#include "core/resolve/pnpm_action_version_file.h"

#include <nlohmann/json.hpp>

#include "core/resolve/declaration.h"
#include "core/resolve/package_json.h"
#include "core/resolve/safe_file.h"

namespace reviewer::resolve {
namespace {

using nlohmann::json;

constexpr std::string_view kFails = "; pnpm/action-setup throws on it and the step fails";

}  // namespace

util::Result<FileVersion> read_pnpm_action_package_json(const NamedFile& file,
                                                        const RepositoryReader& read) {
  auto path = join_in_workspace(file);
  if (!path) {
    return path.refusals();
  }
  auto text =
      read_version_file(read, *path, "'" + file.input + "' " + quote(file.path), file.location, "");
  if (!text) {
    // v4.0.0 swallows ENOENT and goes on without a packageManager; whether that is enough is the
    // plugin's to decide (it is with a `version` input).
    if (text.error().kind == util::RefusalKind::kAbsent) {
      return FileVersion{"", util::SourceLocation{*path}};
    }
    return text.refusals();
  }
  const util::SourceLocation here{*path};
  if (text->starts_with("\xEF\xBB\xBF")) {
    return invalid_declaration(
        *path + " begins with a byte-order mark, which JSON.parse rejects" + std::string(kFails),
        here);
  }
  auto doc = parse_json(*text, *path);
  if (!doc) {
    return invalid_declaration(doc.error().message + std::string(kFails), here);
  }
  if (doc->is_null()) {
    return invalid_declaration(
        *path + " holds null, which the action cannot destructure" + std::string(kFails), here);
  }
  // `({ packageManager } = value)`: any other non-object (a number, an array) has no such member.
  if (!doc->is_object()) {
    return FileVersion{"", here};
  }
  const auto pm = doc->find("packageManager");
  if (pm == doc->end() || !pm->is_string()) {
    return FileVersion{"", here};
  }
  const std::string& value = pm->get_ref<const std::string&>();
  const std::size_t at = text->find(json(value).dump());
  return FileVersion{value, at == std::string::npos ? here : location_in(*text, at + 1, *path)};
}

}  // namespace reviewer::resolve
