# Every bad input of issue 32's command-line list, run as a user would: each is refused with
# exit 2 and a message naming the option or file and what is wrong, before any work (nothing
# on stdout, no file written), and the same rule holds in every command. The table in
# docs/cli.md lists the same cases. Also the inputs that used to be refused wrongly (render W1,
# render sphere:N, a u32 restart index of 2^24 or more) and the wording fixed (plurals, help).
# Inputs: DRAWPIPE (the program), DATA (tests/data), WORK_DIR, MESH (optional: bunny.obj).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(DESC ${DATA}/xfb_strip.txt)

# expect(CODE REGEX ARGS...): runs drawpipe ARGS in WORK_DIR, wants exit CODE and REGEX in its
# stderr and stdout; a refusal (CODE 2) must also print nothing on stdout and take under
# 3 seconds (checked before any work, even where the work is a 10-million-triangle mesh).
function(expect code regex)
  string(TIMESTAMP t0 "%s")
  set(command ${DRAWPIPE} ${ARGN})
  if(SHELL_LINE)
    set(command sh -c "'${DRAWPIPE}' ${SHELL_LINE}") # an empty argument survives only here
  endif()
  execute_process(COMMAND ${command} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  string(TIMESTAMP t1 "%s")
  math(EXPR took "${t1} - ${t0}")
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "drawpipe ${ARGN}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
  if(NOT "${err}${out}" MATCHES "${regex}")
    message(FATAL_ERROR "drawpipe ${ARGN}: output does not match '${regex}':\n${err}${out}")
  endif()
  if(code EQUAL 2 AND NOT out STREQUAL "")
    message(FATAL_ERROR "drawpipe ${ARGN}: refused, but wrote to stdout first:\n${out}")
  endif()
  if(code EQUAL 2 AND took GREATER 3)
    message(FATAL_ERROR "drawpipe ${ARGN}: refused after ${took} s: not checked before the work")
  endif()
  message(STATUS "exit ${rc}: drawpipe ${ARGN}\n  ${err}")
endfunction()

# expect_not(REGEX ARGS...): runs drawpipe ARGS (exit 0), wants REGEX nowhere in its output.
function(expect_not regex)
  execute_process(COMMAND ${DRAWPIPE} ${ARGN} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR "${err}${out}" MATCHES "${regex}")
    message(FATAL_ERROR "drawpipe ${ARGN}: exit ${rc}, or '${regex}' in:\n${err}${out}")
  endif()
endfunction()

set(E "^drawpipe: error \\([a-z_]+\\): ")

# Output paths: the same rules for --png, --plot, --json and --xfb-dump in every command.
expect(2 "${E}--png '/proc/x.png': cannot write a file there" render ${DESC} --png /proc/x.png)
expect(2 "${E}--png '/proc/demo.png': cannot write a file there" demo --png /proc/demo.png)
# An empty path: CMake drops empty arguments, so these run through sh -c.
set(SHELL_LINE "render --png '' ${DESC}")
expect(2 "${E}--png: an empty path")
set(SHELL_LINE "render ${DESC} --png ''")
expect(2 "${E}--png: an empty path")
set(SHELL_LINE "demo --png '' --size 4")
expect(2 "${E}--png: an empty path")
set(SHELL_LINE "bench --plot '' W2")
expect(2 "${E}--plot: an empty path")
set(SHELL_LINE "bench --json '' W2")
expect(2 "${E}--json: an empty path")
set(SHELL_LINE "trace --xfb-size 100 --xfb-dump '' ${DESC}")
expect(2 "${E}--xfb-dump: an empty path")
unset(SHELL_LINE)
expect(2 "${E}--png 'out.jpg': the file written is PNG, so its name must end in .png"
       render ${DESC} --png out.jpg)
expect(2 "${E}--png 'out.jpg': the file written is PNG" demo --png out.jpg)
expect(2 "${E}--plot 'x.png': the file written is SVG, so its name must end in .svg"
       bench W2 --plot x.png)
expect(2 "${E}--json 'x.txt': the file written is JSON, so its name must end in .json"
       bench W2 --json x.txt)
expect(2 "${E}--xfb-dump: needs --xfb-size" trace --xfb-dump x.bin ${DESC})
expect(2 "${E}--png: given with --no-png" demo --no-png --png x.png)
file(GLOB written ${WORK_DIR}/*)
if(written)
  message(FATAL_ERROR "refused commands left files behind: ${written}")
endif()

# Numeric options: ranges checked as they are parsed, the same for --threads everywhere.
expect(2 "^drawpipe: error \\(usage\\): --width: Value 0 not in range 1 to 16384" render ${DESC} --width 0)
expect(2 "^drawpipe: error \\(usage\\): --height: Value 20000 not in range 1 to 16384" render ${DESC} --height 20000)
foreach(command "render;${DESC}" "trace;${DESC}" "demo" "bench;W2")
  expect(2 "^drawpipe: error \\(usage\\): --threads: Value 0 not in range 1 to 1024" ${command} --threads 0)
endforeach()
# Refused before 10 million triangles are generated (expect() wants it under 3 s).
expect(2 "^drawpipe: error \\(usage\\): --threads: Value 99999 not in range 1 to 1024" bench sphere:10m:random
       --threads 99999)
expect(2 "${E}--max-vertices: 70000 is above the 65536" bench sphere:10m --max-vertices 70000)
expect(2 "${E}max_vertices: 2 is below the 3 vertices a segment of triangles needs"
       bench sphere:10m --max-vertices 2)
expect(2 "${E}--min-time: nan is not a number of seconds 0..3600" bench W2 --min-time nan)
expect(2 "^drawpipe: error \\(usage\\): --instances: Value 0 not in range" mali 70 --instances 0)
expect(2 "${E}--xfb-size: 5000000000 is above 4 GiB" trace --xfb-size 5000000000 ${DESC})

# Inputs: one classification for every command, an unknown kind of file named as such.
file(WRITE ${WORK_DIR}/../jellyfish.jobj "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
set(JOBJ ${WORK_DIR}/../jellyfish.jobj)
expect(2 "${E}'${JOBJ}': unknown extension '.jobj', and not a draw description; drawpipe reads draw descriptions \\(.txt, or '-' for stdin\\), meshes \\(.obj, .ply"
       render ${JOBJ})
expect(2 "unknown extension '.jobj'" bench ${JOBJ})
expect(2 "unknown extension '.jobj'" trace ${JOBJ})
expect(2 "${E}mesh '${WORK_DIR}/missing.obj': No such file or directory \\(and not a workload id"
       render ${WORK_DIR}/missing.obj)
expect(2 "${E}unknown workload 'W9' \\(workloads: W1, W2" render W9)
expect(2 "${E}'W2' is a workload; trace reads draw descriptions" trace W2)
expect(2 "${E}'sphere:1k' is a generated mesh; gen7-header reads draw descriptions"
       gen7-header --gs many_cuts64 sphere:1k)
expect(2 "${E}'${DESC}' is a draw description; bench reads meshes" bench ${DESC})
# A binary file is refused as one, its bytes never echoed (a PNG under a .txt name).
execute_process(COMMAND ${DRAWPIPE} render ${DESC} --png ${WORK_DIR}/../picture.png
                OUTPUT_QUIET ERROR_QUIET)
file(RENAME ${WORK_DIR}/../picture.png ${WORK_DIR}/../binary.txt)
expect(2 "${E}draw description '${WORK_DIR}/../binary.txt': not a text file \\(byte 0x89 at offset 0\\); a draw description is text\n$"
       trace ${WORK_DIR}/../binary.txt)
expect(2 "not a text file \\(byte 0x89 at offset 0\\); a draw description is text\n$" render ${WORK_DIR}/../binary.txt)
# An error of the draw comes before the trace's header: nothing on stdout (expect() checks).
expect(2 "${E}max_vertices: 5000 is above the 4096 vertices" trace --max-vertices 5000 ${DESC})
expect(2 "max_vertices: 1 is below the 4 vertices a segment of triangle_strip needs"
       trace --max-vertices 1 ${DESC})

# What used to be refused: workloads and generated meshes render as bench reads them.
expect(0 "drawpipe render: wrote w2.png \\(256x192, lit\\)" render W2 --width 256 --height 192
       --png w2.png)
expect(0 "drawpipe render: wrote sphere.png \\(128x96, each segment in its own colour: [2-9] segments\\)"
       render sphere:20k --color-by segment --width 128 --height 96 --png sphere.png)
# A u32 draw whose restart index is 2^24 or more: the restart value is no vertex id, so it is
# drawn (as llvmpipe draws it), not refused as "vertex ids up to 2^24".
file(WRITE ${WORK_DIR}/restart.txt "prim triangle_strip\nindex u32\nrestart 4294967295\n"
           "indices 0 1 2 4294967295 3 4 5\n"
           "positions -1 -1 0 1  1 -1 0 1  -1 1 0 1  -1 1 0 1  1 -1 0 1  1 1 0 1\n")
expect(0 "^0 0 FFFFFFFF\n(. . FFFFFFFF\n)*3 3 FFFFFFFF\n$" render ${WORK_DIR}/restart.txt --pixels
       --width 4 --height 4)
expect(0 "\ntri 0/0 1/0 2/0\ntri 3/0 4/0 5/0\n" trace ${WORK_DIR}/restart.txt)
file(WRITE ${WORK_DIR}/restart16m.txt "prim triangles\nindex u32\nrestart 16777216\n"
           "indices 0 1 2 16777216\npositions -1 -1 0 1  1 -1 0 1  -1 1 0 1\n")
expect(0 "^0 0 FFFFFFFF\n" render ${WORK_DIR}/restart16m.txt --pixels --width 4 --height 4)

# Plurals and help.
file(WRITE ${WORK_DIR}/one.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
expect(0 "each segment in its own colour: 1 segment\\)" render one.obj --color-by segment
       --png one.png)
expect(0 "each instance in its own colour: 1 instance\\)" render one.obj --color-by instance
       --png one.png)
expect(0 "each middle-end thread in its own colour: 1 thread shaded segments\\)" render one.obj
       --color-by middle-end-thread --threads 1 --png one.png)
expect(0 "--no-progress +No progress line on stderr" bench --help)
expect_not("\\{false\\}" bench --help)
# --reps below a stable figure warns, on stderr, once before the rows and once after.
expect(0 "warning: --reps 1: a best of fewer than 5 timed draws is not a stable figure.*warning: 1 of 1 row timed fewer than 5 draws"
       bench W2 --reps 1 --min-time 0)
