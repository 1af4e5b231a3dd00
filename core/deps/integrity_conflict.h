#pragma once

#include <string>

#include "core/deps/fetch.h"
#include "core/util/result.h"

namespace reviewer::deps {

// The tarball a registry URL names: the URL with its path's "." and empty segments dropped, as
// curl asks for "a/./b" as "a/b" (a checked tarball URL holds no "..", '%', '?' or '#'), so
// spellings of one URL are one tarball. The registry path itself is the package's name and
// version ("<name>/-/<base>-<version>.tgz"): name@version from the lock is not used, since an
// npm alias installs another package's tarball under its own name.
std::string tarball_identity(const std::string& url);

// Refuses a list that names one tarball (tarball_identity) with two integrities: each entry that
// pins it with another integrity than the first entry naming it is refused by name,
// `dependency-integrity-conflict`. A registry serves one set of bytes for a tarball, so at most
// one of them can verify; fetching it once per integrity would only multiply what one URL writes
// to the host's disk.
util::Status check_one_integrity_per_url(const FetchList& list);

}  // namespace reviewer::deps
