#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::plugins {

// The exported dynamic symbols defined in section `section` of the ELF64 shared object open at
// `fd`, read without loading it. Every offset is bounds-checked; a file that is not a
// little-endian x86-64 ELF64 shared object is an error (plugin-malformed).
//
// Why not Boost.DLL's library_info (the architecture's first choice): Boost 1.74's ELF reader
// takes the last SHT_STRTAB section as the symbol names' table, ignoring sh_link, and does not
// bound st_name. On ordinary plugins it returned garbage names ("r" for "reviewer_plugin_v1"),
// and on a hostile file it reads out of bounds. tests/unit/plugins shows the case.
util::Result<std::vector<std::string>> section_symbols(int fd, const std::string& section,
                                                       const std::string& name_for_errors);

}  // namespace reviewer::plugins
