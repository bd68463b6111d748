# Proves the rules of layering.cmake bite: it runs them on small trees written here, one
# planted violation each, and expects each run to fail naming its plant; the clean tree,
# which holds the look-alikes a rule must let pass, must pass.
# Run by ctest: cmake -DLAYERING=.../layering.cmake -DWORK_DIR=... -P layering_planted.cmake
#
# Every path below is assembled from the variables, so this file names no missing path and
# no file outside the repository itself (layering.cmake also reads this file).
set(D draw)
set(B backends)
set(M middle_ends)
set(T tests)
set(X examples)
set(BN bench)
set(TL tools)
set(W workloads)
set(shared_dir shared)

set(failures "")

# run(NAME EXPECTED [RELATIVE_PATH CONTENT]...): a clean tree plus the given files; EXPECTED
# is a regex the failure must print, or "" when the tree must pass.
function(run name expected)
  set(tree ${WORK_DIR}/${name})
  file(REMOVE_RECURSE ${tree})
  # The clean tree: paths that exist, and what the rules must not take for a missing path.
  file(WRITE ${tree}/${D}/context.cpp
       "// The context (${D}/context.cpp); the map is docs/architecture.md, tests in ${T}/.\n"
       "#include \"drawpipe/context.hpp\"\n"
       "static const char* in_code = \"${D}/not_a_comment.hpp\"; // a string, not a comment\n"
       "// A glob, ${D}/split_*.cpp, a placeholder, ${M}/<hw>/README.md, a program,\n"
       "// ${B}/counting_bench, and a path inside another, build/${D}/gone.hpp.\n")
  file(WRITE ${tree}/docs/architecture.md
       "# Map\n\n`${D}/context.cpp`, [the index](../${D}/gone.md), `<drawpipe/${B}/gone.hpp>`.\n")
  file(WRITE ${tree}/${M}/a4xx/a4xx.cpp "#include \"${M}/a4xx/a4xx.hpp\"\n")
  file(WRITE ${tree}/${M}/a4xx/a4xx.hpp "#pragma once\n")
  file(MAKE_DIRECTORY ${tree}/${T})
  set(args ${ARGN})
  while(args)
    list(POP_FRONT args path content)
    file(WRITE ${tree}/${path} "${content}")
  endwhile()
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${tree} -P ${LAYERING}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " err "${err}") # CMake wraps long messages
  if(expected STREQUAL "")
    if(NOT rc EQUAL 0)
      string(APPEND failures "${name}: the clean tree fails:\n${err}\n")
    endif()
  elseif(rc EQUAL 0)
    string(APPEND failures "${name}: the planted violation passes\n")
  elseif(NOT err MATCHES "${expected}")
    string(APPEND failures "${name}: fails, but not naming the plant (${expected}):\n${err}\n")
  else()
    message(STATUS "${name}: caught")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

run(clean "")
# A comment naming a file that is gone, in each kind of file the rule reads.
run(stale_header "${D}/internal/types.hpp:2: names a path that does not exist: ${D}/front_end.hpp"
    ${D}/internal/types.hpp "#pragma once\n// A front end splits a draw (${D}/front_end.hpp).\n")
run(stale_block_comment "names a path that does not exist: ${B}/backend.hpp"
    ${D}/shaded.cpp "/* The backend\n * (${B}/backend.hpp) takes the batches. */\n")
run(stale_cmake "names a path that does not exist: ${T}/draw/gone_test.cpp"
    ${T}/CMakeLists.txt "# Runs ${T}/draw/gone_test.cpp.\nadd_test(NAME x COMMAND true)\n")
run(stale_python "names a path that does not exist: ${D}/gs_library.cpp"
    ${T}/compare.py "# Shaders as in ${D}/gs_library.cpp.\nprint('ok')\n")
run(stale_markdown "names a path that does not exist: docs/gone.md"
    docs/README.md "Read docs/gone.md first.\n")
run(stale_folder "names a path that does not exist: ${D}/front_end/"
    docs/README.md "The front end lives in ${D}/front_end/.\n")
# The include rules.
run(draw_includes_backend "draw/ includes outside draw/"
    ${D}/pipeline.cpp "#include \"${B}/trace.hpp\"\n")
run(layer_includes_above "${D}/shade/ includes a layer above it"
    ${D}/shade/fetch.cpp "#include \"${D}/stages/stages.hpp\"\n")
run(layer_not_in_order "a ${D}/ folder that is not in the layer order"
    ${D}/misc/helpers.hpp "#pragma once\n")
run(public_includes_private "public header includes a private one"
    ${D}/include/drawpipe/types.hpp "#include \"${D}/internal/prepared_draw.hpp\"\n")
run(example_includes_source_tree "examples include only <drawpipe/...>"
    ${X}/driver.cpp "#include \"${D}/internal/front_end.hpp\"\n")
run(middle_end_includes_another "a middle end includes another"
    ${M}/gen7/gen7.cpp "#include \"${M}/a4xx/a4xx.hpp\"\n")
run(tools_include_private "tools include a private draw/ header"
    ${TL}/cmd_trace.cpp "#include \"${D}/pipeline/prepared_draw.hpp\"\n")
run(tools_include_bench "tools/ includes from bench/"
    ${TL}/cmd_bench.cpp "#include \"${BN}/rounds.hpp\"\n")
run(workloads_include_tools "workloads/ includes from bench/ or tools/"
    ${W}/mesh.cpp "#include \"${TL}/commands.hpp\"\n")
run(driver_header_includes_extend "a driver header includes an extend/ header"
    ${D}/include/drawpipe/context.hpp "#include \"drawpipe/extend/middle_end.hpp\"\n")
run(outside_reference "refers outside the repository"
    docs/style.md "As /work/${shared_dir}/docs/mesa.md says.\n")

if(failures)
  message(FATAL_ERROR "layering rules that do not bite:\n${failures}")
endif()
message(STATUS "layering: every planted violation is caught, the clean tree passes")
