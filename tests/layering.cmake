# The layering rules of docs/architecture.md, checked on the source tree:
#   draw/ includes nothing outside draw/; public headers include no private ones;
#   draw/'s layer folders include only their own and the folders below them, in the order
#   a draw flows (kDrawLayers below), and every draw/ folder is in that order;
#   no middle end includes another; examples and the C interface include only installed
#   <drawpipe/...> headers; tools/ includes no private draw/ header, only <drawpipe/...>,
#   and nothing from bench/; workloads/ nothing from bench/ or tools/; a driver header
#   includes no extend/ header;
#   nothing refers to documents outside the repository;
#   every repository path a comment names exists.
# Run by ctest: cmake -DSOURCE_DIR=... -P layering.cmake
cmake_minimum_required(VERSION 3.20) # policies as the build has them (if IN_LIST)
set(errors "")
macro(check_files glob regex what)
  file(GLOB_RECURSE _files ${glob})
  foreach(f ${_files})
    file(STRINGS ${f} _hits REGEX "${regex}")
    foreach(h ${_hits})
      string(APPEND errors "${f}: ${what}: ${h}\n")
    endforeach()
  endforeach()
endmacro()

set(S ${SOURCE_DIR})
foreach(ext hpp cpp h c)
  check_files("${S}/draw/*.${ext}" "#include \"(backends|middle_ends|tools|bench)/|#include \"drawpipe/(backends/|middle_ends)"
              "draw/ includes outside draw/")
  check_files("${S}/draw/include/*.${ext}" "#include \"draw/" "public header includes a private one")
  check_files("${S}/examples/*.${ext}" "#include \"" "examples include only <drawpipe/...>")
  check_files("${S}/backends/*.${ext}" "#include \"(middle_ends|tools)/|#include \"drawpipe/middle_ends" "backends include a middle end or tool")
  check_files("${S}/tools/*.${ext}" "#include [\"<]draw/" "tools include a private draw/ header")
  check_files("${S}/capi/*.${ext}" "#include \"(draw|middle_ends|backends|tools)/" "capi includes only public <drawpipe/...> headers")
  check_files("${S}/tools/*.${ext}" "#include \"bench/" "tools/ includes from bench/")
  check_files("${S}/workloads/*.${ext}" "#include \"(bench|tools)/" "workloads/ includes from bench/ or tools/")
endforeach()
# draw/'s layers, bottom first: a folder may include its own headers and those of the folders
# before it, never one after it, so a draw's walk through them goes one way.
set(kDrawLayers base front_end shade tess stream_output stages context)
set(_above ${kDrawLayers})
foreach(layer IN LISTS kDrawLayers)
  list(POP_FRONT _above) # the layers after this one
  if(_above)
    list(JOIN _above "|" _up)
    file(GLOB_RECURSE _files ${S}/draw/${layer}/*.hpp ${S}/draw/${layer}/*.cpp)
    foreach(f ${_files})
      file(STRINGS ${f} _hits REGEX "#include \"draw/(${_up})/")
      foreach(h ${_hits})
        string(APPEND errors "${f}: draw/${layer}/ includes a layer above it: ${h}\n")
      endforeach()
    endforeach()
  endif()
endforeach()
# Every folder of draw/ but the public headers is a layer in the list.
file(GLOB _draw_dirs LIST_DIRECTORIES true ${S}/draw/*)
foreach(dir ${_draw_dirs})
  get_filename_component(_name ${dir} NAME)
  if(IS_DIRECTORY ${dir} AND NOT _name STREQUAL "include" AND NOT _name IN_LIST kDrawLayers)
    string(APPEND errors "${dir}: a draw/ folder that is not in the layer order (kDrawLayers)\n")
  endif()
endforeach()
# A driver header (draw/include/drawpipe/*.hpp, not extend/) needs no author's header, so a
# driver that includes only <drawpipe/...> never sees the middle-end machinery.
file(GLOB _driver_headers ${S}/draw/include/drawpipe/*.hpp)
foreach(f ${_driver_headers})
  file(STRINGS ${f} _hits REGEX "#include [\"<]drawpipe/extend/")
  foreach(h ${_hits})
    string(APPEND errors "${f}: a driver header includes an extend/ header: ${h}\n")
  endforeach()
endforeach()
file(GLOB _middle_ends LIST_DIRECTORIES true ${S}/middle_ends/*)
foreach(dir ${_middle_ends})
  if(IS_DIRECTORY ${dir} AND NOT dir MATCHES "/include$")
    get_filename_component(me ${dir} NAME)
    file(GLOB_RECURSE _files ${dir}/*.hpp ${dir}/*.cpp)
    foreach(f ${_files})
      file(STRINGS ${f} _hits REGEX "#include \"middle_ends/")
      foreach(h ${_hits})
        if(NOT h MATCHES "#include \"middle_ends/${me}/")
          string(APPEND errors "${f}: a middle end includes another: ${h}\n")
        endif()
      endforeach()
    endforeach()
  endif()
endforeach()
# No document outside the repository is referred to.
# The pattern is assembled, so this file names no such path itself.
set(_dir "shared")
set(_outside "${_dir}/docs|\\.\\./${_dir}")
# Paths are compared relative to the tree, so a checkout path with regex characters or a
# build folder of any name (build outputs quote test logs) cannot trip the rule.
file(GLOB_RECURSE _all ${S}/*.md ${S}/*.hpp ${S}/*.cpp ${S}/*.py ${S}/*.sh ${S}/*.txt ${S}/*.cmake)
foreach(f ${_all})
  file(RELATIVE_PATH rel ${S} ${f})
  if(rel MATCHES "^(build|out|\\.)" OR rel MATCHES "/(Testing|CMakeFiles)/" OR
     rel STREQUAL "tests/layering.cmake")
    continue()
  endif()
  file(STRINGS ${f} _hits REGEX "${_outside}")
  foreach(h ${_hits})
    string(APPEND errors "${f}: refers outside the repository: ${h}\n")
  endforeach()
endforeach()
# Every repository path a comment names exists, so a reader sent to a file finds it.
# A path is a word that starts with a top-level folder and ends in a file name with an
# extension or in a slash (a folder): `draw/context/context.cpp`, `tests/mesa/`. It is checked in
# the comments of code and scripts (after // or #, and C block-comment lines) and anywhere
# in a Markdown file. Names without an extension (programs such as the benchmarks), globs
# and placeholders (a path followed by *, <, {, or $) and paths inside other paths
# (`../x`, `build/...`, `<drawpipe/...>`) are not checked.
set(_top "draw|middle_ends|backends|tools|tests|bench|docs|examples|capi|fuzz|cmake|workloads|integrations")
set(_word "(^|[^A-Za-z0-9_./-])((${_top})/[A-Za-z0-9_./-]*)([*<{$]?)")
file(GLOB_RECURSE _named ${S}/*.md ${S}/*.hpp ${S}/*.cpp ${S}/*.h ${S}/*.c ${S}/*.py ${S}/*.sh
     ${S}/*.cmake ${S}/CMakeLists.txt)
foreach(f ${_named})
  file(RELATIVE_PATH rel ${S} ${f})
  if(rel MATCHES "^(build|out|\\.)" OR rel MATCHES "/(Testing|CMakeFiles)/")
    continue()
  endif()
  file(STRINGS ${f} _candidates REGEX "(${_top})/")
  if(NOT _candidates)
    continue()
  endif()
  if(f MATCHES "\\.(hpp|cpp|h|c)$")
    set(_comment "//")
  elseif(f MATCHES "\\.md$")
    set(_comment "")
  else()
    set(_comment "#")
  endif()
  # One list element per line: the characters CMake lists treat specially are replaced first.
  file(READ ${f} _text)
  string(REPLACE ";" "," _text "${_text}")
  string(REPLACE "[" "(" _text "${_text}")
  string(REPLACE "]" ")" _text "${_text}")
  string(REPLACE "\\" "/" _text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  set(_n 0)
  foreach(line IN LISTS _lines)
    math(EXPR _n "${_n} + 1")
    if(NOT line MATCHES "(${_top})/")
      continue()
    endif()
    set(_said "${line}")
    if(_comment)
      string(FIND "${line}" "${_comment}" _at)
      if(_at GREATER_EQUAL 0)
        string(SUBSTRING "${line}" ${_at} -1 _said)
      elseif(NOT (_comment STREQUAL "//" AND line MATCHES "^[ \t]*(/\\*|\\*)"))
        continue()
      endif()
    endif()
    string(REGEX MATCHALL "${_word}" _words "${_said}")
    foreach(w IN LISTS _words)
      string(REGEX MATCH "${_word}" _ "${w}")
      if(CMAKE_MATCH_4) # a glob or a placeholder
        continue()
      endif()
      string(REGEX REPLACE "[.-]+$" "" path "${CMAKE_MATCH_2}")
      if((path MATCHES "/$" OR path MATCHES "\\.[A-Za-z0-9]+$") AND NOT EXISTS ${S}/${path})
        string(APPEND errors "${f}:${_n}: names a path that does not exist: ${path}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(errors)
  message(FATAL_ERROR "layering violations:\n${errors}")
endif()
message(STATUS "layering: ok")
