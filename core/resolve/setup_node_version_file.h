#pragma once

#include "core/resolve/named_version_file.h"

namespace reviewer::resolve {

// actions/setup-node's getNodeVersionFromFile (src/util.ts), which every reviewed release
// (v4.4.0 to v7.0.0) reads `node-version-file` with; v6.3.0 added devEngines.runtime
// (`dev_engines`). docs/resolver.md, "Version files named by a step". `file.path` is joined to the
// workspace as path.join does and the file read as hostile input (named_version_file.h). Then, as
// the action reads it:
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
util::Result<FileVersion> read_setup_node_version_file(const NamedFile& file, bool dev_engines,
                                                       const RepositoryReader& read);

}  // namespace reviewer::resolve
