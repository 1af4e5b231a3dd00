# reviewer_add_plugin(NAME SOURCES src... [OUTPUT_DIRECTORY dir])
#
# Builds one plugin shared object named exactly NAME.so (no "lib" prefix: the host requires the
# plugin's declared name to equal the file's stem), with hidden visibility so that only the
# descriptor symbol is exported, linked against the SDK and nothing else. NAME reaches the
# REVIEWER_PLUGIN macro as REVIEWER_PLUGIN_NAME, so the source never restates it.
function(reviewer_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIRECTORY" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "reviewer_add_plugin(${name}): SOURCES is required")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  if(TARGET reviewer::sdk)
    target_link_libraries(${name} PRIVATE reviewer::sdk)
  endif()
  # The name is written once, here: REVIEWER_PLUGIN(...) declares it from this definition.
  target_compile_definitions(${name} PRIVATE REVIEWER_PLUGIN_NAME="${name}")
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    OUTPUT_NAME "${name}"
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${name} PRIVATE -Wl,--no-undefined -Wl,-z,relro -Wl,-z,now)
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
endfunction()
