# The C libraries the core modules link, as `reviewer_sys_<name>` targets: Debian's shared
# library, or its static archive (the -dev packages ship both) for a target whose
# REVIEWER_STATIC_C_LIBS property is ON.
#
# Why: reviewer-launch runs once per review, and the dynamic loader's work before its `main`
# was most of its start. Linked against the shared libraries it mapped 24 objects, libgit2 and
# the 14 it brings (Kerberos, SSH, TLS, ...); refused at its first argument it took 3.0 ms over
# /bin/true, and with these archives linked in 0.9 ms (perf stat -r 300, release build).
# Host binaries and tests keep the shared libraries: they start rarely, and link faster.

# Debian's archives of one library and of what it needs, in link order.
function(reviewer_sys_library name shared)
  set(archives)
  foreach(lib IN LISTS ARGN)
    find_library(REVIEWER_ARCHIVE_${lib} NAMES lib${lib}.a REQUIRED)
    list(APPEND archives ${REVIEWER_ARCHIVE_${lib}})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY REVIEWER_LAUNCHER_ARCHIVES ${archives})
  set(static "$<BOOL:$<TARGET_PROPERTY:REVIEWER_STATIC_C_LIBS>>")
  add_library(reviewer_sys_${name} INTERFACE)
  target_link_libraries(reviewer_sys_${name} INTERFACE
    "$<$<NOT:${static}>:${shared}>" "$<${static}:${archives}>")
  # The headers are the same either way.
  target_include_directories(reviewer_sys_${name} SYSTEM INTERFACE
    $<TARGET_PROPERTY:${shared},INTERFACE_INCLUDE_DIRECTORIES>)
endfunction()

# libgit2's own list (pkg-config --static --libs libgit2); libssh2 is built with OpenSSL.
reviewer_sys_library(libgit2 PkgConfig::LIBGIT2
  git2 mbedtls mbedx509 mbedcrypto http_parser ssh2 pcre2-8 z crypto)
reviewer_sys_library(yaml PkgConfig::LIBYAML yaml)
reviewer_sys_library(pugixml PkgConfig::PUGIXML pugixml)
reviewer_sys_library(crypto OpenSSL::Crypto crypto)

# What the image build holds to the base's versions (docker/reviewer/launcher-archives.sh):
# the launcher runs these archives' code in the image, not the base's shared libraries.
get_property(_archives GLOBAL PROPERTY REVIEWER_LAUNCHER_ARCHIVES)
list(REMOVE_DUPLICATES _archives)
list(JOIN _archives "\n" _archive_lines)
file(WRITE ${CMAKE_BINARY_DIR}/launcher-archives.txt "${_archive_lines}\n")

# Their SHA-256s, rewritten only when one changes; what is linked like the launcher is relinked
# then. Their times cannot say it: dpkg gives an upgraded archive its package's build time,
# older than the last link (measured: libcrypto.a of OpenSSL 3.0.22 is dated 2026-10-21, and
# ninja kept a launcher linked on 2026-12-03 with 3.0.19's). build.sh checks the same sums.
set(REVIEWER_LAUNCHER_ARCHIVE_SUMS ${CMAKE_BINARY_DIR}/launcher-archives.sha256)
add_custom_target(reviewer_launcher_archive_sums
  COMMAND sh -c "sha256sum \"$@\" > \"$0\"" ${REVIEWER_LAUNCHER_ARCHIVE_SUMS}.new ${_archives}
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${REVIEWER_LAUNCHER_ARCHIVE_SUMS}.new
          ${REVIEWER_LAUNCHER_ARCHIVE_SUMS}
  BYPRODUCTS ${REVIEWER_LAUNCHER_ARCHIVE_SUMS}
  COMMENT "Hashing the launcher's static archives"
  VERBATIM)

# Links `target` the way reviewer-launch is linked: the archives above, the two replacements
# they need (core/cli/no_ca_bundle.cpp, core/cli/no_gssapi.cpp), and no shared library it does
# not call (Debian's g++ links --as-needed, clang does not: it kept libboost_filesystem).
function(reviewer_link_like_launcher target)
  set_target_properties(${target} PROPERTIES REVIEWER_STATIC_C_LIBS ON)
  target_link_libraries(${target} PRIVATE reviewer_launcher_link_objects)
  target_link_options(${target} PRIVATE LINKER:--wrap=mbedtls_x509_crt_parse_file
                      LINKER:--as-needed)
  add_dependencies(${target} reviewer_launcher_archive_sums)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${REVIEWER_LAUNCHER_ARCHIVE_SUMS})
endfunction()
