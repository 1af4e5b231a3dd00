#pragma once

#include <string>

namespace reviewer::host {

// A process as the host names what it leaves on the machine (an engine label, a file in a scratch
// directory): "PID:START", its id and its start time in clock ticks after boot (/proc/PID/stat's
// 22nd field), so a later process that reuses the id is not taken for it.
std::string process_identity(int pid);
// This process's identity.
std::string this_process_identity();

// Whether the process `identity` names still runs: false for a malformed identity, a pid that is
// gone, or one now held by a process that started at another time.
bool process_alive(const std::string& identity);

}  // namespace reviewer::host
