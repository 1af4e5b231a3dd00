#pragma once

#include "core/launch/image_info.h"
#include "core/report/refusal.h"
#include "core/resolve/runtime_table.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Ties the image description to the trusted matrix: the image must be an image of the matrix
// (image-info-invalid otherwise, listing the images) and declare exactly that image's runtimes,
// each at the matrix's version (runtime-mismatch naming both versions; a runtime missing or one
// the matrix image does not carry is image-info-invalid). verify_runtimes then holds the
// binaries to these versions.
util::Status check_image_against_runtime_table(const ImageInfo& image,
                                               const resolve::RuntimeTable& matrix);

}  // namespace reviewer::launch
