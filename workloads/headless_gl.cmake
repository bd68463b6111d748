# The headless OpenGL context (headless_gl.hpp) as the target drawpipe_headless_gl, defined
# only when EGL and libOpenGL are found. Included by workloads/CMakeLists.txt, and by
# tests/mesa/CMakeLists.txt when tests/mesa is built alone (it needs nothing else of drawpipe).
find_package(OpenGL COMPONENTS OpenGL EGL)
if(TARGET OpenGL::OpenGL AND TARGET OpenGL::EGL AND NOT TARGET drawpipe_headless_gl)
  get_filename_component(_drawpipe_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
  add_library(drawpipe_headless_gl STATIC ${CMAKE_CURRENT_LIST_DIR}/headless_gl.cpp)
  target_include_directories(drawpipe_headless_gl PUBLIC ${_drawpipe_root})
  target_link_libraries(drawpipe_headless_gl PUBLIC OpenGL::OpenGL OpenGL::EGL)
  target_compile_features(drawpipe_headless_gl PUBLIC cxx_std_20)
  if(TARGET drawpipe_warnings)
    target_link_libraries(drawpipe_headless_gl PRIVATE drawpipe_warnings)
  else()
    target_compile_options(drawpipe_headless_gl PRIVATE -Wall -Wextra -Wpedantic)
  endif()
endif()
