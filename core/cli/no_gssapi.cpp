// The GSS-API of the launcher: one with no mechanism. libgit2's HTTP transport calls these for
// the Negotiate (Kerberos, SPNEGO) authentication a server may offer, and the launcher links
// libgit2 statically (cmake/ReviewerSystemLibraries.cmake); Debian ships no static Kerberos,
// and linking the shared one would map the six objects of MIT Kerberos at every start.
//
// The launcher makes no HTTP request: libgit2 only reads the local worktree, and the sandbox has
// no network. Were Negotiate offered all the same, libgit2 finds no mechanism and fails with
// "negotiate authentication is not supported" (tests/unit/launch/launcher_link.sh).
//
// Signatures as RFC 2744 gives them; every handle is a pointer, every status an OM_uint32.

#include <cstdint>

namespace {
using OM_uint32 = std::uint32_t;
// RFC 2744, 3.9.1: GSS_S_UNAVAILABLE is routine error 16, in bits 16-23.
constexpr OM_uint32 kUnavailable = 16U << 16;

OM_uint32 no_mechanism(OM_uint32* minor_status) {
  if (minor_status != nullptr) *minor_status = 0;
  return kUnavailable;
}

// Nothing is ever allocated, so releasing is only clearing the caller's handle.
template <typename Handle>
OM_uint32 release(OM_uint32* minor_status, Handle* handle) {
  if (minor_status != nullptr) *minor_status = 0;
  if (handle != nullptr) *handle = Handle{};
  return 0;
}

struct Buffer {
  std::size_t length;
  void* value;
};
}  // namespace

extern "C" {
void* GSS_C_NT_HOSTBASED_SERVICE = nullptr;

// GSS_S_COMPLETE with no set at all: the mechanism list is empty.
OM_uint32 gss_indicate_mechs(OM_uint32* minor_status, void** mech_set) {
  if (minor_status != nullptr) *minor_status = 0;
  if (mech_set != nullptr) *mech_set = nullptr;
  return 0;
}

OM_uint32 gss_release_oid_set(OM_uint32* minor_status, void** set) {
  return release(minor_status, set);
}
OM_uint32 gss_release_name(OM_uint32* minor_status, void** name) {
  return release(minor_status, name);
}
OM_uint32 gss_release_buffer(OM_uint32* minor_status, Buffer* buffer) {
  return release(minor_status, buffer);
}
OM_uint32 gss_delete_sec_context(OM_uint32* minor_status, void** context, Buffer* output) {
  if (output != nullptr) *output = Buffer{};
  return release(minor_status, context);
}

OM_uint32 gss_display_status(OM_uint32* minor_status, OM_uint32, int, void*, OM_uint32*, Buffer*) {
  return no_mechanism(minor_status);
}
OM_uint32 gss_import_name(OM_uint32* minor_status, Buffer*, void*, void**) {
  return no_mechanism(minor_status);
}
OM_uint32 gss_init_sec_context(OM_uint32* minor_status, void*, void**, void*, void*, OM_uint32,
                               OM_uint32, void*, Buffer*, void**, Buffer*, OM_uint32*, OM_uint32*) {
  return no_mechanism(minor_status);
}
}
