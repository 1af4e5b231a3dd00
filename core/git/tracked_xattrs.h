#pragma once

// Internal to core/git. guards.h holds the pin, so the index is only declared here, not
// included: nothing outside core/git sees libgit2's headers.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

class IndexEntries;

// The user extended attributes (`user.*`) of every tracked path: path -> name -> SHA-256 of the
// value. Paths without any are left out. Read through the parent directory's descriptor (opened
// without following links) and /proc/self/fd, never following the entry itself nor opening it,
// so a FIFO cannot block the read. Git carries no extended attributes, so a clone has none that
// git wrote; a job that sets one hands state to the next.
using XattrPin = std::map<std::string, std::map<std::string, std::string>>;
XattrPin tracked_xattrs(const IndexEntries& index, const std::string& worktree);

// Which inode stood at each tracked path when the attributes were pinned, for the paths whose
// ctime predated the pin. Setting or removing an attribute stamps the inode's ctime, as does
// every rename or link of it, so an inode still at its path with that ctime has the attributes
// it had at the pin, and they need not be listed again. Inode numbers are only reused for new
// inodes, whose ctime is later.
struct SettledInodes {
  std::string paths;                // every index path at the pin, each ended by '\0'
  std::uint64_t dev = 0;            // the worktree's device
  std::vector<std::uint64_t> inos;  // by index position; 0: not settled, always listed
};

// tracked_xattrs, also recording into `settled` the inode of every path whose ctime is before
// `settled_before_ns` (the pin time on the coarse clock).
XattrPin tracked_xattrs(const IndexEntries& index, const std::string& worktree,
                        std::int64_t settled_before_ns, SettledInodes& settled);

// The attributes now: `pin`'s for each path whose inode is still the settled one of
// `at_pin` (`dev` and `inos` by index position: what the status walk saw, 0 when its ctime was
// not before the pin), listed afresh for every other path. Everything is listed when the
// index's paths are not those of the pin.
XattrPin tracked_xattrs_since(const IndexEntries& index, const std::string& worktree,
                              const XattrPin& pin, const SettledInodes& at_pin, std::uint64_t dev,
                              const std::vector<std::uint64_t>& inos);

// `tracked-xattr` for each user extended attribute of a tracked path set, changed or removed
// since `pin` (the first job's).
util::Status compare_xattrs(const XattrPin& now, const XattrPin& pin);

}  // namespace reviewer::git::detail
