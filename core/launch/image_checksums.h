#pragma once

#include "core/launch/image_info.h"
#include "core/report/refusal.h"
#include "core/resolve/runtime_table.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Holds every runtime the image carries to the trusted table: the file at its fixed path (read
// without following a symlink) must have the SHA-256 the table records for that tool and
// version. A mismatch, an unreadable file or a version the table does not list is
// runtime-checksum, naming the runtime, its path and both checksums.
// check_image_against_runtime_table has already tied the versions to the matrix image; this ties
// the bytes.
util::Status check_runtime_checksums(const ImageInfo& image, const resolve::RuntimeTable& matrix);

}  // namespace reviewer::launch
