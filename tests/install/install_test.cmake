# Installs the build tree into a fresh prefix, then configures, builds and runs the examples
# installed with it against it with find_package(drawpipe), as a project outside this tree would,
# and a consumer that includes every installed header (tests/install/consumer).
# Run by ctest: cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=...
# -DWITH_REORDER=ON|OFF -P install_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
# drawpipe.pc links meshoptimizer exactly when the library was built with it (WITH_REORDER):
# a library built without it must not send its users looking for one.
file(GLOB_RECURSE pc_file ${prefix}/*/drawpipe.pc)
file(READ "${pc_file}" pc)
string(FIND "${pc}" "-lmeshoptimizer" at)
if(WITH_REORDER AND at LESS 0)
  message(FATAL_ERROR "${pc_file}: built with the reorder strategy, but no -lmeshoptimizer:\n${pc}")
elseif(NOT WITH_REORDER AND NOT at LESS 0)
  message(FATAL_ERROR "${pc_file}: built without meshoptimizer, yet it names it:\n${pc}")
endif()
# The examples as installed with the package (share/drawpipe/examples), not the source tree's.
set(examples ${prefix}/share/drawpipe/examples)
if(NOT EXISTS ${examples}/CMakeLists.txt)
  message(FATAL_ERROR "the package installs no examples: ${examples}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${examples} -B ${WORK_DIR}/build -G ${GENERATOR}
                        -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                        -DCMAKE_C_COMPILER=${C_COMPILER}
                        -DCMAKE_PREFIX_PATH=${prefix}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j 2 COMMAND_ERROR_IS_FATAL ANY)
foreach(example minimal_driver custom_stage render_mesh_png split_cache
                custom_middle_end/custom_middle_end c_driver cpp_driver_twin)
  execute_process(COMMAND ${WORK_DIR}/build/${example} WORKING_DIRECTORY ${WORK_DIR}
                  COMMAND_ERROR_IS_FATAL ANY)
endforeach()
# render_mesh_png's picture: a PNG, in the directory it ran in.
file(READ ${WORK_DIR}/torus.png signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "render_mesh_png wrote no PNG (${WORK_DIR}/torus.png: '${signature}')")
endif()
# The C driver through drawpipe::c, as installed, prints what its C++ twin prints.
execute_process(COMMAND ${CMAKE_COMMAND} -DFIRST=${WORK_DIR}/build/c_driver
                        -DSECOND=${WORK_DIR}/build/cpp_driver_twin -P ${examples}/same_output.cmake
                COMMAND_ERROR_IS_FATAL ANY)
# Every installed header, each on its own and all together, with only what the package (and
# drawpipe.pc) asks for.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer
                        -B ${WORK_DIR}/consumer -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
                        -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_C_COMPILER=${C_COMPILER}
                        -DCMAKE_PREFIX_PATH=${prefix}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer -j 2 COMMAND_ERROR_IS_FATAL ANY)
foreach(program all_headers all_headers_pc)
  if(EXISTS ${WORK_DIR}/consumer/${program})
    execute_process(COMMAND ${WORK_DIR}/consumer/${program} COMMAND_ERROR_IS_FATAL ANY)
  endif()
endforeach()
