# The command line's conventions, as a user meets them: --version, one exit-code scheme for
# every command (0 done, 2 bad input, 1 failure while running), errors that name what is
# wrong (an unknown command, an unknown workload, a directory, a missing file, a negative
# time, an output path that cannot be written, checked before the run).
# Inputs: DRAWPIPE (the program), DATA (tests/data), WORK_DIR.
file(MAKE_DIRECTORY ${WORK_DIR})

# expect(CODE REGEX ARGS...): runs drawpipe ARGS, wants exit CODE and REGEX in its output.
function(expect code regex)
  execute_process(COMMAND ${DRAWPIPE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "drawpipe ${ARGN}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "drawpipe ${ARGN}: output does not match '${regex}':\n${out}${err}")
  endif()
endfunction()

expect(0 "^drawpipe [0-9]+\\.[0-9]+\\.[0-9]+\n$" --version)
expect(0 "Exit codes: 0 done; 2 bad input" --help)
# ... and every command's own --help says the same.
foreach(command trace render demo mali gen7-header bench)
  expect(0 "Exit codes: 0 done; 2 bad input [^\n]*; 1 a failure while running" ${command} --help)
endforeach()
# --max-vertices means the same in every command that takes it, and its help says so.
foreach(command trace render demo gen7-header bench)
  expect(0 "--max-vertices [^\n]*\n? *Vertices per segment: 0 \\(the default\\) for the middle end's own limit"
         ${command} --help)
endforeach()
# trace --help names what a description may use: its keys, the middle ends, the library shaders.
expect(0 "Description keys: prim, index, indices, [^\n]*, gs[;.].*Middle ends \\(--middle-end\\): fetch_shade[^\n]* gen7[^\n]* a4xx[^\n]* mali.*Geometry shaders \\(--gs, key gs\\): passthrough_tri [^\n]*many_cuts64"
       trace --help)
# Outputs explain themselves: the trace's first line names its fields, gen7-header and mali
# start with a legend.
expect(0 "^# trace: one primitive per line \\(point, line, tri\\), each vertex as vertexid/instanceid"
       trace ${DATA}/xfb_strip.txt)
expect(0 "^# legend: one GS thread per line [^\n]*\n#   the control-data header DWORDs"
       gen7-header --gs many_cuts64 ${DATA}/gs_triangle.txt)
expect(0 "^# legend: an instanced job runs `padded` threads per instance[^\n]*\n#   records" mali 70
       --instances 3)
expect(2 "unknown command 'frobnicate' \\(commands: trace, render, demo" frobnicate)
expect(2 "unknown workload 'W9' \\(workloads: W1, W2, W3, W4, W5, W6, W7\\)" bench W9)
expect(2 "draw description '${WORK_DIR}': is a directory" trace ${WORK_DIR})
expect(2 "draw description '${WORK_DIR}/absent.txt': No such file or directory"
       trace ${WORK_DIR}/absent.txt)
expect(2 "draw description '${DATA}/xfb_strip.txt/x.txt': Not a directory"
       trace ${DATA}/xfb_strip.txt/x.txt)
# A file the user may not read says so (as root, run as nobody through setpriv to see it).
file(WRITE ${WORK_DIR}/secret.txt "prim points\ncount 1\n")
file(WRITE ${WORK_DIR}/secret.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
file(CHMOD ${WORK_DIR}/secret.txt ${WORK_DIR}/secret.obj PERMISSIONS OWNER_WRITE)
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
find_program(SETPRIV setpriv)
set(as_user)
if(uid STREQUAL "0" AND SETPRIV)
  set(as_user ${SETPRIV} --reuid=65534 --regid=65534 --clear-groups)
endif()
if(NOT uid STREQUAL "0" OR SETPRIV)
  foreach(case "trace;${WORK_DIR}/secret.txt;draw description" "bench;${WORK_DIR}/secret.obj;mesh"
               "render;${WORK_DIR}/secret.obj;mesh")
    list(GET case 0 command)
    list(GET case 1 path)
    list(GET case 2 what)
    set(extra)
    if(command STREQUAL "render")
      set(extra --pixels) # no render.png to write
    endif()
    execute_process(COMMAND ${as_user} ${DRAWPIPE} ${command} ${path} ${extra}
                    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
    if(NOT rc EQUAL 2 OR NOT err MATCHES "${what} '${path}': Permission denied")
      message(FATAL_ERROR "${command} ${path} (unreadable): exit ${rc}\n${err}")
    endif()
  endforeach()
endif()
# A mesh file (bench and render) says why in the OS's words too.
expect(2 "mesh '${WORK_DIR}/absent.obj': No such file or directory \\(and not a workload id"
       bench ${WORK_DIR}/absent.obj)
expect(2 "mesh '${DATA}/xfb_strip.txt/x.obj': Not a directory" render ${DATA}/xfb_strip.txt/x.obj)
expect(2 "mesh '${WORK_DIR}': is a directory" bench ${WORK_DIR})
# A key given twice in a description names both lines.
file(WRITE ${WORK_DIR}/twice.txt "prim triangles\ncount 3\n# again:\ncount 6\n")
expect(2 "line 4: count: given twice \\(first on line 2\\)" trace ${WORK_DIR}/twice.txt)
expect(2 "--min-time: -1.000000 is negative" bench W1 --min-time -1)
expect(2 "--reps: Value -1 not in range" bench W1 --reps -1)
# bench checks every limit before it times anything: below a primitive type's minimum, above
# what the front end's 16-bit draw elements reach, above fetch_shade's with --threads.
expect(2 "^drawpipe: error \\(limit_too_small\\): max_vertices: 2 is below the 3 vertices a segment of triangles needs"
       bench W2 --max-vertices 4096 2 --reps 1 --min-time 0 --no-progress)
expect(2 "^drawpipe: error \\(invalid_value\\): --max-vertices: 70000 is above the 65536 vertices per segment the front end accepts"
       bench W2 --max-vertices 70000 --reps 1 --min-time 0 --no-progress)
expect(2 "^drawpipe: error \\(invalid_value\\): max_vertices: 5000 is above the 4096 vertices per segment middle end 'fetch_shade'"
       bench W2 --max-vertices 5000 --threads 1 --reps 1 --min-time 0 --no-progress)
# Checked before the run: the error comes at once, not after timing W1.
expect(2 "--plot '${WORK_DIR}/no/such/dir/x.svg': no directory" bench W1 --plot
       ${WORK_DIR}/no/such/dir/x.svg)
expect(2 "--png '${WORK_DIR}': is a directory" demo --png ${WORK_DIR})
expect(2 "^drawpipe: error \\(not_found\\): --json '${WORK_DIR}/no/such/dir/x.json': no directory"
       bench W1 --json ${WORK_DIR}/no/such/dir/x.json)
expect(2 "--png '${WORK_DIR}/no/such/dir/x.png': no directory" render ${DATA}/xfb_strip.txt
       --png ${WORK_DIR}/no/such/dir/x.png)
expect(2 "--xfb-dump '${WORK_DIR}': is a directory" trace --xfb-size 100 --xfb-dump ${WORK_DIR}
       ${DATA}/xfb_strip.txt)
# An output that cannot be written whole (a full disk: /dev/full) is a failure while running,
# exit 1, with the OS's reason; never a "wrote" and exit 0.
if(EXISTS /dev/full)
  expect(1 "^drawpipe: error \\(io_error\\): --png '/dev/full': No space left on device\n$"
         render ${DATA}/xfb_strip.txt --png /dev/full)
  expect(1 "--png '/dev/full': No space left on device" demo --size 4 --png /dev/full)
  expect(1 "--json '/dev/full': No space left on device" bench W2 --reps 1 --min-time 0
         --no-progress --json /dev/full)
  expect(1 "--plot '/dev/full': No space left on device" bench W2 --reps 1 --min-time 0
         --no-progress --plot /dev/full)
  expect(1 "--xfb-dump '/dev/full': No space left on device" trace --xfb-size 100 --xfb-dump
         /dev/full ${DATA}/xfb_strip.txt)
  execute_process(COMMAND ${DRAWPIPE} trace ${DATA}/xfb_strip.txt OUTPUT_FILE /dev/full
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "standard output: No space left on device")
    message(FATAL_ERROR "trace > /dev/full: exit ${rc}, expected 1\n${err}")
  endif()
endif()
# A forced limit above the middle end's names both numbers.
expect(2 "max_vertices: 5000 is above the 4096 vertices per segment middle end 'fetch_shade'"
       trace --max-vertices 5000 ${DATA}/xfb_strip.txt)
# --max-vertices 0 is the middle end's default everywhere.
expect(0 "# primitives_generated 4" trace --max-vertices 0 ${DATA}/xfb_strip.txt)
expect(0 "grid-tris-u16 +distinct +4096" bench W2 --max-vertices 0 --reps 1 --min-time 0
       --no-progress)
expect(2 "--help" trace)
# A limit too small for some primitive types skips them, saying why, and draws the rest.
expect(0 "line_strip +[0-9]+.*triangle_strip +skipped: a segment needs at least 4 vertices"
       demo --size 8 --max-vertices 3 --threads 1 --no-png)
# ... down to 1, where only points run and the picture (triangles) is skipped, saying so.
expect(0 "points +[0-9]+ +[0-9]+ [^\n]*\nlines +skipped: a segment needs at least 2 vertices\n.*triangle_strip_adjacency +skipped: a segment needs at least 8 vertices\nno picture: the torus's triangles need at least 3 vertices per segment \\(--max-vertices 1\\)\n$"
       demo --size 8 --max-vertices 1 --threads 1 --png ${WORK_DIR}/demo1.png)
if(EXISTS ${WORK_DIR}/demo1.png)
  message(FATAL_ERROR "demo --max-vertices 1 wrote a picture")
endif()
# A limit above the middle end's stops the demo before its table, naming both numbers.
expect(2 "^drawpipe: error \\(invalid_value\\): max_vertices: 5000 is above the 4096 vertices per segment middle end 'fetch_shade'"
       demo --size 8 --max-vertices 5000 --no-png)
# The demo's picture: a generated torus, lit, coloured by segment, and it says where it went.
# At the default limit it splits into a dozen segments; a smaller limit gives more.
function(demo_segments out limit)
  file(REMOVE ${WORK_DIR}/demo.png)
  set(re "wrote ${WORK_DIR}/demo.png: a generated torus \\(98304 triangles\\) through the whole pipeline, 1024x768, lit, each of its ([0-9]+) segments in its own colour")
  expect(0 "${re}" demo --size 8 --threads 1 --max-vertices ${limit} --png ${WORK_DIR}/demo.png)
  execute_process(COMMAND ${DRAWPIPE} demo --size 8 --threads 1 --max-vertices ${limit}
                          --png ${WORK_DIR}/demo.png OUTPUT_VARIABLE text)
  string(REGEX MATCH "${re}" _ "${text}")
  if(NOT EXISTS ${WORK_DIR}/demo.png)
    message(FATAL_ERROR "demo --png wrote no file")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
demo_segments(at_default 0)
demo_segments(at_512 512)
if(at_default LESS 8 OR at_default GREATER 40 OR NOT at_512 GREATER at_default)
  message(FATAL_ERROR "demo torus: ${at_default} segments at the default limit, ${at_512} at 512")
endif()
# A real mesh through the whole pipeline: lit, depth-tested, framed by the default camera.
if(MESH AND EXISTS ${MESH})
  expect(0 "wrote ${WORK_DIR}/bunny.png \\(1024x768, lit\\)" render ${MESH} --threads 2
         --png ${WORK_DIR}/bunny.png)
  expect(0 "each segment in its own colour" render ${MESH} --color-by segment --max-vertices 512
         --png ${WORK_DIR}/bunny_segments.png)
  # The default framing keeps the whole mesh in view, off the picture's edges, and fills it:
  # the lit pixels span at least 80% of the width or of the height, from any side.
  function(check_framing)
    execute_process(COMMAND ${DRAWPIPE} render ${MESH} --pixels --width 64 --height 48 ${ARGN}
                    OUTPUT_VARIABLE lit RESULT_VARIABLE rc)
    string(REGEX MATCHALL "[0-9]+ [0-9]+ " pixels "${lit}")
    list(LENGTH pixels n)
    if(NOT rc EQUAL 0 OR n LESS 300)
      message(FATAL_ERROR "render ${MESH} --pixels ${ARGN}: exit ${rc}, ${n} lit pixels of 3072")
    endif()
    set(x0 64)
    set(y0 48)
    set(x1 -1)
    set(y1 -1)
    foreach(p IN LISTS pixels)
      string(REGEX MATCH "^([0-9]+) ([0-9]+)" _ "${p}")
      foreach(v x y)
        if(v STREQUAL "x")
          set(c ${CMAKE_MATCH_1})
        else()
          set(c ${CMAKE_MATCH_2})
        endif()
        if(c LESS ${v}0)
          set(${v}0 ${c})
        endif()
        if(c GREATER ${v}1)
          set(${v}1 ${c})
        endif()
      endforeach()
    endforeach()
    math(EXPR w "${x1} - ${x0} + 1")
    math(EXPR h "${y1} - ${y0} + 1")
    if(x0 EQUAL 0 OR y0 EQUAL 0 OR x1 EQUAL 63 OR y1 EQUAL 47 OR (w LESS 52 AND h LESS 39))
      message(FATAL_ERROR "render ${MESH} ${ARGN}: the mesh spans columns ${x0}-${x1}, rows "
                          "${y0}-${y1} of 64 x 48: not framed")
    endif()
  endfunction()
  check_framing()
  # Without --png or --pixels, render writes render.png and says so (a description too).
  foreach(input ${MESH} ${DATA}/xfb_strip.txt)
    file(REMOVE ${WORK_DIR}/render.png)
    execute_process(COMMAND ${DRAWPIPE} render ${input} WORKING_DIRECTORY ${WORK_DIR}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT err MATCHES "wrote render.png \\(" OR NOT EXISTS ${WORK_DIR}/render.png)
      message(FATAL_ERROR "render ${input}: exit ${rc}, no render.png\n${err}")
    endif()
  endforeach()
  check_framing(--camera 120 -30 0)
  check_framing(--camera 0 80 0 --instances 2)
  expect(2 "--color-by: 'rainbow' is not one of shading, segment, instance, middle-end-thread"
         render ${MESH} --color-by rainbow)
  expect(2 "--instances: for a mesh file" render --instances 2 ${DATA}/xfb_strip.txt)
  # A mesh's options with a draw description, and the other way round, are errors, not ignored.
  expect(2 "--color-by: for a mesh file" render --color-by segment ${DATA}/xfb_strip.txt)
  expect(2 "--camera: for a mesh file" render --camera 10 20 0 ${DATA}/xfb_strip.txt)
  expect(2 "--flat: for a mesh file" render --flat ${DATA}/xfb_strip.txt)
  expect(2 "--gs: for a draw description" render ${MESH} --gs passthrough_tri --pixels)
  expect(2 "--flat: for --color-by segment, instance or middle-end-thread" render ${MESH} --flat
         --pixels)
  expect(2 "--camera: DISTANCE -2.000000 is negative" render ${MESH} --camera 0 0 -2 --pixels)
endif()
