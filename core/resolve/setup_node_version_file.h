#pragma once

#include "core/resolve/named_version_file.h"

namespace reviewer::resolve {

// Which release's reader: v3's parseNodeVersionFile, v4.4.0 to v6.2.0's getNodeVersionFromFile,
// or v6.3.0 and later's, which adds devEngines.runtime.
enum class SetupNodeRules { kV3, kV4, kDevEngines };

// actions/setup-node's getNodeVersionFromFile (src/util.ts), which every reviewed release from
// v4.4.0 reads `node-version-file` with; v6.3.0 added devEngines.runtime (kDevEngines).
// docs/resolver.md, "Version files named by a step". `file.path` is joined to the workspace as
// path.join does and the file read as hostile input (named_version_file.h). Then, as the action
// reads it:
//   - text JSON.parse reads as an object or array is a manifest: `volta.node`, then the entry of
//     `devEngines.runtime` (an object or an array of them) named `node` in any case that has a
//     version (`dev_engines` only), then `engines.node`, then the file `volta.extends` names
//     (path.resolve from the manifest's directory), read the same way. The first of them
//     JavaScript finds truthy is the version and must be a string. None: "" (the action warns
//     and installs nothing);
//   - any other text (.nvmrc, .node-version, .tool-versions, a JSON scalar, a file beginning
//     with a byte-order mark, which JSON.parse rejects): the first line matching
//     /^(?:node(js)?\s+)?v?(?<version>[^\s]+)$/m, else the whole text, trimmed.
// The version is returned as the action takes it, not checked: aliases and ranges are the
// caller's to judge. Refused where the action fails the step or its reading cannot be told:
// version-file-outside, version-file-missing, and invalid-declaration for a link, a non-regular
// or oversized file, text that starts as JSON ('{' or '[') but does not parse here, a version
// that is not a string, a devEngines.runtime entry the action's reader throws on (null, a name
// that is not a string: the action then reads the manifest as text), a volta.extends that is not
// a string or chains more than 8 files.
// v3.x's parseNodeVersionFile (kV3) reads a manifest's volta.node, then engines.node, and
// otherwise reads the JSON text line by line as any other text, which gives a line of the JSON
// ("{") that the action then fails to install: refused as invalid-declaration, where v4 and later
// follow volta.extends or warn and install nothing.
util::Result<FileVersion> read_setup_node_version_file(const NamedFile& file, SetupNodeRules rules,
                                                       const RepositoryReader& read);

}  // namespace reviewer::resolve
