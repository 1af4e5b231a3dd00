#include "core/git/index_tree.h"

#include <cstring>
#include <string>
#include <string_view>

namespace reviewer::git::detail {
namespace {

// The mode a tree entry gets for an index entry's, or nullptr when the HEAD comparison would not
// read it as that tree entry. Regular files are normalised as that comparison does.
const char* tree_mode(std::uint32_t mode) {
  switch (mode & 0170000) {
    case 0100000:
      return (mode & 0100) != 0 ? "100755" : "100644";
    case 0120000:
      return mode == 0120000 ? "120000" : nullptr;
    case 0160000:
      return mode == 0160000 ? "160000" : nullptr;
    default:
      return nullptr;
  }
}

// The tree of entries [lo, hi), which all start with a directory prefix of `skip` bytes. The
// index's path order is the order git sorts tree entries in (a directory as its name and '/').
bool tree_of(const IndexEntries& index, size_t lo, size_t hi, size_t skip, git_oid* out) {
  std::string body;
  for (size_t i = lo; i < hi;) {
    const git_index_entry* e = index.at(i);
    if (GIT_INDEX_ENTRY_STAGE(e) != 0) {
      return false;
    }
    const std::string_view rest = std::string_view(e->path).substr(skip);
    const size_t slash = rest.find('/');
    if (slash == 0 || rest.empty()) {
      return false;
    }
    git_oid id;
    const char* mode = nullptr;
    const std::string_view name = rest.substr(0, slash);
    size_t next = i + 1;
    if (slash == std::string_view::npos) {
      mode = tree_mode(e->mode);
      if (mode == nullptr) {
        return false;
      }
      id = e->id;
    } else {
      while (next < hi) {
        const std::string_view p = std::string_view(index.at(next)->path);
        if (p.size() <= skip + slash ||
            p.compare(skip, slash + 1, rest.substr(0, slash + 1)) != 0) {
          break;
        }
        ++next;
      }
      if (!tree_of(index, i, next, skip + slash + 1, &id)) {
        return false;
      }
      mode = "40000";
    }
    body.append(mode).append(1, ' ').append(name).append(1, '\0');
    body.append(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ);
    i = next;
  }
  return git_odb_hash(out, body.data(), body.size(), GIT_OBJECT_TREE) == 0;
}

}  // namespace

bool index_tree_id(const IndexEntries& index, git_oid* out) {
  return tree_of(index, 0, index.size(), 0, out);
}

}  // namespace reviewer::git::detail
