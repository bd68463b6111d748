# Install rules and the exported package: after `cmake --install`, a project calls
# find_package(drawpipe) and links drawpipe::draw, drawpipe::middle_ends, drawpipe::backends
# (the same names as in this tree). Headers keep their paths under include/drawpipe/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_drawpipe_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/drawpipe)
set_target_properties(drawpipe_draw PROPERTIES EXPORT_NAME draw)
set_target_properties(drawpipe_middle_ends PROPERTIES EXPORT_NAME middle_ends)
set_target_properties(drawpipe_backends PROPERTIES EXPORT_NAME backends)
install(TARGETS drawpipe_draw drawpipe_middle_ends drawpipe_backends EXPORT drawpipeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS drawpipe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY draw backends middle_ends DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/drawpipe
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT drawpipeTargets NAMESPACE drawpipe:: DESTINATION ${_drawpipe_cmake_dir})

configure_package_config_file(cmake/drawpipeConfig.cmake.in ${PROJECT_BINARY_DIR}/drawpipeConfig.cmake
                              INSTALL_DESTINATION ${_drawpipe_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/drawpipeConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/drawpipeConfig.cmake ${PROJECT_BINARY_DIR}/drawpipeConfigVersion.cmake
        DESTINATION ${_drawpipe_cmake_dir})
