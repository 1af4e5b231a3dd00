#include "core/host/host_identity.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace reviewer::host {
namespace {

// The 22nd field of /proc/PID/stat, read after the command name's closing parenthesis (a name may
// hold spaces and parentheses itself); empty when the process is gone.
std::string start_time(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), {});
  const auto close = stat.rfind(')');
  if (close == std::string::npos) {
    return "";
  }
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  // Fields 3 (state) to 22 (starttime).
  for (int n = 3; n <= 22 && fields >> field; ++n) {
    if (n == 22) {
      return field;
    }
  }
  return "";
}

}  // namespace

std::string process_identity(int pid) {
  const std::string start = start_time(pid);
  return start.empty() ? "" : std::to_string(pid) + ":" + start;
}

std::string this_process_identity() { return process_identity(static_cast<int>(::getpid())); }

bool process_alive(const std::string& identity) {
  const auto colon = identity.find(':');
  if (colon == std::string::npos || colon == 0 || colon > 7 ||
      identity.find_first_not_of("0123456789:") != std::string::npos) {
    return false;
  }
  const long pid = std::stol(identity.substr(0, colon));
  return pid > 0 && pid < (1L << 22) && process_identity(static_cast<int>(pid)) == identity;
}

}  // namespace reviewer::host
