#pragma once

#include <optional>
#include <string_view>

// The shapes of the runtime matrix's and the runtime catalogue's strings, as plain scanners: the
// matrix is read at every launcher start, and compiling regular expressions for it cost more than
// reading it. Each function names the pattern it checks (the whole string must match, as
// std::regex_match did).
namespace reviewer::resolve::shapes {

bool sha256_hex(std::string_view s);        // [0-9a-f]{64}
bool sha256_digest(std::string_view s);     // sha256:[0-9a-f]{64}
bool sha512_integrity(std::string_view s);  // sha512-[A-Za-z0-9+/]{86}==  (64 bytes, base64)
bool debian_name(std::string_view s);       // [a-z0-9][a-z0-9.+-]*
bool debian_version(std::string_view s);    // ([0-9]+:)?[0-9][A-Za-z0-9.+~-]*
// deb https?://deb\.debian\.org/debian(-security)? [a-z]+(-[a-z]+)? [a-z ]+
bool debian_source(std::string_view s);
// A relative path inside a package, no "." or ".." segment:
// (?!.*(^|/)\.\.?(/|$))[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*
bool package_path(std::string_view s);
bool image_name(std::string_view s);          // [a-z0-9][a-z0-9._-]{0,127}
bool platform(std::string_view s);            // linux/amd64
bool builder(std::string_view s);             // mmdebstrap
bool mmdebstrap_variant(std::string_view s);  // minbase|essential|apt|required|important|standard
bool date(std::string_view s);                // [0-9]{4}-[0-9]{2}-[0-9]{2}
// An exact version written canonically: what node-semver's valid() returns for it, unchanged
// ("22.23.5", "1.3.0-canary.1"; not "v22.23.5", "22.23.05" or "1.0.0+build").
bool canonical_version(std::string_view s);

// `((@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*)@(.+)`: an npm name, optionally scoped, then
// `@` and a version; the version (group 3), or nullopt when the shape does not match.
std::optional<std::string_view> npm_package_version(std::string_view s);
inline bool npm_package(std::string_view s) { return npm_package_version(s).has_value(); }

}  // namespace reviewer::resolve::shapes
