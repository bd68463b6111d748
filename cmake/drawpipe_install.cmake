# Install rules and the exported package: after `cmake --install`, a project calls
# find_package(drawpipe) and links drawpipe::draw (the context and every interface),
# drawpipe::middle_ends (the hardware models), drawpipe::backends and drawpipe::c (the C
# interface); a meson or make build uses pkg-config's drawpipe.pc instead. Public headers are
# installed under include/drawpipe/ and included as <drawpipe/...>; nothing private is.
include(CMakePackageConfigHelpers)

set(_drawpipe_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/drawpipe)
set_target_properties(drawpipe_draw PROPERTIES EXPORT_NAME draw)
set_target_properties(drawpipe_middle_ends PROPERTIES EXPORT_NAME middle_ends)
set_target_properties(drawpipe_backends PROPERTIES EXPORT_NAME backends)
set_target_properties(drawpipe_c PROPERTIES EXPORT_NAME c)
# The public headers include Boost.Container (drawpipe/extend/shaded.hpp): every consumer needs its
# include path, so the core's interface carries it (and the package finds Boost).
target_link_libraries(drawpipe_draw INTERFACE Boost::headers)
install(TARGETS drawpipe_draw drawpipe_middle_ends drawpipe_backends drawpipe_c EXPORT drawpipeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET drawpipe) # the CLI, when the tools are built
  install(TARGETS drawpipe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY draw/include/ backends/include/ middle_ends/include/ capi/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The examples tour, buildable on its own against the installed package (its CMakeLists.txt).
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/drawpipe/examples)
install(EXPORT drawpipeTargets NAMESPACE drawpipe:: DESTINATION ${_drawpipe_cmake_dir})

configure_package_config_file(cmake/drawpipeConfig.cmake.in ${PROJECT_BINARY_DIR}/drawpipeConfig.cmake
                              INSTALL_DESTINATION ${_drawpipe_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/drawpipeConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/drawpipeConfig.cmake ${PROJECT_BINARY_DIR}/drawpipeConfigVersion.cmake
        DESTINATION ${_drawpipe_cmake_dir})

# pkg-config (drawpipe.pc, beside the CMake package), for meson and make: one package with
# every library, C++ or C. The libraries are static archives of C++ code, so a C program
# linked through it also needs the C++ runtime; tbb and libhwy come through their own .pc
# files. The prefix is found from the .pc file's own place, so an installed tree can move.
# An absolute libdir or includedir given at configure time is kept as it is.
file(RELATIVE_PATH _drawpipe_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" _drawpipe_pc_to_prefix "${_drawpipe_pc_to_prefix}")
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(DRAWPIPE_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(DRAWPIPE_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_drawpipe_pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  set(_drawpipe_pc_prefix "\${pcfiledir}/${_drawpipe_pc_to_prefix}")
endif()
set(DRAWPIPE_PC_LIBS_EXTRA "")
if(DRAWPIPE_WITH_REORDER)
  string(APPEND DRAWPIPE_PC_LIBS_EXTRA " -lmeshoptimizer")
endif()
set(DRAWPIPE_PC_CFLAGS_EXTRA "")
foreach(dir ${Boost_INCLUDE_DIRS}) # a system Boost (/usr/include) needs no -I
  if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    string(APPEND DRAWPIPE_PC_CFLAGS_EXTRA " -I${dir}")
  endif()
endforeach()
configure_file(cmake/drawpipe.pc.in ${PROJECT_BINARY_DIR}/drawpipe.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/drawpipe.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
