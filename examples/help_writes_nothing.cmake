# Runs PROGRAM --help and PROGRAM -h in an empty folder, DIR: each must exit 0, print its
# usage ("usage: ...") and leave the folder empty (an example once took --help as the path
# of the PNG it wrote).
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
foreach(flag --help -h)
  execute_process(COMMAND ${PROGRAM} ${flag} WORKING_DIRECTORY ${DIR} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${flag}: exit ${rc}\n${out}${err}")
  endif()
  if(NOT out MATCHES "^usage: ")
    message(FATAL_ERROR "${PROGRAM} ${flag}: no usage on stdout:\n${out}")
  endif()
  file(GLOB written ${DIR}/*)
  if(written)
    message(FATAL_ERROR "${PROGRAM} ${flag} wrote ${written}")
  endif()
endforeach()
