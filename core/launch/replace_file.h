#pragma once

#include <string>
#include <string_view>

#include "core/util/result.h"

namespace reviewer::launch {

// Puts `text` at `name` in the open directory `dir_fd`, mode 0644, without writing through or
// into whatever is there: a new temporary file in the same directory (O_EXCL, no link followed)
// renamed over `name`. That replaces a read-only file, a symbolic link or a FIFO, and fails on a
// directory. Errors carry report-unwritable and show the file as `shown`.
util::Status replace_file_at(int dir_fd, const std::string& name, std::string_view text,
                             const std::string& shown);

}  // namespace reviewer::launch
