# The layering rules of docs/architecture.md, checked on the source tree:
#   draw/ includes nothing outside draw/; public headers include no private ones;
#   no middle end includes another; examples and the C interface include only installed
#   <drawpipe/...> headers; tools/ includes no private draw/ header, only <drawpipe/...>,
#   and nothing from bench/; workloads/ nothing from bench/ or tools/;
#   nothing refers to documents outside the repository.
# Run by ctest: cmake -DSOURCE_DIR=... -P layering.cmake
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
if(errors)
  message(FATAL_ERROR "layering violations:\n${errors}")
endif()
message(STATUS "layering: ok")
