#pragma once

#include <string>

namespace reviewer::util {

// Where the installed program finds its trusted files, decided at build time: the install
// prefix for an installed binary, the build tree for a binary run from the build tree's `bin/`.
// Never taken from an argument or the environment.

// The one directory plugins are loaded from (`<prefix>/plugins`).
std::string plugin_directory();

// Trusted data: the runtime matrix and the image description (`<prefix>/share/reviewer`).
std::string data_directory();

}  // namespace reviewer::util
