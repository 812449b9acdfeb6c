# Generates web/internal/constants.js from wasm/boundary_constants.hpp (its X-macro lists), so
# the JS layer's shared numbers and names come from the one C++ header. Runs at configure time;
# the header is a configure dependency, so editing it regenerates the module on the next build.
set(ecsia_constants_header ${CMAKE_CURRENT_LIST_DIR}/boundary_constants.hpp)
set(ecsia_constants_js ${CMAKE_CURRENT_LIST_DIR}/../web/internal/constants.js)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ecsia_constants_header})
file(READ ${ecsia_constants_header} ecsia_constants_text)

set(ecsia_js "// Generated from wasm/boundary_constants.hpp by wasm/boundary_constants.cmake when the build is\n")
string(APPEND ecsia_js "// configured: edit the header, never this file. The numbers and names JS shares with the engine.\n\n")
string(REGEX MATCHALL "X\\(([A-Z_]+), (0x[0-9A-Fa-f]+|[0-9]+), \"([^\"]*)\"\\)" ecsia_numbers "${ecsia_constants_text}")
foreach(entry IN LISTS ecsia_numbers)
  string(REGEX REPLACE "X\\(([A-Z_]+), (0x[0-9A-Fa-f]+|[0-9]+), \"([^\"]*)\"\\)" "/** \\3 */\nexport const \\1 = \\2;\n" line "${entry}")
  string(APPEND ecsia_js "${line}")
endforeach()
# The name lists: each list's X(Enumerator, "name") entries, read from its own #define up to the
# next blank line, so that one list's entries never land in another's.
function(ecsia_name_list macro js_name what)
  string(FIND "${ecsia_constants_text}" "#define ${macro}(X)" begin)
  if(begin EQUAL -1)
    message(FATAL_ERROR "boundary_constants.hpp has no ${macro}")
  endif()
  string(SUBSTRING "${ecsia_constants_text}" ${begin} -1 rest)
  string(FIND "${rest}" "\n\n" end)
  string(SUBSTRING "${rest}" 0 ${end} block)
  string(REGEX MATCHALL "X\\(([A-Za-z0-9]+), \"([a-z0-9]+)\"\\)" entries "${block}")
  set(names "")
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE "X\\(([A-Za-z0-9]+), \"([a-z0-9]+)\"\\)" "'\\2'" name "${entry}")
    list(APPEND names "${name}")
  endforeach()
  list(JOIN names ", " joined)
  set(ecsia_js "${ecsia_js}/** ${what} */\nexport const ${js_name} = Object.freeze([${joined}]);\n" PARENT_SCOPE)
endfunction()
ecsia_name_list(ECSIA_BOUNDARY_FIELD_TYPES FIELD_TYPES "The field types, in the engine's order (FieldType).")
ecsia_name_list(ECSIA_BOUNDARY_ON_DELETE_TARGETS ON_DELETE_TARGETS
  "defineRelation's onDeleteTarget values, in the engine's order (OnDeleteTarget).")
ecsia_name_list(ECSIA_BOUNDARY_WAVE_PLACEMENTS WAVE_PLACEMENTS "Where a wave's batches ran, in the engine's order (WavePlacement).")

# Written only when it changed, so an unchanged header leaves the file (and its time) alone.
set(ecsia_old "")
if(EXISTS ${ecsia_constants_js})
  file(READ ${ecsia_constants_js} ecsia_old)
endif()
if(NOT ecsia_old STREQUAL ecsia_js)
  file(WRITE ${ecsia_constants_js} "${ecsia_js}")
endif()
