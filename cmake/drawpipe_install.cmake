# Install rules and the exported package: after `cmake --install`, a project calls
# find_package(drawpipe) and links drawpipe::draw (the context and every interface),
# drawpipe::middle_ends (the hardware models) and drawpipe::backends. Public headers are
# installed under include/drawpipe/ and included as <drawpipe/...>; nothing private is.
include(CMakePackageConfigHelpers)

set(_drawpipe_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/drawpipe)
set_target_properties(drawpipe_draw PROPERTIES EXPORT_NAME draw)
set_target_properties(drawpipe_middle_ends PROPERTIES EXPORT_NAME middle_ends)
set_target_properties(drawpipe_backends PROPERTIES EXPORT_NAME backends)
install(TARGETS drawpipe_draw drawpipe_middle_ends drawpipe_backends EXPORT drawpipeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS drawpipe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY draw/include/ backends/include/ middle_ends/include/
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
