# cmake -DDIR=<plugin dir> -P WritePluginManifest.cmake
# Writes DIR/MANIFEST.sha256 ("<sha256>  <file>" per plugin, sorted), the list the plugin host
# verifies every plugin against before loading it.
if(NOT DIR)
  message(FATAL_ERROR "DIR is required")
endif()
file(GLOB _plugins RELATIVE ${DIR} ${DIR}/*.so)
list(SORT _plugins)
set(_text "")
foreach(p IN LISTS _plugins)
  file(SHA256 ${DIR}/${p} _hash)
  string(APPEND _text "${_hash}  ${p}\n")
endforeach()
file(WRITE ${DIR}/MANIFEST.sha256.tmp "${_text}")
file(RENAME ${DIR}/MANIFEST.sha256.tmp ${DIR}/MANIFEST.sha256)
file(CHMOD ${DIR}/MANIFEST.sha256 PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
