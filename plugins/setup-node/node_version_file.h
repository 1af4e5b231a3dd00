// actions/setup-node's reading of `node-version-file`, reproduced over the repository's files
// (docs/resolver.md, "Version files named by a step").
#pragma once

#include <reviewer/sdk/repository_file.hpp>

namespace setup_node {

// Which release's reader: v3's parseNodeVersionFile, v4.4.0 to v6.2.0's getNodeVersionFromFile,
// or v6.3.0 and later's, which adds devEngines.runtime.
enum class NodeFileRules { kV3, kV4, kDevEngines };

// actions/setup-node's getNodeVersionFromFile (src/util.ts), which every reviewed release from
// v4.4.0 reads `node-version-file` with; v6.3.0 added devEngines.runtime (kDevEngines).
// `file.path` is joined to the workspace as path.join does and the file read through `read`
// (reviewer/sdk/repository_file.hpp). Then, as the action reads it:
//   - text JSON.parse reads as an object or array is a manifest: `volta.node`, then the entry of
//     `devEngines.runtime` (an object or an array of them) named `node` in any case that has a
//     version (kDevEngines only), then `engines.node`, then the file `volta.extends` names
//     (path.resolve from the manifest's directory), read the same way. The first of them
//     JavaScript finds truthy is the version and must be a string. None: "" (the action warns
//     and installs nothing);
//   - any other text (.nvmrc, .node-version, .tool-versions, a JSON scalar, a file beginning
//     with a byte-order mark, which JSON.parse rejects): the first line matching
//     /^(?:node(js)?\s+)?v?(?<version>[^\s]+)$/m, else the whole text, trimmed.
// The version is returned as the action takes it, not checked: aliases and ranges are the
// caller's to judge. Refused where the action fails the step or its reading cannot be told:
// version-file-outside, version-file-missing, and invalid-declaration for a file the host may not
// read (a link, not a regular file, over its bound), text that starts as JSON ('{' or '[') but
// does not parse here, a version that is not a string, a devEngines.runtime entry the action's
// reader throws on (null, a name that is not a string: the action then reads the manifest as
// text), a volta.extends that is not a string or chains more than 8 files.
// v3.x's parseNodeVersionFile (kV3) reads a manifest's volta.node, then engines.node, and
// otherwise reads the JSON text line by line as any other text, which gives a line of the JSON
// ("{") that the action then fails to install: refused as invalid-declaration, where v4 and later
// follow volta.extends or warn and install nothing.
reviewer::sdk::FileResult<reviewer::sdk::FileVersion> read_node_version_file(
    const reviewer::sdk::NamedFile& file, NodeFileRules rules,
    const reviewer::sdk::RepositoryReader& read);

}  // namespace setup_node
