#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/credentials/credential_scan.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::credentials {

// The home directories /etc/passwd text names (the sixth field), absolute ones only, in order.
std::vector<std::string> passwd_homes(std::string_view passwd);

// True for a directory of the operating system itself ("/", /bin, /sbin, /usr, /lib*, /dev,
// /proc, /sys, /boot and below). Service accounts name these as their home (bin has /bin, sys
// /dev, systemd-network /); their credential files are checked, their trees are not read.
bool is_system_tree(std::string_view dir);

// The roots of the running image for `environments`: as homes, each environment's HOME, /root,
// every entry of /home and every home in /etc/passwd; each $XDG_CONFIG_HOME; /etc; /run,
// /var/run and each $XDG_RUNTIME_DIR; and for content the homes that are not system trees, the
// config homes and /etc.
ScanRoots image_scan_roots(const std::vector<ScanEnvironment>& environments);

// What `reviewer-launch --self-check` runs: scan_for_credentials over image_scan_roots with the
// launcher's environment (`process_env`) and PID 1's (`init_environ`, the NUL-separated block the
// launcher read from /proc/1/environ at its start, while it could): ok when it finds none.
util::Status find_image_credentials(char** process_env, const std::string& init_environ);

}  // namespace reviewer::credentials
