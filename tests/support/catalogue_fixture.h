#pragma once

#include <string>

#include "core/resolve/runtime_catalogue.h"

// Catalogues built in code for the tests and benchmarks of what reads one, so that they hold
// the logic alone, not the file's reader.
namespace reviewer::test_support {

// One release as the catalogue records it; checksums are left empty, as nothing here checks
// them.
inline resolve::CatalogueRelease catalogue_release(std::string version, std::string date,
                                                   std::string npm = {},
                                                   std::string corepack = {}) {
  resolve::CatalogueRelease r;
  r.version = std::move(version);
  r.date = std::move(date);
  r.npm = std::move(npm);
  r.corepack = std::move(corepack);
  return r;
}

// Node's release lines 18 to 27 as the Release working group schedules them (node-releases
// 2.0.67), under `source`.
inline resolve::NodeSchedule node_schedule(std::string source) {
  return {std::move(source),
          {{18, "2022-04-19", "2022-10-25", "Hydrogen"},
           {20, "2023-04-18", "2023-10-24", "Iron"},
           {22, "2024-04-24", "2024-10-29", "Jod"},
           {24, "2025-05-06", "2025-10-28", "Krypton"},
           {25, "2025-10-15", "", ""},
           {26, "2026-05-05", "2026-10-28", "Lithium"},
           {27, "2027-04-22", "2027-10-20", ""}}};
}

}  // namespace reviewer::test_support
