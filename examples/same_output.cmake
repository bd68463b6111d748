# Runs two programs and fails unless both succeed and print the same bytes on stdout.
# cmake -DFIRST=<program> -DSECOND=<program> -P same_output.cmake
foreach(which FIRST SECOND)
  execute_process(COMMAND ${${which}} OUTPUT_VARIABLE out_${which} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${${which}} failed (${rc}):\n${out_${which}}")
  endif()
endforeach()
if(NOT out_FIRST STREQUAL out_SECOND)
  message(FATAL_ERROR "the outputs differ\n--- ${FIRST}\n${out_FIRST}\n--- ${SECOND}\n${out_SECOND}")
endif()
message(STATUS "same output:\n${out_FIRST}")
