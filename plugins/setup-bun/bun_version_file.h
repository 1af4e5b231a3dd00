// oven-sh/setup-bun's reading of `bun-version-file`, reproduced over the repository's files
// (docs/resolver.md, "Version files named by a step").
#pragma once

#include <reviewer/sdk/repository_file.hpp>

namespace setup_bun {

// oven-sh/setup-bun's readVersionFromFile (src/utils.ts), identical from v2.0.2 to v2.2.0 but for
// package.json's `engines.bun`, read from v2.1.0 on (`engines_bun`). `file.path` is resolved as
// path.resolve does from the workspace and the file read through `read`
// (reviewer/sdk/repository_file.hpp); the reader is chosen by its base name, as the action
// chooses it:
//   - package.json: the text after the first "bun@" in `packageManager` (up to a second one),
//     else `engines.bun` (`engines_bun`);
//   - .tool-versions: the rest of the first line beginning with "bun" (after white space, which
//     may run over line ends), /^bun\s*(?<version>.*?)$/m;
//   - .bun-version and .bumrc: the whole text.
// The version is trimmed, as the action trims it ("" when there is none: the action then warns
// and falls back), and returned unchecked: ranges and aliases are the caller's to judge.
// Refused: version-file-unsupported (any other base name: the action ignores the file),
// version-file-outside (an absolute path, or one leaving the workspace), version-file-missing,
// and invalid-declaration for a file the host may not read (a link, not a regular file, over its
// bound) and a package.json the action's reader throws on (not JSON, a byte-order mark, null, a
// `packageManager` or `engines.bun` that is not a string): it then warns and installs another
// bun.
reviewer::sdk::FileResult<reviewer::sdk::FileVersion> read_bun_version_file(
    const reviewer::sdk::NamedFile& file, bool engines_bun,
    const reviewer::sdk::RepositoryReader& read);

}  // namespace setup_bun
