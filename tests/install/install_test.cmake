# Installs the build tree into a fresh prefix, then configures, builds and runs examples/
# against it with find_package(drawpipe), as a project outside this tree would.
# Run by ctest: cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -P install_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/build -G ${GENERATOR}
                        -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                        -DCMAKE_PREFIX_PATH=${prefix}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j 2 COMMAND_ERROR_IS_FATAL ANY)
foreach(example minimal_driver custom_middle_end/custom_middle_end)
  execute_process(COMMAND ${WORK_DIR}/build/${example} COMMAND_ERROR_IS_FATAL ANY)
endforeach()
