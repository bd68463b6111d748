# Pictures with a key and long runs that say how far they are (issue 32): a --color-by PNG
# carries a legend (a panel, its text, a swatch per key in the exact key colour) and the demo
# a caption, checked in the PNG bytes (check_legend.py); on a terminal (a pseudo-terminal
# from `script`) render and bench show a progress line with an estimate and print each bench
# row as it finishes, and with stderr not a terminal they print nothing extra.
# Inputs: DRAWPIPE, WORK_DIR, PYTHON, CHECK_LEGEND, MESH (optional: bunny.obj).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
if(NOT PYTHON)
  message(FATAL_ERROR "python3 is needed to read the PNGs (quickstart.sh installs it)")
endif()

function(run)
  execute_process(COMMAND ${DRAWPIPE} ${ARGN} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "drawpipe ${ARGN}: exit ${rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(check_png png)
  execute_process(COMMAND ${PYTHON} ${CHECK_LEGEND} ${WORK_DIR}/${png} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${png}: ${out}${err}")
  endif()
  message(STATUS "${out}")
endfunction()

# Legends: 4 instances, 2 threads, the segments of a generated sphere; the demo's caption.
# Each run is not a terminal: stderr holds only the line saying where the picture went.
run(render sphere:20k --color-by instance --instances 4 --png instances.png)
if(NOT err MATCHES "^drawpipe render: wrote instances.png \\(1024x768, each instance in its own colour: 4 instances\\)\n$")
  message(FATAL_ERROR "render --color-by instance, stderr:\n${err}")
endif()
check_png(instances.png legend 4)
run(render sphere:20k --color-by middle-end-thread --threads 2 --max-vertices 64 --png threads.png)
string(REGEX MATCH "colour: ([0-9]+) threads? shaded" _ "${err}")
check_png(threads.png legend 1) # thread 0 always shades (the calling thread joins in)
run(render sphere:20k --color-by segment --png segments.png)
check_png(segments.png legend 4)
run(demo --size 4 --png demo.png)
check_png(demo.png caption)
# With a legend, the framing leaves its band free (2 lines and 2 rows of swatches of 11 rows
# each, and 8 rows of margin: rows 188-239 of a 320 x 240 picture, Y = 0 at the bottom), and
# --pixels lists the picture without the legend.
run(render sphere:20k --color-by segment --width 320 --height 240 --pixels --png band.png)
# The framing fills 90% of what is left, so the mesh's top lies a few rows below the band.
if(out MATCHES "\n[0-9]+ (18[89]|19[0-9]|2[0-3][0-9]) " OR NOT out MATCHES "\n[0-9]+ 1[78][0-9] ")
  message(FATAL_ERROR "--color-by with a legend: the mesh is not framed just below its band")
endif()
check_png(band.png legend 4)
# Smaller pictures get no legend (it would hide the mesh), and no band.
run(render sphere:20k --color-by segment --width 96 --height 64 --png small.png)
execute_process(COMMAND ${PYTHON} ${CHECK_LEGEND} ${WORK_DIR}/small.png legend 1
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
  message(FATAL_ERROR "a 96 x 64 picture got a legend")
endif()

# Not a terminal: bench prints its table on stdout and nothing on stderr.
run(bench W2 --reps 5 --min-time 0)
if(NOT err STREQUAL "" OR NOT out MATCHES "grid-tris-u16 +distinct +4096")
  message(FATAL_ERROR "bench with stderr not a terminal: stderr '${err}'")
endif()

find_program(SCRIPT script)
if(NOT SCRIPT)
  message(STATUS "no `script` (util-linux): the terminal half is not checked")
  return()
endif()
# On a terminal: each phase on one line redrawn with \r, with an estimate or a percentage.
execute_process(COMMAND ${SCRIPT} -qfec "'${DRAWPIPE}' render sphere:300k --png big.png" /dev/null
                WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE tty TIMEOUT 120)
if(NOT rc EQUAL 0
   OR NOT tty MATCHES "\rgenerating sphere:300k: [0-9.]+ s (of about|\\(longer than the) [0-9.]+ s"
   OR NOT tty MATCHES "\rdrawing [0-9]+ triangles \\[[#.]+\\] [0-9]+%: [0-9.]+ s"
   OR NOT tty MATCHES "drawpipe render: wrote big.png")
  message(FATAL_ERROR "render on a terminal: exit ${rc}, no progress line:\n${tty}")
endif()
# bench: a progress line per row, and each row printed when it finishes (before the next
# row's progress line), so that an interrupted run keeps it.
execute_process(COMMAND ${SCRIPT} -qfec "'${DRAWPIPE}' bench W2 --strategy distinct vsplit" /dev/null
                WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE tty TIMEOUT 120)
if(NOT rc EQUAL 0
   OR NOT tty MATCHES "\rrow 1/2 W2 grid-tris-u16 distinct 4096: [0-9.]+ s (of about|\\(longer)"
   OR NOT tty MATCHES "W2 grid-tris-u16 +distinct +4096 [^\n]*\n[^\n]*\rrow 2/2 \\(about [0-9.]+ s left in all\\) W2")
  message(FATAL_ERROR "bench on a terminal: exit ${rc}, rows not printed as they finish:\n${tty}")
endif()
