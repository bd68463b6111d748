# Installs the build tree into a fresh prefix, then builds the installed C example with meson,
# finding drawpipe through pkg-config only (PKG_CONFIG_PATH), and runs it.
# Run by ctest: cmake -DBUILD_DIR=... -DMESON=... -DWORK_DIR=... -DC_COMPILER=... -DPROJECT_DIR=... -P meson_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
file(GLOB_RECURSE pc_files ${prefix}/*/drawpipe.pc)
list(LENGTH pc_files found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "the package installs ${found} drawpipe.pc files (want 1): ${pc_files}")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
# Beside the CMake package: <libdir>/pkgconfig and <libdir>/cmake/drawpipe.
if(NOT EXISTS ${pc_dir}/../cmake/drawpipe/drawpipeConfig.cmake)
  message(FATAL_ERROR "drawpipe.pc (${pc_dir}) is not beside the CMake package config")
endif()

set(source ${WORK_DIR}/source)
file(COPY ${PROJECT_DIR}/meson.build ${prefix}/share/drawpipe/examples/c_driver.c
     DESTINATION ${source})
# The installed package's .pc first; tbb's and libhwy's come from the system's own path.
set(ENV{PKG_CONFIG_PATH} "${pc_dir}:$ENV{PKG_CONFIG_PATH}")
set(ENV{CC} ${C_COMPILER})
execute_process(COMMAND ${MESON} setup ${WORK_DIR}/build ${source} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${MESON} compile -C ${WORK_DIR}/build COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK_DIR}/build/c_driver OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the meson-built c_driver failed (${rc}):\n${out}")
endif()
# It drew: the first draw's line and the stream-output line are there.
if(NOT out MATCHES "draw 1: prim 4" OR NOT out MATCHES "stream output: 100 of 450 triangles")
  message(FATAL_ERROR "the meson-built c_driver printed something else:\n${out}")
endif()
message(STATUS "meson-built c_driver:\n${out}")
